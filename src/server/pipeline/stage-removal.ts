import type { PipelineStage } from '#shared/schemas/pipeline';
import { AppError } from '../lib/app-error.ts';

/**
 * Removing a stage (docs/product-rules.md, "Pipeline", Remove): its leads go to another stage of
 * the same status, so no lead's status changes (a lead's status is its stage's: lead-stage.ts),
 * and each status keeps at least one stage, where setting the status alone puts a lead.
 */

export const LAST_OF_STATUS = 'Each status keeps at least one stage: add another before removing this one.';

/**
 * Where the leads of `stage` go, `target` (undefined: none, or the stage itself), given how many
 * other stages its status has; refused with 409 for its status's last stage, 400 for a target of
 * another status.
 */
export function checkStageRemoval<T extends Pick<PipelineStage, 'status'>>(
  stage: Pick<PipelineStage, 'status'>,
  target: T | undefined,
  othersOfStatus: number,
): T {
  if (othersOfStatus === 0) throw new AppError('conflict', LAST_OF_STATUS);
  if (!target || target.status !== stage.status)
    throw new AppError('validation_failed', 'Choose another stage of the same status for its leads.', {
      move_to: 'Choose another stage of the same status',
    });
  return target;
}
