import { sql, type SQL } from 'drizzle-orm';
import * as z from 'zod';
import { leadSchema, type Lead, type LeadListQuery, type LeadSort } from '#shared/schemas/lead';
import { parseUtmValue, type LeadOrigin } from '#shared/schemas/analytics-report';
import { phoneSearchDigits } from '../../lib/phone-search.ts';
import { leadOrigin, referrerValue } from './analytics-report-queries.ts';
import type { Db } from '../client.ts';
import { pgArray, queryRows } from '../sql.ts';
import { leadColumns } from './leads-queries.ts';

/**
 * The leads list: search, filters and sort as SQL (the Leads page, its CSV export, the
 * Overview's Recent Leads and the bulk actions' selection). One lead and its changes are in
 * leads.ts.
 */

/**
 * Newest first. `nulls last` matches leads_created_at_idx (created_at desc nulls last, id desc
 * nulls last): without it PostgreSQL cannot read the newest leads from the index and sorts them all.
 */
const newestFirst = sql`order by l.created_at desc nulls last, l.id desc nulls last`;

/** `%`, `_` and `\` typed into the search box are matched literally. */
const escapeLike = (s: string) => s.replace(/[\\%_]/g, (m) => `\\${m}`);

/**
 * What the list, the export and the Overview select. `owner`: an admin's id, null for
 * unassigned leads, absent for anyone's. `created_from`/`created_to`: days (YYYY-MM-DD) in
 * `timeZone`, both included. `ids`: only these leads.
 */
export type LeadFilters = Pick<
  LeadListQuery,
  'search' | 'status' | 'property_type' | 'created_from' | 'created_to' | 'origin' | 'origin_value' | 'visit_from' | 'visit_to'
> & {
  owner?: string | null;
  ids?: string[];
  timeZone?: string;
};

/** The list's order: a column and a direction; the default is newest first. */
export type LeadOrder = { sort: LeadSort; dir: 'asc' | 'desc' };
export const NEWEST_FIRST: LeadOrder = { sort: 'created', dir: 'desc' };

/**
 * Search (name and email case-insensitively, phone as a substring as typed or by its digits) and
 * every filter, combined. Each alternative has its trigram index (leads_*_trgm_idx), which the
 * planner ORs together.
 */
export function leadConditions(filters: LeadFilters): SQL[] {
  const parts: SQL[] = [];
  if (filters.search) {
    const like = `%${escapeLike(filters.search)}%`;
    const digits = phoneSearchDigits(filters.search);
    const byDigits = digits === null ? sql`` : sql` or l.phone_digits like ${`%${digits}%`}`;
    parts.push(sql`(l.full_name ilike ${like} or l.email ilike ${like} or l.phone like ${like}${byDigits})`);
  }
  if (filters.status) parts.push(sql`l.status = ${filters.status}`);
  if (filters.property_type) parts.push(sql`l.property_types @> array[${filters.property_type}]::text[]`);
  if (filters.owner === null) parts.push(sql`l.owner_id is null`);
  else if (filters.owner !== undefined) parts.push(sql`l.owner_id = ${filters.owner}::uuid`);
  // A day's bounds are computed by the database, in the business time zone (daylight saving
  // included), so the comparison stays on the bare created_at column and its indexes.
  const zone = filters.timeZone ?? 'UTC';
  if (filters.created_from) parts.push(sql`l.created_at >= (${filters.created_from}::date)::timestamp at time zone ${zone}`);
  if (filters.created_to) parts.push(sql`l.created_at < (${filters.created_to}::date + 1)::timestamp at time zone ${zone}`);
  if (filters.ids) parts.push(sql`l.id = any(${pgArray(filters.ids)}::uuid[])`);
  if (filters.origin) parts.push(originCondition(filters.origin, filters.origin_value ?? ''));
  // A lead's analytics day: its visit's (first touch), or the day it was added when no visit was recorded.
  const attributed = sql`coalesce(l.visit_hour, l.created_at)`;
  if (filters.visit_from) parts.push(sql`${attributed} >= (${filters.visit_from}::date)::timestamp at time zone ${zone}`);
  if (filters.visit_to) parts.push(sql`${attributed} < (${filters.visit_to}::date + 1)::timestamp at time zone ${zone}`);
  return parts;
}

/** The leads one row of the Analytics sources table counts (the same rules as getAnalyticsSources). */
function originCondition(origin: LeadOrigin, value: string): SQL {
  const visited = sql`${leadOrigin('l')} = 'visit'`;
  switch (origin) {
    case 'referrer':
      return sql`${visited} and ${referrerValue('l.source')} = ${value}`;
    case 'landing':
      return sql`${visited} and coalesce(l.landing_page, '') = ${value}`;
    case 'utm': {
      const [source, medium, campaign] = parseUtmValue(value) ?? [];
      if (source === undefined) return sql`false`; // the route refuses it first
      return sql`${visited} and coalesce(l.utm_source, '') = ${source} and coalesce(l.utm_medium, '') = ${medium} and coalesce(l.utm_campaign, '') = ${campaign}`;
    }
    case 'offline':
    case 'unrecorded':
      return sql`${leadOrigin('l')} = ${origin}`;
  }
}

const whereOf = (parts: SQL[]) => (parts.length > 0 ? sql`where ${sql.join(parts, sql` and `)}` : sql``);

function leadWhere(filters: LeadFilters): SQL {
  return whereOf(leadConditions(filters));
}

/**
 * The ORDER BY of each sort, every one ending in the id so pages never repeat or skip a lead.
 * Each is written to match an index read forwards or backwards (the nulls placement included):
 * created → leads_created_at_idx, name → leads_full_name_idx (full_name, id), status →
 * leads_status_created_at_idx (status, created_at desc) then the id. next_step is in nextStepPage.
 */
function orderBy({ sort, dir }: LeadOrder): SQL {
  const asc = dir === 'asc';
  switch (sort) {
    case 'name':
      return asc ? sql`order by l.full_name asc, l.id asc` : sql`order by l.full_name desc, l.id desc`;
    case 'status':
      // Within a status newest first; descending is the exact reverse (oldest first within a
      // status), which the index reads backwards: newest first there sorted a whole status's
      // leads at every page (docs/performance.md, "Measurements behind the code").
      return asc
        ? sql`order by l.status asc, l.created_at desc nulls last, l.id desc`
        : sql`order by l.status desc, l.created_at asc nulls first, l.id asc`;
    case 'next_step':
      return asc ? sql`order by l.follow_up_on asc nulls last, l.id asc` : sql`order by l.follow_up_on desc nulls last, l.id desc`;
    case 'created':
      return asc ? sql`order by l.created_at asc nulls first, l.id asc nulls first` : newestFirst;
  }
}

/**
 * By next step, leads without one last in both directions. One ORDER BY cannot read both parts
 * from indexes (leads_follow_up_on_idx holds only leads with a date, and puts them first or
 * last with the direction), so each part takes its first `limit + offset` rows by its own index
 * (the dated ones by leads_follow_up_on_idx, the others by the primary key) and the union of
 * those few is ordered and cut. Exact: the page's rows are among each part's first
 * `limit + offset`.
 */
function nextStepPage(filters: LeadFilters, dir: 'asc' | 'desc', limit: number, offset: number): SQL {
  const parts = leadConditions(filters);
  const order = orderBy({ sort: 'next_step', dir });
  const idOrder = dir === 'asc' ? sql`order by l.id asc` : sql`order by l.id desc`;
  const dated = whereOf([...parts, sql`l.follow_up_on is not null`]);
  const undated = whereOf([...parts, sql`l.follow_up_on is null`]);
  const dateOrder = dir === 'asc' ? sql`order by l.follow_up_on asc, l.id asc` : sql`order by l.follow_up_on desc, l.id desc`;
  return sql`select ${leadColumns} from (
      select l.* from (
        (select l.* from leads l ${dated} ${dateOrder} limit ${limit + offset})
        union all
        (select l.* from leads l ${undated} ${idOrder} limit ${limit + offset})
      ) l ${order} limit ${limit} offset ${offset}
    ) l ${order}`;
}

/**
 * The statement of the leads matching the filters, in the given order, `limit` of them from
 * `offset`. The page is cut first and only its rows get the list's columns: the planner may
 * otherwise compute a column's subqueries (unread replies, a stop request) for every matching
 * row before the sort (docs/performance.md, "Measurements behind the code").
 */
export function leadPageQuery(filters: LeadFilters, limit: number, offset = 0, order: LeadOrder = NEWEST_FIRST): SQL {
  if (order.sort === 'next_step') return nextStepPage(filters, order.dir, limit, offset);
  const sorted = orderBy(order);
  return sql`select ${leadColumns} from (
      select l.* from leads l ${leadWhere(filters)} ${sorted} limit ${limit} offset ${offset}
    ) l ${sorted}`;
}

/** The statement counting the leads matching the filters (the list's total). */
export const leadCountQuery = (filters: LeadFilters): SQL => sql`select count(*)::int as total from leads l ${leadWhere(filters)}`;

/** Leads matching the filters, in the given order, `limit` of them from `offset`. */
function selectLeads(db: Db, filters: LeadFilters, limit: number, offset = 0, order: LeadOrder = NEWEST_FIRST): Promise<Lead[]> {
  return queryRows(db, leadPageQuery(filters, limit, offset, order), leadSchema);
}

export async function listLeads(
  db: Db,
  filters: LeadFilters,
  { order = NEWEST_FIRST, page, page_size }: { order?: LeadOrder; page: number; page_size: number },
): Promise<{ leads: Lead[]; total: number }> {
  const [leads, counts] = await Promise.all([
    selectLeads(db, filters, page_size, (page - 1) * page_size, order),
    queryRows(db, leadCountQuery(filters), z.object({ total: z.number().int() })),
  ]);
  return { leads, total: counts[0]?.total ?? 0 };
}

/** The newest leads (the Overview's Recent Leads). */
export const listNewestLeads = (db: Db, limit: number) => selectLeads(db, {}, limit);

/** Leads matching the filters, in the given order, in pages of `batch` (for the CSV export). */
export async function* iterateLeads(db: Db, filters: LeadFilters, order: LeadOrder = NEWEST_FIRST, batch = 2000): AsyncGenerator<Lead[]> {
  for (let offset = 0; ; offset += batch) {
    const rows = await selectLeads(db, filters, batch, offset, order);
    if (rows.length > 0) yield rows;
    if (rows.length < batch) return;
  }
}
