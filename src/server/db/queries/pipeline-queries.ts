import { sql } from 'drizzle-orm';
import * as z from 'zod';
import { LEAD_STATUSES, LOST_REASONS_MAX, PIPELINE_STAGES_MAX, type LeadStatus } from '#shared/constants';
import {
  lostReasonSchema,
  pipelineStageSchema,
  type LostReason,
  type PipelineSettings,
  type PipelineStage,
} from '#shared/schemas/pipeline';
import type { Db } from '../client.ts';
import { execute, pgArray, queryRows } from '../sql.ts';

/**
 * The pipeline's stages and lost reasons (Settings → Pipeline), as SQL: the rules that change
 * them are in pipeline/ (stages.ts, lost-reasons.ts), which runs these in one transaction under
 * lockPipeline.
 */

const statusOrder = sql`array_position(${pgArray([...LEAD_STATUSES])}::text[], s.status)`;
const stageColumns = sql`s.id, s.name, s.status, s.position, s.probability,
  (select count(*)::int from leads l where l.stage_id = s.id) as leads`;

export function listStages(db: Db): Promise<PipelineStage[]> {
  return queryRows(db, sql`select ${stageColumns} from pipeline_stages s order by ${statusOrder}, s.position, s.id`, pipelineStageSchema);
}

export async function getPipelineSettings(db: Db): Promise<PipelineSettings> {
  const [stages, lost_reasons] = await Promise.all([
    listStages(db),
    queryRows(db, sql`select id, name from lost_reasons order by position, id`, lostReasonSchema),
  ]);
  return { stages, lost_reasons };
}

/**
 * The one lock every change to the stages or reasons takes, in its transaction: two owners
 * reordering at once end in one order, not a mix.
 */
export const lockPipeline = (tx: Db) => execute(tx, sql`select pg_advisory_xact_lock(hashtext('pipeline_settings'))`);

export async function stageById(db: Db, id: string): Promise<PipelineStage | undefined> {
  const [row] = await queryRows(db, sql`select ${stageColumns} from pipeline_stages s where s.id = ${id}`, pipelineStageSchema);
  return row;
}

/** Renumbers a status's stages 1… in the order `ids` gives (the others after them, as they were). */
export async function renumberStages(tx: Db, status: string, ids: string[]): Promise<void> {
  await execute(
    tx,
    sql`update pipeline_stages s set position = o.n
        from (select id, row_number() over (order by coalesce(array_position(${pgArray(ids)}::uuid[], id), 1000000), position, id) as n
              from pipeline_stages where status = ${status}) o
        where o.id = s.id and s.position is distinct from o.n`,
  );
}

/** The stage added at the end of its status's stages, or undefined when the firm has PIPELINE_STAGES_MAX already (count and insert in one statement, under lockPipeline). */
export async function insertStage(
  tx: Db,
  stage: { name: string; status: LeadStatus; probability: number | null },
): Promise<PipelineStage | undefined> {
  const [row] = await queryRows(
    tx,
    sql`insert into pipeline_stages (name, status, position, probability)
        select ${stage.name}, ${stage.status}, coalesce((select max(position) from pipeline_stages where status = ${stage.status}), 0) + 1,
          ${stage.probability}::int
        where (select count(*) from pipeline_stages) < ${PIPELINE_STAGES_MAX}
        returning id`,
    z.object({ id: z.uuid() }),
  );
  return row ? stageById(tx, row.id) : undefined;
}

/** Renames a stage and sets its probability. */
export async function setStage(tx: Db, id: string, stage: { name: string; probability: number | null }): Promise<void> {
  await execute(tx, sql`update pipeline_stages set name = ${stage.name}, probability = ${stage.probability}::int where id = ${id}`);
}

/** The ids of a status's stages but `except`, in their order. */
export async function stageIdsOf(tx: Db, status: LeadStatus, except: string): Promise<string[]> {
  const rows = await queryRows(
    tx,
    sql`select id from pipeline_stages where status = ${status} and id <> ${except} order by position, id`,
    z.object({ id: z.uuid() }),
  );
  return rows.map((r) => r.id);
}

/** Holds a stage until the transaction ends: a lead being moved into it meanwhile waits, then is refused if it went. */
export async function lockStage(tx: Db, id: string): Promise<void> {
  await execute(tx, sql`select 1 from pipeline_stages where id = ${id} for update`);
}

/**
 * Moves every lead of stage `from` to stage `to`, each with a timeline entry by `adminId` naming
 * both, and removes `from`: how many leads moved. Their status follows the stage they are put in
 * (trigger leads_stage_sync: pipeline/lead-stage.ts).
 */
export async function removeStageMovingLeads(
  tx: Db,
  from: Pick<PipelineStage, 'id' | 'name' | 'status'>,
  to: Pick<PipelineStage, 'id' | 'name'>,
  adminId: string,
): Promise<number> {
  const moved = await execute(
    tx,
    sql`with moved as (update leads set stage_id = ${to.id} where stage_id = ${from.id} returning id)
        insert into lead_events (lead_id, kind, actor_id, data)
        select id, 'stage', ${adminId}::uuid, jsonb_build_object('from', ${from.name}::text, 'to', ${to.name}::text) from moved`,
  );
  await execute(tx, sql`delete from pipeline_stages where id = ${from.id}`);
  await renumberStages(tx, from.status, []);
  return moved;
}

export const lostReasonById = async (db: Db, id: string): Promise<LostReason | undefined> =>
  (await queryRows(db, sql`select id, name from lost_reasons where id = ${id}`, lostReasonSchema))[0];

/** The reason added at the end of the list, or undefined when the firm has LOST_REASONS_MAX already (under lockPipeline). */
export async function insertLostReason(tx: Db, name: string): Promise<LostReason | undefined> {
  const [row] = await queryRows(
    tx,
    sql`insert into lost_reasons (name, position)
        select ${name}, coalesce((select max(position) from lost_reasons), 0) + 1
        where (select count(*) from lost_reasons) < ${LOST_REASONS_MAX}
        returning id, name`,
    lostReasonSchema,
  );
  return row;
}

/** Renames a reason in the list (leads lost for it keep the words they have). */
export async function setLostReasonName(tx: Db, id: string, name: string): Promise<void> {
  await execute(tx, sql`update lost_reasons set name = ${name} where id = ${id}`);
}

/** Removes a reason from the list; leads lost for it keep the words. */
export async function deleteLostReason(db: Db, id: string): Promise<LostReason | undefined> {
  const [row] = await queryRows(db, sql`delete from lost_reasons where id = ${id} returning id, name`, lostReasonSchema);
  return row;
}
