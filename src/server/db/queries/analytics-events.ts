import { sql } from 'drizzle-orm';
import { execute, type Db } from '../client.ts';
import { pgArray } from '../sql-helpers.ts';
import type { analyticsEvents } from '../schema.ts';

export type NewAnalyticsEvent = typeof analyticsEvents.$inferInsert;

// An event's UTC hour; the rollups are keyed by it.
const HOUR = sql`date_trunc('hour', created_at at time zone 'UTC') at time zone 'UTC'`;

/** Per session: last active hour, first-touch source, UTM and landing page, page views. */
const first = (column: string) => sql.raw(`(array_agg(${column} order by id) filter (where event_type = 'pageview'))[1]`);
const SESSIONS_SELECT = (from: string) => sql`
  select session_id, max(${HOUR}), ${first('referrer_host')}, ${first('utm_source')}, ${first('utm_medium')}, ${first('utm_campaign')},
         ${first('page_path')}, (count(*) filter (where event_type = 'pageview'))::int
  from ${sql.raw(from)} group by session_id`;

/** Page views per hour by referring site and by device, from a set of events. */
const SOURCES_SELECT = (from: string) => sql`
  select ${HOUR}, kind, value, count(*)::int from (
    select created_at, 'referrer' as kind, referrer_host as value from ${sql.raw(from)} where event_type = 'pageview' and referrer_host is not null
    union all
    select created_at, 'device', device from ${sql.raw(from)} where event_type = 'pageview' and device is not null
  ) v group by 1, 2, 3 order by 1, 2, 3`;

/**
 * One statement (one transaction) for a batch: the events, and the hourly rollups they
 * change. Rollup rows are upserted in key order, so concurrent batches never deadlock.
 */
export async function insertAnalyticsEvents(db: Db, events: NewAnalyticsEvent[]): Promise<void> {
  if (events.length === 0) return;
  // One array per column (unnest): nine parameters whatever the batch size, so PostgreSQL
  // parses a short statement instead of one with thousands of parameters.
  const col = (pick: (e: NewAnalyticsEvent) => string | number | null | undefined) => pgArray(events.map((e) => pick(e) ?? null));
  await execute(db, sql`
    with inserted as (
      insert into analytics_events (session_id, page_path, event_type, time_spent, user_agent, referrer, utm_source, utm_medium, utm_campaign,
        referrer_host, device)
      select * from unnest(${col((e) => e.session_id)}::text[], ${col((e) => e.page_path)}::text[], ${col((e) => e.event_type)}::text[],
        ${col((e) => e.time_spent)}::int[], ${col((e) => e.user_agent)}::text[], ${col((e) => e.referrer)}::text[],
        ${col((e) => e.utm_source)}::text[], ${col((e) => e.utm_medium)}::text[], ${col((e) => e.utm_campaign)}::text[],
        ${col((e) => e.referrer_host)}::text[], ${col((e) => e.device)}::text[])
      returning id, created_at, session_id, page_path, event_type, time_spent, referrer_host, device, utm_source, utm_medium, utm_campaign
    ), hourly as (
      insert into analytics_hourly as h (hour, page_path, views, time_spent)
      select ${HOUR}, page_path, count(*) filter (where event_type = 'pageview'), coalesce(sum(time_spent), 0)
      from inserted group by 1, 2 order by 1, 2
      on conflict (hour, page_path) do update set views = h.views + excluded.views, time_spent = h.time_spent + excluded.time_spent
    ), sources as (
      insert into analytics_hourly_sources as s (hour, kind, value, views)
      ${SOURCES_SELECT('inserted')}
      on conflict (hour, kind, value) do update set views = s.views + excluded.views
    )
    insert into analytics_sessions as s (session_id, last_hour, source, utm_source, utm_medium, utm_campaign, landing_page, page_views)
    ${SESSIONS_SELECT('inserted')} order by 1
    on conflict (session_id) do update set
      last_hour = greatest(s.last_hour, excluded.last_hour),
      -- First touch stays: taken only while the session has no page view yet.
      source = case when s.landing_page is null then excluded.source else s.source end,
      utm_source = case when s.landing_page is null then excluded.utm_source else s.utm_source end,
      utm_medium = case when s.landing_page is null then excluded.utm_medium else s.utm_medium end,
      utm_campaign = case when s.landing_page is null then excluded.utm_campaign else s.utm_campaign end,
      landing_page = coalesce(s.landing_page, excluded.landing_page),
      page_views = s.page_views + excluded.page_views`);
}

/** Recomputes the rollups from the raw events (after events were written around insertAnalyticsEvents). */
export async function rebuildAnalyticsRollups(db: Db): Promise<void> {
  await execute(db, sql`delete from analytics_hourly`);
  await execute(db, sql`delete from analytics_sessions`);
  await execute(db, sql`delete from analytics_hourly_sources`);
  await execute(db, sql`insert into analytics_hourly_sources (hour, kind, value, views) ${SOURCES_SELECT('analytics_events')}`);
  await execute(db, sql`
    insert into analytics_hourly (hour, page_path, views, time_spent)
    select ${HOUR}, page_path, count(*) filter (where event_type = 'pageview'), coalesce(sum(time_spent), 0)
    from analytics_events group by 1, 2`);
  await execute(db, sql`
    insert into analytics_sessions (session_id, last_hour, source, utm_source, utm_medium, utm_campaign, landing_page, page_views)
    ${SESSIONS_SELECT('analytics_events')}`);
}
