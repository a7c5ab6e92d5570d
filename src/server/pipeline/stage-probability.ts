import { DEFAULT_STAGE_PROBABILITY, OPEN_STATUSES, type LeadStatus } from '#shared/constants';
import { AppError } from '../lib/app-error.ts';

/**
 * A stage's chance to win (docs/product-rules.md, "Pipeline"): open stages (New, Contacted) carry
 * one, 0–100 % (50 when not given), which weighs their fees in the forecast; Won and Lost stages
 * carry none. The table's check constraint (pipeline_stages_probability_check) refuses any other.
 */

export const NO_PROBABILITY = 'Only open stages (New and Contacted) have a win probability.';

export const isOpenStatus = (status: LeadStatus) => (OPEN_STATUSES as readonly LeadStatus[]).includes(status);

const refused = () => new AppError('validation_failed', NO_PROBABILITY, { probability: 'Only open stages have a win probability' });

/** A new stage's probability: the one asked for, 50 for an open stage without one, none for a closed stage (400 when one was asked for). */
export function newStageProbability(status: LeadStatus, asked: number | null | undefined): number | null {
  const open = isOpenStatus(status);
  if (!open && asked !== undefined && asked !== null) throw refused();
  return open ? (asked ?? DEFAULT_STAGE_PROBABILITY) : null;
}

/**
 * A stage's probability once changed: as it was when none is sent, else as a new stage's (null
 * sent to an open stage is 50 again).
 */
export function changedStageProbability(status: LeadStatus, before: number | null, asked: number | null | undefined): number | null {
  return asked === undefined ? before : newStageProbability(status, asked);
}
