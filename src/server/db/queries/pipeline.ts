import { sql } from 'drizzle-orm';
import * as z from 'zod';
import { DEFAULT_STAGE_PROBABILITY, LEAD_STATUSES, LOST_REASONS_MAX, PIPELINE_STAGES_MAX, type LeadStatus } from '#shared/constants';
import {
  lostReasonSchema,
  pipelineStageSchema,
  type CreateStageRequest,
  type LostReason,
  type PipelineSettings,
  type PipelineStage,
  type UpdateStageRequest,
} from '#shared/schemas/pipeline';
import type { Db } from '../client.ts';
import { unlessNameTaken } from '../database-faults.ts';
import { execute, pgArray, queryRows, transaction } from '../sql.ts';

/**
 * The pipeline's stages and lost reasons (Settings → Pipeline). A lead's status is always its
 * stage's (trigger leads_stage_sync), so a stage never changes status, and each status keeps at
 * least one stage (where the status alone puts a lead). Changes to the list take one lock, so
 * two owners reordering at once end in one order, not a mix.
 */

const OPEN: readonly LeadStatus[] = ['New', 'Contacted'];
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

export type StageRefusal = 'name_taken' | 'too_many' | 'not_found' | 'no_probability' | 'move_to' | 'last_of_status';

/** The one lock every change to the stages or reasons takes, in its transaction. */
const lockPipeline = (tx: Db) => execute(tx, sql`select pg_advisory_xact_lock(hashtext('pipeline_settings'))`);

async function stageById(db: Db, id: string): Promise<PipelineStage | undefined> {
  const [row] = await queryRows(db, sql`select ${stageColumns} from pipeline_stages s where s.id = ${id}`, pipelineStageSchema);
  return row;
}

/** Renumbers a status's stages 1… in the order `ids` gives (the others after them, as they were). */
async function renumber(tx: Db, status: string, ids: string[]): Promise<void> {
  await execute(
    tx,
    sql`update pipeline_stages s set position = o.n
        from (select id, row_number() over (order by coalesce(array_position(${pgArray(ids)}::uuid[], id), 1000000), position, id) as n
              from pipeline_stages where status = ${status}) o
        where o.id = s.id and s.position is distinct from o.n`,
  );
}

/** Adds a stage at the end of its status's stages. */
export function createStage(db: Db, req: CreateStageRequest): Promise<PipelineStage | StageRefusal> {
  const open = OPEN.includes(req.status);
  if (!open && req.probability !== undefined && req.probability !== null) return Promise.resolve('no_probability');
  const probability = open ? (req.probability ?? DEFAULT_STAGE_PROBABILITY) : null;
  return unlessNameTaken(
    transaction(db, async (tx) => {
      await lockPipeline(tx);
      const [row] = await queryRows(
        tx,
        sql`insert into pipeline_stages (name, status, position, probability)
            select ${req.name}, ${req.status}, coalesce((select max(position) from pipeline_stages where status = ${req.status}), 0) + 1,
              ${probability}::int
            where (select count(*) from pipeline_stages) < ${PIPELINE_STAGES_MAX}
            returning id`,
        z.object({ id: z.uuid() }),
      );
      if (!row) return 'too_many' as const;
      return (await stageById(tx, row.id))!;
    }),
  );
}

/** Renames a stage, sets its probability, or moves it among its status's stages. */
export function updateStage(
  db: Db,
  id: string,
  req: UpdateStageRequest,
): Promise<{ before: PipelineStage; after: PipelineStage } | StageRefusal> {
  return unlessNameTaken(
    transaction(db, async (tx) => {
      await lockPipeline(tx);
      const before = await stageById(tx, id);
      if (!before) return 'not_found' as const;
      if (req.probability !== undefined && req.probability !== null && !OPEN.includes(before.status)) return 'no_probability' as const;
      if (req.name !== undefined || req.probability !== undefined)
        await execute(
          tx,
          sql`update pipeline_stages set name = ${req.name ?? before.name},
                probability = ${req.probability === undefined ? before.probability : OPEN.includes(before.status) ? (req.probability ?? DEFAULT_STAGE_PROBABILITY) : null}::int
              where id = ${id}`,
        );
      if (req.position !== undefined && req.position !== before.position) {
        const order = (
          await queryRows(
            tx,
            sql`select id from pipeline_stages where status = ${before.status} and id <> ${id} order by position, id`,
            z.object({ id: z.uuid() }),
          )
        ).map((r) => r.id);
        order.splice(Math.min(req.position, order.length + 1) - 1, 0, id);
        await renumber(tx, before.status, order);
      }
      return { before, after: (await stageById(tx, id))! };
    }),
  );
}

/**
 * Removes a stage, its leads moving to `moveTo`, another stage of the same status (so no
 * lead's status changes), each with a timeline entry by `adminId`. Answers the stage removed
 * and how many leads moved.
 */
export function deleteStage(
  db: Db,
  id: string,
  moveTo: string,
  adminId: string,
): Promise<{ stage: PipelineStage; moved: number; to: string } | StageRefusal> {
  return transaction(db, async (tx) => {
    await lockPipeline(tx);
    // Held until the stage is gone: a lead being moved into it meanwhile waits, then is refused.
    await execute(tx, sql`select 1 from pipeline_stages where id = ${id} for update`);
    const stage = await stageById(tx, id);
    if (!stage) return 'not_found';
    const target = moveTo === id ? undefined : await stageById(tx, moveTo);
    const others = await queryRows(
      tx,
      sql`select count(*)::int as n from pipeline_stages where status = ${stage.status} and id <> ${id}`,
      z.object({ n: z.number() }),
    );
    if ((others[0]?.n ?? 0) === 0) return 'last_of_status';
    if (!target || target.status !== stage.status) return 'move_to';
    const moved = await execute(
      tx,
      sql`with moved as (update leads set stage_id = ${moveTo} where stage_id = ${id} returning id)
          insert into lead_events (lead_id, kind, actor_id, data)
          select id, 'stage', ${adminId}::uuid, jsonb_build_object('from', ${stage.name}::text, 'to', ${target.name}::text) from moved`,
    );
    await execute(tx, sql`delete from pipeline_stages where id = ${id}`);
    await renumber(tx, stage.status, []);
    return { stage, moved, to: target.name };
  });
}

export type ReasonRefusal = 'name_taken' | 'too_many' | 'not_found';

const reasonById = async (db: Db, id: string): Promise<LostReason | undefined> =>
  (await queryRows(db, sql`select id, name from lost_reasons where id = ${id}`, lostReasonSchema))[0];

export function createLostReason(db: Db, name: string): Promise<LostReason | ReasonRefusal> {
  return unlessNameTaken(
    transaction(db, async (tx) => {
      await lockPipeline(tx);
      const [row] = await queryRows(
        tx,
        sql`insert into lost_reasons (name, position)
            select ${name}, coalesce((select max(position) from lost_reasons), 0) + 1
            where (select count(*) from lost_reasons) < ${LOST_REASONS_MAX}
            returning id, name`,
        lostReasonSchema,
      );
      return row ?? ('too_many' as const);
    }),
  );
}

export async function renameLostReason(
  db: Db,
  id: string,
  name: string,
): Promise<{ before: LostReason; after: LostReason } | ReasonRefusal> {
  return unlessNameTaken(
    transaction(db, async (tx) => {
      await lockPipeline(tx);
      const before = await reasonById(tx, id);
      if (!before) return 'not_found' as const;
      await execute(tx, sql`update lost_reasons set name = ${name} where id = ${id}`);
      return { before, after: { id, name } };
    }),
  );
}

/** Removes a reason from the list; leads lost for it keep the words. */
export async function deleteLostReason(db: Db, id: string): Promise<LostReason | undefined> {
  const [row] = await queryRows(db, sql`delete from lost_reasons where id = ${id} returning id, name`, lostReasonSchema);
  return row;
}
