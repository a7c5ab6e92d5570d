import { sql, type SQL } from 'drizzle-orm';
import * as z from 'zod';
import { boardCardSchema } from '#shared/schemas/pipeline-board';
import { LEAD_STATUSES, OPEN_STATUSES } from '#shared/constants';
import type { Db } from '../client.ts';
import { pgArray, queryRows } from '../sql.ts';
import { leadConditions, type LeadFilters } from './lead-list-queries.ts';

/**
 * The pipeline board's SQL (pipeline/board.ts puts the board together): every stage's count,
 * fees and weighted fees in one grouped statement, the forecast as an exact numeric rounded
 * once, and pages of cards in one lateral join. Cards are ordered by when they entered their
 * stage, the latest first (a card just dropped is on top), then by id, read from
 * leads_stage_entered_idx (stage_id, stage_entered_at desc, id desc); a page goes on from a
 * keyset bound, so a move elsewhere never makes a page repeat or skip a card.
 */

/** Where a column's page ended: the last card's stage_entered_at (microseconds, as stored) and id. */
export type BoardCursor = { at: string; id: string };

/** The leads matching the filters, as a condition on leads `l`. */
export const boardConditions = (filters: LeadFilters): SQL => and(leadConditions(filters));

const statusOrder = sql`array_position(${pgArray([...LEAD_STATUSES])}::text[], s.status)`;
/** `'New', 'Contacted'` (OPEN_STATUSES), written into the statement as literals, as it always had them. */
const openStatuses = sql.raw(OPEN_STATUSES.map((status) => `'${status}'`).join(', '));

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
export type BoardCardRow = z.infer<typeof cardRow>;
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

/** The stages (all, or one) in the pipeline's order, with their count, fees and weighted fees over the leads matching `where`. */
export function stageTotals(db: Db, where: SQL, stageId?: string) {
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
 * The forecast over the open leads matching `where`: Σ fee × probability / 100, summed as an
 * exact numeric and rounded once (half up), so it never drifts by a cent a column.
 */
export async function forecast(db: Db, where: SQL): Promise<number> {
  const [row] = await queryRows(
    db,
    sql`select coalesce(round(sum(l.estimated_fee_cents::numeric * s.probability) / 100), 0)::float8 as expected
        from leads l join pipeline_stages s on s.id = l.stage_id
        where s.status in (${openStatuses}) and l.estimated_fee_cents is not null ${where}`,
    forecastRow,
  );
  return row?.expected ?? 0;
}

/** Up to `limit + 1` cards of each given stage, after `after` (the extra one says whether there is a next page). */
export function cardPages(db: Db, stageIds: string[], where: SQL, limit: number, after?: BoardCursor) {
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

/** The Overview's forecast: every open lead's fee × its stage's probability, in whole cents. */
export const getExpectedFees = (db: Db) => forecast(db, sql``);
