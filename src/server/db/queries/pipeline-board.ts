import { sql, type SQL } from 'drizzle-orm';
import * as z from 'zod';
import { BOARD_PAGE_SIZE, boardCardSchema, type BoardCard, type BoardColumn, type PipelineBoard } from '#shared/schemas/pipeline-board';
import { LEAD_STATUSES } from '#shared/constants';
import type { Db } from '../client.ts';
import { pgArray, queryRows } from '../sql.ts';
import { leadConditions, type LeadFilters } from './lead-list.ts';

/**
 * The pipeline board: a column per stage, each with its count, fees and weighted fees, the open
 * stages' first page of cards, and the forecast. Cards are ordered by when they entered their
 * stage, the latest first (a card just dropped is on top), then by id, read from
 * leads_stage_entered_idx (stage_id, stage_entered_at desc, id desc); a page goes on from a
 * keyset cursor, so a move elsewhere never makes a page repeat or skip a card.
 */

/** Where a column's page ended: the last card's stage_entered_at (microseconds, as stored) and id. */
export type BoardCursor = { at: string; id: string };

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const MICRO_ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/;

export const encodeCursor = (c: BoardCursor) => Buffer.from(`${c.at}|${c.id}`).toString('base64url');

/** The cursor's parts, or undefined when it is not one the board handed out. */
export function decodeCursor(cursor: string): BoardCursor | undefined {
  const [at, id, ...rest] = Buffer.from(cursor, 'base64url').toString('utf8').split('|');
  if (rest.length > 0 || !at || !id || !MICRO_ISO.test(at) || !UUID.test(id)) return undefined;
  // A date the calendar does not have (Feb 30, which Date.parse rolls over) would fail in the database: refuse it here.
  const ms = Date.parse(at);
  return Number.isNaN(ms) || new Date(ms).toISOString().slice(0, 19) !== at.slice(0, 19) ? undefined : { at, id };
}

const OPEN = ['New', 'Contacted'] as const;
const statusOrder = sql`array_position(${pgArray([...LEAD_STATUSES])}::text[], s.status)`;

const stageRow = z.object({
  id: z.uuid(),
  name: z.string(),
  status: z.enum(LEAD_STATUSES),
  probability: z.number().int().nullable(),
  count: z.number().int(),
  fees_cents: z.number(),
  weighted_cents: z.number(),
});

const cardRow = boardCardSchema.extend({ stage_id: z.uuid(), entered_at_micros: z.string() });
const forecastRow = z.object({ expected: z.number() });

const and = (parts: SQL[]) => (parts.length > 0 ? sql` and ${sql.join(parts, sql` and `)}` : sql``);

/** A card's columns, from a lead `l`. */
const cardColumns = sql`l.id, l.full_name, l.estimated_fee_cents::float8 as estimated_fee_cents,
  case when l.owner_id is null then null
       else (select json_build_object('id', u.id, 'name', u.display_name) from users u where u.id = l.owner_id) end as owner,
  case when l.follow_up_on is null then null
       else json_build_object('on', to_char(l.follow_up_on, 'YYYY-MM-DD'), 'title', l.follow_up_note) end as next_step,
  to_char(l.stage_entered_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as stage_entered_at,
  to_char(l.stage_entered_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') as entered_at_micros,
  l.stage_id`;

/** The stages (all, or one) with their count, fees and weighted fees over the leads matching the filters. */
function stageTotals(db: Db, where: SQL, stageId?: string) {
  return queryRows(
    db,
    sql`select s.id, s.name, s.status, s.probability,
          coalesce(t.count, 0)::int as count, coalesce(t.fees, 0)::float8 as fees_cents,
          coalesce(round(t.fees * coalesce(s.probability, 0) / 100), 0)::float8 as weighted_cents
        from pipeline_stages s
        left join (select l.stage_id, count(*) as count, sum(coalesce(l.estimated_fee_cents, 0))::numeric as fees
                   from leads l where true ${where} group by l.stage_id) t on t.stage_id = s.id
        ${stageId === undefined ? sql`` : sql`where s.id = ${stageId}`}
        order by ${statusOrder}, s.position, s.id`,
    stageRow,
  );
}

/**
 * The forecast over the open leads matching the filters: Σ fee × probability / 100, summed as
 * an exact numeric and rounded once (half up), so it never drifts by a cent a column.
 */
async function forecast(db: Db, where: SQL): Promise<number> {
  const [row] = await queryRows(
    db,
    sql`select coalesce(round(sum(l.estimated_fee_cents::numeric * s.probability) / 100), 0)::float8 as expected
        from leads l join pipeline_stages s on s.id = l.stage_id
        where s.status in ('New', 'Contacted') and l.estimated_fee_cents is not null ${where}`,
    forecastRow,
  );
  return row?.expected ?? 0;
}

/** Up to `limit + 1` cards of each given stage (the extra one says whether there is a next page). */
function cardPages(db: Db, stageIds: string[], where: SQL, limit: number, after?: BoardCursor) {
  if (stageIds.length === 0) return Promise.resolve([]);
  const from = after ? sql` and (l.stage_entered_at, l.id) < (${after.at}::timestamptz, ${after.id}::uuid)` : sql``;
  return queryRows(
    db,
    sql`select c.* from unnest(${pgArray(stageIds)}::uuid[]) as s(id)
        cross join lateral (
          select ${cardColumns} from leads l
          where l.stage_id = s.id ${where}${from}
          -- nulls last, as leads_stage_entered_idx has them (both columns are never null): else the index cannot give the order.
          order by l.stage_entered_at desc nulls last, l.id desc nulls last
          limit ${limit + 1}
        ) c`,
    cardRow,
  );
}

export type BoardOptions = { stageId?: string; cursor?: BoardCursor; pageSize?: number };

/**
 * The board under the filters: every stage (its cards for the open ones), or with `stageId` that
 * one column's page from `cursor` (any stage, Won and Lost included). Undefined: no such stage.
 */
export async function getPipelineBoard(db: Db, filters: LeadFilters, options: BoardOptions = {}): Promise<PipelineBoard | undefined> {
  const where = and(leadConditions(filters));
  const limit = options.pageSize ?? BOARD_PAGE_SIZE;
  const [stages, expected] = await Promise.all([stageTotals(db, where, options.stageId), forecast(db, where)]);
  if (options.stageId !== undefined && stages.length === 0) return undefined;
  const withCards = stages.filter((s) => options.stageId !== undefined || (OPEN as readonly string[]).includes(s.status)).map((s) => s.id);
  const cards = await cardPages(db, withCards, where, limit, options.cursor);
  const byStage = new Map<string, typeof cards>();
  for (const card of cards) byStage.set(card.stage_id, [...(byStage.get(card.stage_id) ?? []), card]);
  const columns = stages.map((s): BoardColumn => {
    const rows = byStage.get(s.id) ?? [];
    const page = rows.slice(0, limit);
    const last = page.at(-1);
    return {
      stage: { id: s.id, name: s.name, status: s.status, probability: s.probability },
      count: s.count,
      fees_cents: s.fees_cents,
      weighted_cents: s.weighted_cents,
      cards: page.map(toCard),
      next_cursor: rows.length > limit && last ? encodeCursor({ at: last.entered_at_micros, id: last.id }) : null,
    };
  });
  return { columns, expected_fees_cents: expected };
}

const toCard = ({ stage_id: _s, entered_at_micros: _m, ...card }: z.infer<typeof cardRow>): BoardCard => card;

/** The Overview's forecast: every open lead's fee × its stage's probability, in whole cents. */
export const getExpectedFees = (db: Db) => forecast(db, sql``);
