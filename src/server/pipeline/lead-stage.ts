/**
 * A lead's stage and its status move together (docs/product-rules.md, "Pipeline", A lead's
 * stage): each stage belongs to one of the four statuses, so every filter, report and API field
 * that reads a status keeps its meaning.
 * - A stage set sets the status (an unknown stage is refused: foreign_key_violation).
 * - A status set alone puts the lead in that status's first stage.
 * - A Dropped lead always has a lost reason ("Not given" when nobody said why); no other lead has one.
 * - The time the lead entered its stage moves only when its stage does (the board's age in stage).
 *
 * This rule stays in the database, as the trigger LEAD_STAGE_TRIGGER
 * (src/server/db/functions/leads_stage_sync.sql, BEFORE INSERT or UPDATE of status, stage_id,
 * lost_reason on leads): every path that writes a status (the lead form, imports, bulk changes,
 * merges, the demo seed, an inquiry that reopens a Dropped lead, a person with psql) keeps to it
 * without calling anything, and it holds whatever writes meet: it runs inside each row's write, on
 * the row as it is then, so two people setting one lead's status and stage at once leave them
 * agreeing. A stage an owner removes meanwhile is held by the removal (stages.ts, removeStage),
 * and the lead's foreign key (leads.stage_id) waits for it and then refuses the move, so no lead
 * is left in a stage that is gone. Its test is lead-stage.api.test.ts.
 *
 * What an API request may ask of a lead's stage (a stage that agrees with a `status` sent beside
 * it; a lost reason from the list, with a Dropped stage only) is checked where a lead is updated:
 * shared/rules/lead-stage-change.ts, applied by db/queries/leads-queries.ts on the locked row.
 */
export const LEAD_STAGE_TRIGGER = 'leads_stage_sync';
