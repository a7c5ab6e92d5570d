import { sql, type SQL } from 'drizzle-orm';
import * as z from 'zod';
import { addDays } from '#shared/zoned-time';
import {
  conversionRate,
  DIRECT_SOURCE,
  rangeDays,
  utmValue,
  type AnalyticsFunnel,
  type AnalyticsReport,
  type AnalyticsSourceGroup,
  type AnalyticsSourceRow,
  type AnalyticsTotals,
} from '#shared/schemas/analytics-report';
import type { Db } from '../client.ts';
import { queryRows } from '../sql.ts';

/**
 * The Analytics report over whole days in the business time zone: the funnel, the sources
 * table and the daily trend. Visits come from analytics_hourly_visits (a visitor on the hour
 * of their first page view, with their first touch), page views from analytics_hourly, both
 * kept exact by insertAnalyticsEvents; leads from the leads table by `visit_hour` (the
 * visitor's first page view, copied when the form was sent) through leads_visit_hour_idx.
 * No request reads raw events.
 */

/** Days from `from` to `to` (both included, YYYY-MM-DD) in `timeZone`, as [start, end) instants for SQL. */
export type DayRange = { from: string; to: string; timeZone: string };
const startOf = (day: string, timeZone: string) => sql`((${day}::date)::timestamp at time zone ${timeZone})`;
const bounds = ({ from, to, timeZone }: DayRange) => ({ start: startOf(from, timeZone), end: startOf(addDays(to, 1), timeZone) });

/** The range of the same length that ends the day before `from`. */
export function previousRange(range: DayRange): DayRange {
  const days = rangeDays(range.from, range.to);
  return { from: addDays(range.from, -days), to: addDays(range.from, -1), timeZone: range.timeZone };
}

const int = z.number().int();
const funnelRow = z.object({ visitors: int, saw_form: int, started_form: int, sent: int, booked: int, converted: int });

/** A lead has a booked call when one of its appointments is not cancelled (appointments_lead_id_idx). */
const BOOKED = sql`exists (select 1 from appointments a where a.lead_id = l.id and a.status <> 'cancelled')`;

/**
 * Visitors whose first page view fell in the range, how many of them saw and started the
 * lead form, and how many of them sent it, had a call booked and became clients (each a
 * count of visitors: a visitor who sent the form twice counts once).
 */
export async function getAnalyticsFunnel(db: Db, range: DayRange): Promise<AnalyticsFunnel> {
  const { start, end } = bounds(range);
  const [row] = await queryRows(db, sql`
    select v.visitors, v.saw_form, v.started_form, l.sent, l.booked, l.converted
    from (select coalesce(sum(visitors), 0)::int as visitors, coalesce(sum(saw_form), 0)::int as saw_form,
                 coalesce(sum(started_form), 0)::int as started_form
          from analytics_hourly_visits where hour >= ${start} and hour < ${end}) v,
         (select count(distinct analytics_session_id)::int as sent,
                 (count(distinct analytics_session_id) filter (where ${BOOKED}))::int as booked,
                 (count(distinct analytics_session_id) filter (where status = 'Converted'))::int as converted
          from leads l where visit_hour >= ${start} and visit_hour < ${end}) l`, funnelRow);
  return row!;
}

/**
 * Where a lead counts in the sources table (and in the leads list's filter of a row): by its
 * visit's first touch ('visit'), or, with no visit recorded, 'offline' (typed in or imported:
 * no public-form submission) or 'unrecorded' (sent through the form). `l`: the leads alias.
 */
export const leadOrigin = (l: string) =>
  sql.raw(`case when ${l}.visit_hour is not null then 'visit' when ${l}.submission_id is null then 'offline' else 'unrecorded' end`);

/** A referring-site row's value: the site, or DIRECT_SOURCE for none ('Direct' as ingestion stores it, or no source at all). */
export const referrerValue = (column: string) => sql`coalesce(nullif(${sql.raw(column)}, ''), ${DIRECT_SOURCE})`;

const dims = (group: AnalyticsSourceGroup, table: 'v' | 'l'): SQL => {
  const c = (column: string) => sql.raw(`coalesce(${table}.${column}, '')`);
  switch (group) {
    case 'referrer':
      return sql`${referrerValue(`${table}.source`)} as a, '' as b, '' as c`;
    case 'utm':
      return sql`${c('utm_source')} as a, ${c('utm_medium')} as b, ${c('utm_campaign')} as c`;
    case 'landing':
      return sql`${c('landing_page')} as a, '' as b, '' as c`;
  }
};

const visitRow = z.object({ a: z.string(), b: z.string(), c: z.string(), visitors: int });
const leadRow = z.object({ origin: z.enum(['visit', 'offline', 'unrecorded']), a: z.string(), b: z.string(), c: z.string(), leads: int, bookings: int, converted: int, fees: z.number() });

const valueOf = (group: AnalyticsSourceGroup, { a, b, c }: { a: string; b: string; c: string }) => (group === 'utm' ? utmValue(a, b, c) : a);

/**
 * One row per referring site, UTM source/medium/campaign or landing page of the visitors who
 * came in the range (first touch), with the leads they sent, the calls booked and the clients
 * won, plus a row for leads entered by staff or imported ("offline") and one for leads from
 * the website whose visit was not recorded, both by the day the lead was created. Most
 * visitors first; rows without visitors or leads are left out.
 */
export async function getAnalyticsSources(db: Db, range: DayRange, group: AnalyticsSourceGroup): Promise<AnalyticsSourceRow[]> {
  const { start, end } = bounds(range);
  const [visits, leads] = await Promise.all([
    queryRows(db, sql`
      select ${dims(group, 'v')}, sum(visitors)::int as visitors from analytics_hourly_visits v
      where hour >= ${start} and hour < ${end} group by 1, 2, 3 having sum(visitors) > 0`, visitRow),
    queryRows(db, sql`
      select origin, a, b, c, count(*)::int as leads, (count(*) filter (where booked))::int as bookings,
             (count(*) filter (where status = 'Converted'))::int as converted,
             coalesce(sum(estimated_fee_cents) filter (where status = 'Converted'), 0)::float8 as fees
      from (
        select 'visit' as origin, ${dims(group, 'l')}, l.status, l.estimated_fee_cents, ${BOOKED} as booked
        from leads l where l.visit_hour >= ${start} and l.visit_hour < ${end}
        union all
        select ${leadOrigin('l')}, '', '', '', l.status, l.estimated_fee_cents, ${BOOKED}
        from leads l where l.created_at >= ${start} and l.created_at < ${end} and l.visit_hour is null
      ) x group by 1, 2, 3, 4`, leadRow),
  ]);
  const rows = new Map<string, AnalyticsSourceRow>();
  const rowFor = (origin: AnalyticsSourceRow['origin'], value: string) => {
    const key = `${origin}\u0000${value}`;
    let row = rows.get(key);
    if (!row) rows.set(key, (row = { origin, value, visitors: 0, leads: 0, bookings: 0, converted: 0, conversion_rate: null, fees_cents: 0 }));
    return row;
  };
  for (const v of visits) rowFor(group, valueOf(group, v)).visitors += v.visitors;
  for (const l of leads) {
    const row = l.origin === 'visit' ? rowFor(group, valueOf(group, l)) : rowFor(l.origin, '');
    row.leads += l.leads;
    row.bookings += l.bookings;
    row.converted += l.converted;
    row.fees_cents += l.fees;
  }
  return [...rows.values()]
    .map((r) => ({ ...r, conversion_rate: conversionRate(r.converted, r.visitors) }))
    .sort((x, y) => y.visitors - x.visitors || y.leads - x.leads || (x.value < y.value ? -1 : x.value > y.value ? 1 : 0));
}

const dayRow = z.object({ day: z.string(), n: int });

/** Per day of the range and the one before it: new visitors, page views, leads created. */
async function dailyCounts(db: Db, range: DayRange) {
  const { start, end } = bounds(range);
  const tz = range.timeZone;
  const day = (column: string) => sql`to_char(${sql.raw(column)} at time zone ${tz}, 'YYYY-MM-DD')`;
  const [visitors, views, leads] = await Promise.all([
    queryRows(db, sql`select ${day('hour')} as day, sum(visitors)::int as n
      from analytics_hourly_visits where hour >= ${start} and hour < ${end} group by 1`, dayRow),
    queryRows(db, sql`select ${day('hour')} as day, sum(views)::int as n
      from analytics_hourly where hour >= ${start} and hour < ${end} group by 1`, dayRow),
    queryRows(db, sql`select ${day('created_at')} as day, count(*)::int as n
      from leads where created_at >= ${start} and created_at < ${end} group by 1`, dayRow),
  ]);
  return { visitors: new Map(visitors.map((r) => [r.day, r.n])), views: new Map(views.map((r) => [r.day, r.n])), leads: new Map(leads.map((r) => [r.day, r.n])) };
}

/** The report: the funnel, one entry per day and the totals of the range and of the one before it. */
export async function getAnalyticsReport(db: Db, range: DayRange): Promise<AnalyticsReport> {
  const previous = previousRange(range);
  const [funnel, counts] = await Promise.all([getAnalyticsFunnel(db, range), dailyCounts(db, { ...range, from: previous.from })]);
  const length = rangeDays(range.from, range.to);
  const daysOf = (from: string) =>
    Array.from({ length }, (_, i) => {
      const day = addDays(from, i);
      return { day, visitors: counts.visitors.get(day) ?? 0, page_views: counts.views.get(day) ?? 0, leads: counts.leads.get(day) ?? 0 };
    });
  const total = (days: ReturnType<typeof daysOf>): AnalyticsTotals => ({
    visitors: days.reduce((n, d) => n + d.visitors, 0),
    page_views: days.reduce((n, d) => n + d.page_views, 0),
    leads: days.reduce((n, d) => n + d.leads, 0),
  });
  const days = daysOf(range.from);
  return {
    from: range.from,
    to: range.to,
    previous_from: previous.from,
    previous_to: previous.to,
    time_zone: range.timeZone,
    funnel,
    days,
    totals: total(days),
    previous_totals: total(daysOf(previous.from)),
  };
}
