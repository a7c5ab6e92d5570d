import { sql } from 'drizzle-orm';
import type { Db } from '../client.ts';
import { execute, pgArray } from '../sql.ts';
import { PREPARED } from '../prepared-statements.ts';
import type { analyticsEvents } from '../schema.ts';

export type NewAnalyticsEvent = typeof analyticsEvents.$inferInsert;

// An event's UTC hour; the rollups are keyed by it.
const HOUR = sql`date_trunc('hour', created_at at time zone 'UTC') at time zone 'UTC'`;

/**
 * Per session: last active hour, first-touch source, UTM and landing page, page views, the
 * hour of the first page view, and how often the lead form was seen and started.
 */
const first = (column: string) => sql.raw(`(array_agg(${column} order by id) filter (where event_type = 'pageview'))[1]`);
const SESSIONS_SELECT = (from: string) => sql`
  select session_id, max(${HOUR}), ${first('referrer_host')}, ${first('utm_source')}, ${first('utm_medium')}, ${first('utm_campaign')},
         ${first('page_path')}, (count(*) filter (where event_type = 'pageview'))::int, min(${HOUR}) filter (where event_type = 'pageview'),
         (count(*) filter (where event_type = 'form_view'))::int, (count(*) filter (where event_type = 'form_start'))::int
  from ${sql.raw(from)} group by session_id`;

/** Page views per hour by referring site and by device, from a set of events. */
const SOURCES_SELECT = (from: string) => sql`
  select ${HOUR}, kind, value, count(*)::int from (
    select created_at, 'referrer' as kind, referrer_host as value from ${sql.raw(from)} where event_type = 'pageview' and referrer_host is not null
    union all
    select created_at, 'device', device from ${sql.raw(from)} where event_type = 'pageview' and device is not null
  ) v group by 1, 2, 3 order by 1, 2, 3`;

/** What one batch adds to the rollups; all of a batch's events share its transaction's hour. */
export type BatchRollups = {
  pages: { page_path: string; views: number; time_spent: number }[];
  sources: { kind: 'referrer' | 'device'; value: string; views: number }[];
  sessions: {
    session_id: string;
    source: string | null;
    utm_source: string | null;
    utm_medium: string | null;
    utm_campaign: string | null;
    landing_page: string | null;
    page_views: number;
    form_views: number;
    form_starts: number;
  }[];
};

const byKey = <T>(rows: T[], key: (row: T) => string) => rows.sort((a, b) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0));

/**
 * The rollup deltas of a batch, in the order the rows are upserted (key order, so two
 * batches in flight never deadlock). A session's first touch is its first page view in
 * the batch, the same order in which the events get their ids.
 */
export function rollupsOf(events: NewAnalyticsEvent[]): BatchRollups {
  const pages = new Map<string, BatchRollups['pages'][number]>();
  const sources = new Map<string, BatchRollups['sources'][number]>();
  const sessions = new Map<string, BatchRollups['sessions'][number]>();
  const countSource = (kind: 'referrer' | 'device', value: string) => {
    const key = `${kind}\u0000${value}`;
    const s = sources.get(key) ?? sources.set(key, { kind, value, views: 0 }).get(key)!;
    s.views++;
  };
  for (const e of events) {
    const isView = e.event_type === 'pageview';
    const page = pages.get(e.page_path) ?? pages.set(e.page_path, { page_path: e.page_path, views: 0, time_spent: 0 }).get(e.page_path)!;
    page.views += isView ? 1 : 0;
    page.time_spent += e.time_spent ?? 0;
    let session = sessions.get(e.session_id);
    if (!session) {
      session = {
        session_id: e.session_id,
        source: null,
        utm_source: null,
        utm_medium: null,
        utm_campaign: null,
        landing_page: null,
        page_views: 0,
        form_views: 0,
        form_starts: 0,
      };
      sessions.set(e.session_id, session);
    }
    if (e.event_type === 'form_view') session.form_views++;
    if (e.event_type === 'form_start') session.form_starts++;
    if (!isView) continue;
    if (session.page_views === 0) {
      Object.assign(session, {
        source: e.referrer_host ?? null,
        utm_source: e.utm_source ?? null,
        utm_medium: e.utm_medium ?? null,
        utm_campaign: e.utm_campaign ?? null,
        landing_page: e.page_path,
      });
    }
    session.page_views++;
    if (e.referrer_host) countSource('referrer', e.referrer_host);
    if (e.device) countSource('device', e.device);
  }
  return {
    pages: byKey([...pages.values()], (p) => p.page_path),
    sources: byKey([...sources.values()], (s) => `${s.kind}\u0000${s.value}`),
    sessions: byKey([...sessions.values()], (s) => s.session_id),
  };
}

// The hour of the statement's transaction, which is every inserted event's created_at.
const NOW_HOUR = sql`date_trunc('hour', crm_now() at time zone 'UTC') at time zone 'UTC'`;

/**
 * One statement (one transaction) for a batch: the events, and the hourly rollups they
 * change, so the rollups are exact at every commit. The rollup deltas are summed here
 * rather than regrouped by PostgreSQL from the inserted rows: it is the same arithmetic,
 * and it keeps the database's share of each event to its own insert.
 * Each column travels as one array (unnest): a handful of parameters whatever the batch
 * size, so PostgreSQL parses a short statement instead of one with thousands.
 */
export async function insertAnalyticsEvents(db: Db, events: NewAnalyticsEvent[]): Promise<void> {
  if (events.length === 0) return;
  const { pages, sources, sessions } = rollupsOf(events);
  const arr = <T>(rows: T[], pick: (row: T) => string | number | null | undefined) => pgArray(rows.map((r) => pick(r) ?? null));
  const e = (pick: (row: NewAnalyticsEvent) => string | number | null | undefined) => arr(events, pick);
  // One text for any batch (the rows travel as array parameters), so it is prepared once.
  await execute(
    db,
    sql`
    with inserted as (
      insert into analytics_events (session_id, page_path, event_type, time_spent, user_agent, referrer, utm_source, utm_medium, utm_campaign,
        referrer_host, device)
      select * from unnest(${e((r) => r.session_id)}::text[], ${e((r) => r.page_path)}::text[], ${e((r) => r.event_type)}::text[],
        ${e((r) => r.time_spent)}::int[], ${e((r) => r.user_agent)}::text[], ${e((r) => r.referrer)}::text[],
        ${e((r) => r.utm_source)}::text[], ${e((r) => r.utm_medium)}::text[], ${e((r) => r.utm_campaign)}::text[],
        ${e((r) => r.referrer_host)}::text[], ${e((r) => r.device)}::text[])
    ), hourly as (
      insert into analytics_hourly as h (hour, page_path, views, time_spent)
      select ${NOW_HOUR}, page_path, views, time_spent from unnest(${arr(pages, (p) => p.page_path)}::text[], ${arr(pages, (p) => p.views)}::int[],
        ${arr(pages, (p) => p.time_spent)}::bigint[]) with ordinality as t(page_path, views, time_spent, n) order by n
      on conflict (hour, page_path) do update set views = h.views + excluded.views, time_spent = h.time_spent + excluded.time_spent
    ), sources as (
      insert into analytics_hourly_sources as s (hour, kind, value, views)
      select ${NOW_HOUR}, kind, value, views from unnest(${arr(sources, (r) => r.kind)}::text[], ${arr(sources, (r) => r.value)}::text[],
        ${arr(sources, (r) => r.views)}::int[]) with ordinality as t(kind, value, views, n) order by n
      on conflict (hour, kind, value) do update set views = s.views + excluded.views
    ), batch as (
      select * from unnest(${arr(sessions, (r) => r.session_id)}::text[], ${arr(sessions, (r) => r.source)}::text[], ${arr(sessions, (r) => r.utm_source)}::text[],
        ${arr(sessions, (r) => r.utm_medium)}::text[], ${arr(sessions, (r) => r.utm_campaign)}::text[], ${arr(sessions, (r) => r.landing_page)}::text[],
        ${arr(sessions, (r) => r.page_views)}::int[], ${arr(sessions, (r) => r.form_views)}::int[], ${arr(sessions, (r) => r.form_starts)}::int[])
        with ordinality as t(session_id, source, utm_source, utm_medium, utm_campaign, landing_page, page_views, form_views, form_starts, n)
    ), upserted as (
      insert into analytics_sessions as s (session_id, last_hour, source, utm_source, utm_medium, utm_campaign, landing_page, page_views,
        first_hour, form_views, form_starts)
      select session_id, ${NOW_HOUR}, source, utm_source, utm_medium, utm_campaign, landing_page, page_views,
        case when page_views > 0 then ${NOW_HOUR} end, form_views, form_starts
      from batch order by n
      on conflict (session_id) do update set
        last_hour = greatest(s.last_hour, excluded.last_hour),
        -- First touch stays: taken only while the session has no page view yet.
        source = case when s.landing_page is null then excluded.source else s.source end,
        utm_source = case when s.landing_page is null then excluded.utm_source else s.utm_source end,
        utm_medium = case when s.landing_page is null then excluded.utm_medium else s.utm_medium end,
        utm_campaign = case when s.landing_page is null then excluded.utm_campaign else s.utm_campaign end,
        landing_page = coalesce(s.landing_page, excluded.landing_page),
        page_views = s.page_views + excluded.page_views,
        first_hour = coalesce(s.first_hour, excluded.first_hour),
        form_views = s.form_views + excluded.form_views,
        form_starts = s.form_starts + excluded.form_starts
      returning s.*
    ), steps as (
      -- What this statement changed, from the counts after it minus the batch's own: a session
      -- becomes a visitor with its first page view (and brings a form it saw or started before
      -- then), or, a visitor already, sees or starts the form for the first time. Row locks
      -- make "after" exact, whichever process wrote before.
      select u.first_hour as hour, coalesce(u.source, '') as source, coalesce(u.utm_source, '') as utm_source,
        coalesce(u.utm_medium, '') as utm_medium, coalesce(u.utm_campaign, '') as utm_campaign, coalesce(u.landing_page, '') as landing_page,
        (b.page_views > 0 and u.page_views = b.page_views) as became_visitor, u.page_views > b.page_views as was_visitor,
        u.form_views, b.form_views as batch_form_views, u.form_starts, b.form_starts as batch_form_starts
      from upserted u join batch b on b.session_id = u.session_id
      where u.first_hour is not null
    )
    insert into analytics_hourly_visits as v (hour, source, utm_source, utm_medium, utm_campaign, landing_page, visitors, saw_form, started_form)
    select hour, source, utm_source, utm_medium, utm_campaign, landing_page, visitors, saw_form, started_form from (
      select hour, source, utm_source, utm_medium, utm_campaign, landing_page,
        (count(*) filter (where became_visitor))::int as visitors,
        -- Starting the form is seeing it (a focus counts as seen, even when the form_view was lost):
        -- a visitor saw it at their first form event of either kind, so started_form never exceeds saw_form.
        (count(*) filter (where (became_visitor and form_views + form_starts > 0)
          or (was_visitor and batch_form_views + batch_form_starts > 0 and form_views + form_starts = batch_form_views + batch_form_starts)))::int as saw_form,
        (count(*) filter (where (became_visitor and form_starts > 0) or (was_visitor and batch_form_starts > 0 and form_starts = batch_form_starts)))::int as started_form
      from steps group by 1, 2, 3, 4, 5, 6
    ) d
    where visitors + saw_form + started_form > 0
    order by 1, 2, 3, 4, 5, 6
    on conflict (hour, source, utm_source, utm_medium, utm_campaign, landing_page) do update set
      visitors = v.visitors + excluded.visitors, saw_form = v.saw_form + excluded.saw_form, started_form = v.started_form + excluded.started_form`,
    { prepared: PREPARED.insertAnalyticsEvents },
  );
}

/** How many raw events one retention statement deletes: a short transaction, a bounded WAL burst. */
export const RETENTION_BATCH = 5000;

/**
 * Deletes the raw events older than `retentionDays`, `batchSize` rows per statement until none
 * is left; the rollups stay, so the dashboard still shows those hours. Each statement skips
 * rows another process is deleting (SKIP LOCKED), so processes running this at once share the
 * work. The cutoff is fixed when it starts, so events aging meanwhile wait for the next run.
 * Uses analytics_events_created_at_idx. Returns how many rows went.
 */
export async function deleteExpiredAnalyticsEvents(db: Db, retentionDays: number, batchSize = RETENTION_BATCH): Promise<number> {
  const cutoff = new Date(Date.now() - retentionDays * 86_400_000).toISOString();
  let total = 0;
  for (;;) {
    const deleted = await execute(
      db,
      sql`
      delete from analytics_events where id in (
        select id from analytics_events where created_at < ${cutoff}::timestamptz limit ${batchSize} for update skip locked)`,
    );
    total += deleted;
    if (deleted < batchSize) return total;
  }
}

/**
 * Recomputes the rollups from the raw events (after events were written around insertAnalyticsEvents).
 * Only for seeded data: once retention has deleted old events, this would forget their hours.
 */
export async function rebuildAnalyticsRollups(db: Db): Promise<void> {
  await execute(db, sql`delete from analytics_hourly`);
  await execute(db, sql`delete from analytics_sessions`);
  await execute(db, sql`delete from analytics_hourly_sources`);
  await execute(db, sql`delete from analytics_hourly_visits`);
  await execute(db, sql`insert into analytics_hourly_sources (hour, kind, value, views) ${SOURCES_SELECT('analytics_events')}`);
  await execute(
    db,
    sql`
    insert into analytics_hourly (hour, page_path, views, time_spent)
    select ${HOUR}, page_path, count(*) filter (where event_type = 'pageview'), coalesce(sum(time_spent), 0)
    from analytics_events group by 1, 2`,
  );
  await execute(
    db,
    sql`
    insert into analytics_sessions (session_id, last_hour, source, utm_source, utm_medium, utm_campaign, landing_page, page_views,
      first_hour, form_views, form_starts)
    ${SESSIONS_SELECT('analytics_events')}`,
  );
  await execute(
    db,
    sql`
    insert into analytics_hourly_visits (hour, source, utm_source, utm_medium, utm_campaign, landing_page, visitors, saw_form, started_form)
    select first_hour, coalesce(source, ''), coalesce(utm_source, ''), coalesce(utm_medium, ''), coalesce(utm_campaign, ''), coalesce(landing_page, ''),
      count(*), count(*) filter (where form_views > 0 or form_starts > 0), count(*) filter (where form_starts > 0)
    from analytics_sessions where first_hour is not null group by 1, 2, 3, 4, 5, 6`,
  );
  // Leads keep the hour of the visit that brought them.
  await execute(
    db,
    sql`
    update leads l set visit_hour = s.first_hour from analytics_sessions s
    where s.session_id = l.analytics_session_id and l.visit_hour is distinct from s.first_hour`,
  );
}
