import { sql, type SQL } from 'drizzle-orm';
import * as z from 'zod';
import { addDays } from '#shared/zoned-time';
import {
  conversionRate,
  DIRECT_SOURCE,
  utmValue,
  type AnalyticsFunnel,
  type AnalyticsReport,
  type AnalyticsSourceGroup,
  type AnalyticsSourceRow,
  type AnalyticsTotals,
} from '#shared/schemas/analytics-report';
import { daysInRange } from '#shared/rules/calendar';
import type { Db } from '../client.ts';
import { queryRows } from '../sql.ts';
import { bounds, boundsText, previousRange, type AnalyticsWindow } from './analytics-window-queries.ts';

/**
 * The Analytics figures of a period (analytics-window.ts): the daily trend, the funnel, the
 * sources table, and through readPeriod the summary cards too. Visits come from
 * analytics_hourly_visits (a visitor on the hour of their first page view, with their first
 * touch), page views from analytics_hourly, both kept exact by insertAnalyticsEvents; leads
 * from the leads table by `visit_hour` (the visitor's first page view, copied when the form was
 * sent; leads_visit_hour_idx) or, with no visit recorded, by when they were added. No request
 * reads raw events. The definitions are docs/product-rules.md's, "Analytics".
 */

export { previousRange, type AnalyticsWindow, type DayRange } from './analytics-window-queries.ts';

const int = z.number().int();

/**
 * The funnel's conversation with the firm, the step every client it counts passed through
 * (FUNNEL_CONVERSATION names it on the page): today a call booked and not cancelled. Statuses
 * are listed rather than excluded, so a status added later (a no-show) does not count until
 * it is put here. `l` is the leads alias; appointments_lead_id_idx.
 */
const HAD_CONVERSATION = sql`exists (select 1 from appointments a where a.lead_id = l.id and a.status in ('scheduled', 'completed'))`;
/** A call the lead did not come to (staff marked it no-show). */
const HAD_NO_SHOW = sql`exists (select 1 from appointments a where a.lead_id = l.id and a.status = 'no_show')`;

/**
 * A lead's period: the hour of the visit that brought it (`visit_hour`), or, with no visit
 * recorded, when it was added. The union keeps each half on its own index. The trend, the
 * sources table and the stage conversion (analytics-pipeline.ts) all count leads through it.
 */
export const leadsOfPeriod = (columns: SQL, start: SQL, end: SQL) => sql`
  select ${columns}, l.visit_hour as at from leads l where l.visit_hour >= ${start} and l.visit_hour < ${end}
  union all
  select ${columns}, l.created_at from leads l where l.visit_hour is null and l.created_at >= ${start} and l.created_at < ${end}`;

const visitsRow = z.object({ current: z.boolean(), day: z.string(), visitors: int, saw_form: int, started_form: int });
const viewsRow = z.object({ current: z.boolean(), day: z.string(), page_views: int, time_spent: z.number() });
const leadsRow = z.object({ current: z.boolean(), day: z.string(), leads: int });

type Day = AnalyticsReport['days'][number] & { saw_form: number; started_form: number; time_spent: number };
const emptyDay = (day: string): Day => ({ day, visitors: 0, page_views: 0, leads: 0, saw_form: 0, started_form: 0, time_spent: 0 });

/**
 * Per day of the period and of the one before it (`current` tells them apart, as two periods
 * of hours may share a day): visitors (on the day of their first page view) and how many of
 * them saw and started the form, page views and time spent (when they happened), leads (on the
 * day of the visit that brought them, else the day they were added).
 */
async function dayCounts(db: Db, window: AnalyticsWindow, previous: AnalyticsWindow, withLeads = true) {
  const { start, end } = bounds(window);
  const from = bounds(previous).start;
  const day = (column: string) => sql`to_char(${sql.raw(column)} at time zone ${window.timeZone}, 'YYYY-MM-DD')`;
  const current = (column: string) => sql`${sql.raw(column)} >= ${start}`;
  const [visits, views, leads] = await Promise.all([
    // Summed by hour first, so the day is worked out once an hour rather than once a row.
    queryRows(
      db,
      sql`
      select ${current('hour')} as current, ${day('hour')} as day, sum(visitors)::int as visitors, sum(saw_form)::int as saw_form,
             sum(started_form)::int as started_form
      from (select hour, sum(visitors) as visitors, sum(saw_form) as saw_form, sum(started_form) as started_form
            from analytics_hourly_visits where hour >= ${from} and hour < ${end} group by hour) h
      group by 1, 2`,
      visitsRow,
    ),
    queryRows(
      db,
      sql`
      select ${current('hour')} as current, ${day('hour')} as day, sum(views)::int as page_views, sum(time_spent)::float8 as time_spent
      from (select hour, sum(views) as views, sum(time_spent) as time_spent from analytics_hourly where hour >= ${from} and hour < ${end} group by hour) h
      group by 1, 2`,
      viewsRow,
    ),
    withLeads
      ? queryRows(
          db,
          sql`
      select ${current('at')} as current, ${day('at')} as day, count(*)::int as leads
      from (${leadsOfPeriod(sql`l.id`, from, end)}) x group by 1, 2`,
          leadsRow,
        )
      : [],
  ]);
  const days = [new Map<string, Day>(), new Map<string, Day>()];
  const dayOf = (r: { current: boolean; day: string }) => {
    const map = days[r.current ? 0 : 1]!;
    return map.get(r.day) ?? map.set(r.day, emptyDay(r.day)).get(r.day)!;
  };
  for (const r of visits) Object.assign(dayOf(r), { visitors: r.visitors, saw_form: r.saw_form, started_form: r.started_form });
  for (const r of views) Object.assign(dayOf(r), { page_views: r.page_views, time_spent: r.time_spent });
  for (const r of leads) dayOf(r).leads = r.leads;
  return { current: days[0]!, previous: days[1]! };
}

const cohortRow = z.object({
  sent: int,
  booked: int,
  converted: int,
  no_shows: int,
  clients_without_call: int,
  clients_without_visit: int,
});
const formStepsRow = z.object({ sent_unstarted: int, sent_unseen: int });

/** The period's visitors who sent the form (`l`: their leads), one row per visitor. */
const senders = (start: SQL, end: SQL) =>
  sql`leads l where l.visit_hour >= ${start} and l.visit_hour < ${end} and l.analytics_session_id is not null`;

/**
 * What the period's visitors did after the form's own events: who sent it (whenever they did),
 * had a conversation and became a client after one; clients won without a conversation, and
 * clients of the period with no recorded visit, who are not in the funnel. Each counted in
 * visitors (sessions), the last in leads.
 */
async function cohortCounts(db: Db, window: AnalyticsWindow) {
  const { start, end } = bounds(window);
  const [row] = await queryRows(
    db,
    sql`
    select count(*)::int as sent,
           (count(*) filter (where conversation))::int as booked,
           (count(*) filter (where client_after_conversation))::int as converted,
           (count(*) filter (where no_show and not conversation))::int as no_shows,
           (count(*) filter (where client and not client_after_conversation))::int as clients_without_call,
           (select count(*)::int from leads l where l.visit_hour is null and l.created_at >= ${start} and l.created_at < ${end}
              and l.status = 'Converted') as clients_without_visit
    from (
      select session_id, bool_or(conversation) as conversation, bool_or(client) as client, bool_or(client and conversation) as client_after_conversation,
        bool_or(no_show) as no_show
      from (
        -- offset 0 keeps the conversation's subquery from being planned once per use above.
        select l.analytics_session_id as session_id, ${HAD_CONVERSATION} as conversation, l.status = 'Converted' as client,
          ${HAD_NO_SHOW} as no_show
        from ${senders(start, end)} offset 0
      ) lead group by session_id
    ) visitor`,
    cohortRow,
  );
  return row!;
}

/** The period's visitors who sent the form, alone: the cohort's `sent`, counted the same way (one per session). */
async function sendersCount(db: Db, window: AnalyticsWindow): Promise<number> {
  const { start, end } = bounds(window);
  const [row] = await queryRows(
    db,
    sql`select count(distinct l.analytics_session_id)::int as sent from ${senders(start, end)}`,
    z.object({ sent: int }),
  );
  return row!.sent;
}

/**
 * Of the period's visitors who sent the form, those with no recorded form_start, and with no
 * recorded form event at all (lost requests: they saw and started it all the same). Anti-joins
 * against the sessions that saw or started the form, which the partial indexes
 * analytics_sessions_form_started_idx and _form_seen_idx hold (a small share of all sessions):
 * reading every session to join the senders slowed the whole report at scale (docs/performance.md,
 * "Measurements behind the code"). A query of its own, so PostgreSQL runs it beside the others.
 */
async function sendersFormSteps(db: Db, window: AnalyticsWindow) {
  const { start, end } = bounds(window);
  const [row] = await queryRows(
    db,
    sql`
    with v as materialized (select distinct l.analytics_session_id as session_id from ${senders(start, end)})
    select (select count(*)::int from v where not exists (select 1 from analytics_sessions s where s.session_id = v.session_id and s.form_starts > 0)) as sent_unstarted,
           (select count(*)::int from v where not exists (select 1 from analytics_sessions s where s.session_id = v.session_id and (s.form_starts > 0 or s.form_views > 0))) as sent_unseen`,
    formStepsRow,
  );
  return row!;
}

/**
 * Every figure of a period, each counted once: the days (and their sums, the totals), the
 * same for the period before, the time spent, and what the period's visitors did after the
 * form's own events (the funnel from "Sent the form" on). The summary cards and the report both
 * read it, so they cannot count a period differently.
 */
export async function readPeriod(db: Db, window: AnalyticsWindow) {
  const previous = previousRange(window);
  const [counts, cohort] = await Promise.all([dayCounts(db, window, previous), cohortCounts(db, window)]);
  return { ...periodTotals(window, previous, counts), cohort, previous };
}

/**
 * What the summary cards need of a period, and no more: readPeriod's day counts without the
 * leads per day, and of the cohort only who sent the form (the cards show neither the leads
 * nor the later steps; at 10M events those two queries were most of the 90-day summary's time).
 * The same rows and the same counting, so the cards agree with the trend and the funnel.
 */
export async function readCardFigures(db: Db, window: AnalyticsWindow) {
  const previous = previousRange(window);
  const [counts, sent] = await Promise.all([dayCounts(db, window, previous, false), sendersCount(db, window)]);
  return { ...periodTotals(window, previous, counts), sent };
}

function periodTotals(window: AnalyticsWindow, previous: AnalyticsWindow, counts: Awaited<ReturnType<typeof dayCounts>>) {
  const daysOf = (range: AnalyticsWindow, map: Map<string, Day>) =>
    Array.from(
      { length: daysInRange(range.from, range.to) },
      (_, i) => map.get(addDays(range.from, i)) ?? emptyDay(addDays(range.from, i)),
    );
  const days = daysOf(window, counts.current);
  const sum = (list: Day[], key: keyof Omit<Day, 'day'>) => list.reduce((n, d) => n + d[key], 0);
  const totalsOf = (list: Day[]): AnalyticsTotals => ({
    visitors: sum(list, 'visitors'),
    page_views: sum(list, 'page_views'),
    leads: sum(list, 'leads'),
  });
  return {
    days: days.map(({ day, visitors, page_views, leads }) => ({ day, visitors, page_views, leads })),
    totals: totalsOf(days),
    previous_totals: totalsOf(daysOf(previous, counts.previous)),
    time_spent: sum(days, 'time_spent'),
    form: { saw: sum(days, 'saw_form'), started: sum(days, 'started_form') },
  };
}

/**
 * The funnel of a period. A step counts only visitors of the step before: the rollup's
 * saw_form counts a visitor who started the form (a focus counts as seen), and a visitor who
 * sent the form counts as having seen and started it even when those events were lost.
 */
async function readFunnel(db: Db, window: AnalyticsWindow) {
  const [period, formSteps] = await Promise.all([readPeriod(db, window), sendersFormSteps(db, window)]);
  const { cohort } = period;
  const funnel: AnalyticsFunnel = {
    visitors: period.totals.visitors,
    saw_form: period.form.saw + formSteps.sent_unseen,
    started_form: period.form.started + formSteps.sent_unstarted,
    sent: cohort.sent,
    booked: cohort.booked,
    converted: cohort.converted,
    no_shows: cohort.no_shows,
    clients_without_call: cohort.clients_without_call,
    clients_without_visit: cohort.clients_without_visit,
  };
  return { period, funnel };
}

/** The funnel of a period. */
export async function getAnalyticsFunnel(db: Db, window: AnalyticsWindow): Promise<AnalyticsFunnel> {
  return (await readFunnel(db, window)).funnel;
}

/** The report: the funnel, one entry per day and the totals of the period and of the one before it. */
export async function getAnalyticsReport(db: Db, window: AnalyticsWindow): Promise<AnalyticsReport> {
  const { period, funnel } = await readFunnel(db, window);
  return {
    from: window.from,
    to: window.to,
    ...boundsText(window),
    hours: window.hours?.count ?? null,
    previous_from: period.previous.from,
    previous_to: period.previous.to,
    time_zone: window.timeZone,
    funnel,
    days: period.days,
    totals: period.totals,
    previous_totals: period.previous_totals,
  };
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
const leadRow = z.object({
  origin: z.enum(['visit', 'offline', 'unrecorded']),
  a: z.string(),
  b: z.string(),
  c: z.string(),
  leads: int,
  bookings: int,
  converted: int,
  fees: z.number(),
});

const valueOf = (group: AnalyticsSourceGroup, { a, b, c }: { a: string; b: string; c: string }) =>
  group === 'utm' ? utmValue(a, b, c) : a;

/**
 * One row per referring site, UTM source/medium/campaign or landing page of the visitors who
 * came in the range (first touch), with the leads they sent, the conversations they had
 * (HAD_CONVERSATION) and the clients won, plus a row for leads entered by staff or imported
 * ("offline") and one for leads from the website whose visit was not recorded, both by when
 * the lead was added: the trend's leads, row by row. Most visitors first; rows without
 * visitors or leads are left out.
 */
export async function getAnalyticsSources(db: Db, range: AnalyticsWindow, group: AnalyticsSourceGroup): Promise<AnalyticsSourceRow[]> {
  const { start, end } = bounds(range);
  const [visits, leads] = await Promise.all([
    queryRows(
      db,
      sql`
      select ${dims(group, 'v')}, sum(visitors)::int as visitors from analytics_hourly_visits v
      where hour >= ${start} and hour < ${end} group by 1, 2, 3 having sum(visitors) > 0`,
      visitRow,
    ),
    queryRows(
      db,
      sql`
      select origin, a, b, c, count(*)::int as leads, (count(*) filter (where booked))::int as bookings,
             (count(*) filter (where status = 'Converted'))::int as converted,
             coalesce(sum(estimated_fee_cents) filter (where status = 'Converted'), 0)::float8 as fees
      from (${leadsOfPeriod(sql`${leadOrigin('l')} as origin, ${dims(group, 'l')}, l.status, l.estimated_fee_cents, ${HAD_CONVERSATION} as booked`, start, end)}
      ) x group by 1, 2, 3, 4`,
      leadRow,
    ),
  ]);
  const rows = new Map<string, AnalyticsSourceRow>();
  const rowFor = (origin: AnalyticsSourceRow['origin'], value: string) => {
    const key = `${origin}\u0000${value}`;
    let row = rows.get(key);
    if (!row)
      rows.set(key, (row = { origin, value, visitors: 0, leads: 0, bookings: 0, converted: 0, conversion_rate: null, fees_cents: 0 }));
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
