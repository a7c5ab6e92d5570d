/**
 * Whether a change of a lead's stage or lost reason may be made, given what the database says
 * of them (read with the lead's row locked, db/queries/leads-queries.ts, so the answer holds for the
 * write): a stage exists and agrees with a status or "contacted" sent with it; a lost reason is
 * one of the firm's and goes with a Lost stage; moving a Lost lead to another Lost stage needs
 * its reason again. The trigger leads_stage_sync keeps the status and the stage together for
 * every writer (src/server/db/functions/leads_stage_sync.sql; src/server/pipeline/lead-stage.ts).
 */
export const LEAD_STAGE_MESSAGES = {
  noSuchStage: 'No such stage: reload the page to see the pipeline as it is now.',
  lostReasonRequired: 'Choose why the deal was lost',
  unknownLostReason: 'Choose one of the lost reasons in Settings → Pipeline',
  lostReasonNotLost: 'A lost reason goes with a Lost stage',
} as const;

export type StageChange = { stage_id?: string; status?: string; contacted?: boolean; lost_reason?: string };

/** What the database says: the lead's status and stage, the new stage's status and name (null: none), whether the reason is known. */
export type StageFacts = {
  status: string | null;
  stage_id: string | null;
  stage_status: string | null;
  stage_name: string | null;
  reason_known: boolean;
};

export type StageRefusal = { field: 'stage_id' | 'status' | 'contacted' | 'lost_reason'; message: string };

export function stageChangeRefusal(change: StageChange, facts: StageFacts): StageRefusal | undefined {
  if (change.stage_id !== undefined) {
    if (!facts.stage_status) return { field: 'stage_id', message: LEAD_STAGE_MESSAGES.noSuchStage };
    if (change.status !== undefined && change.status !== facts.stage_status)
      return { field: 'status', message: `The stage “${facts.stage_name}” belongs to ${facts.stage_status}, not ${change.status}` };
    if (change.contacted !== undefined && change.contacted !== (facts.stage_status !== 'New'))
      return { field: 'contacted', message: `The stage “${facts.stage_name}” belongs to ${facts.stage_status}` };
  }
  // The status the lead ends with: the new stage's, the status sent, or what "contacted" makes of the current one.
  const ends =
    facts.stage_status ??
    change.status ??
    (change.contacted === undefined ? facts.status : change.contacted ? (facts.status === 'New' ? 'Contacted' : facts.status) : 'New');
  if (change.lost_reason !== undefined) {
    if (!facts.reason_known) return { field: 'lost_reason', message: LEAD_STAGE_MESSAGES.unknownLostReason };
    if (ends !== 'Dropped') return { field: 'lost_reason', message: LEAD_STAGE_MESSAGES.lostReasonNotLost };
  } else if (change.stage_id !== undefined && facts.stage_status === 'Dropped' && change.stage_id !== facts.stage_id) {
    return { field: 'lost_reason', message: LEAD_STAGE_MESSAGES.lostReasonRequired };
  }
  return undefined;
}
