/**
 * Analytics at scale: ingestion through HTTP (group commit) against a bare Hono hello-world
 * measured in the same run, and the summary's latency with 1M and 10M events.
 */
import { SEED_PERSON } from './leads-at-scale.ts';
import { sql } from 'drizzle-orm';
import { ANALYTICS_PERIODS, type AnalyticsPeriod } from '../src/shared/constants.ts';
import type { Db } from '../src/server/db/client.ts';
import { execute, pgArray } from '../src/server/db/sql.ts';
import { rebuildAnalyticsRollups } from '../src/server/db/queries/analytics-events-queries.ts';
import { runLoad, type LoadResult } from './lib/load.ts';

const BROWSER = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Safari/537.36';
const PAGES = ['/', '/privacy', '/careers', '/terms', '/cookies'];

export function eventBody(): string {
  const n = Math.floor(Math.random() * 1e12)
    .toString(36)
    .padStart(8, '0');
  const kind = Math.random() < 0.6 ? 'pageview' : 'heartbeat';
  return JSON.stringify({
    session_id: `bench${n}session`,
    event_type: kind,
    page_path: PAGES[Math.floor(Math.random() * PAGES.length)],
    ...(kind === 'heartbeat' ? { time_spent: 30 } : { referrer: 'https://www.google.com/' }),
  });
}

/** A browser's request headers for POST /api/public/events (a bot's user agent is dropped). */
export const EVENT_HEADERS = { 'content-type': 'application/json', 'user-agent': BROWSER };

export type Ingestion = { events: LoadResult; hello: LoadResult };

/** The same load generator and connections against `helloOrigin` (10 s at most), then the events for `durationMs`. */
export async function measureIngestion(origin: string, helloOrigin: string, connections: number, durationMs: number): Promise<Ingestion> {
  const hello = await runLoad({
    url: `${helloOrigin}/`,
    method: 'GET',
    headers: {},
    body: () => '',
    connections,
    durationMs: Math.min(durationMs, 10_000),
    maxRequests: 5_000_000,
  });
  const events = await runLoad({
    url: `${origin}/api/public/events`,
    method: 'POST',
    headers: EVENT_HEADERS,
    body: eventBody,
    connections,
    durationMs,
    maxRequests: 20_000_000,
  });
  return { events, hello };
}

/**
 * First touches of the seeded sessions, correlated as in real traffic: a referring site with
 * the UTM tags that go with it (paid search from google.com, the newsletter from email clients,
 * which send no referrer, so 'Direct'); most visits carry no UTM. Weights in percent (sum 100).
 */
type Touch = { weight: number; host: string; referrer: string | null; utm?: [source: string, medium: string, campaign: string] };
const TOUCHES: Touch[] = [
  { weight: 30, host: 'Direct', referrer: null },
  { weight: 25, host: 'google.com', referrer: 'https://www.google.com/' },
  { weight: 6, host: 'google.com', referrer: 'https://www.google.com/', utm: ['google', 'cpc', 'multifamily-underwriting'] },
  { weight: 4, host: 'google.com', referrer: 'https://www.google.com/', utm: ['google', 'cpc', 'brand'] },
  { weight: 3, host: 'google.com', referrer: 'https://www.google.com/', utm: ['google', 'cpc', 'commercial-deals'] },
  { weight: 6, host: 'bing.com', referrer: 'https://www.bing.com/' },
  { weight: 5, host: 'linkedin.com', referrer: 'https://www.linkedin.com/' },
  { weight: 4, host: 'linkedin.com', referrer: 'https://www.linkedin.com/', utm: ['linkedin', 'social', 'q3-deal-flow'] },
  { weight: 5, host: 'Direct', referrer: null, utm: ['newsletter', 'email', 'monthly-market-update'] },
  { weight: 7, host: 'biggerpockets.com', referrer: 'https://www.biggerpockets.com/forums/' },
  { weight: 5, host: 'loopnet.com', referrer: 'https://www.loopnet.com/' },
];
/** Landing pages of untagged visits (tagged ones land on / nine times in ten), weights in percent. */
const LANDINGS: { weight: number; path: string }[] = [
  { weight: 70, path: '/' },
  { weight: 12, path: '/careers' },
  { weight: 8, path: '/privacy' },
  { weight: 6, path: '/terms' },
  { weight: 4, path: '/cookies' },
];
/** 100 entries, each value as often as its weight: element 1 + (hash % 100) draws one. */
const per100 = <T extends { weight: number }>(rows: T[], pick: (row: T) => string | null) =>
  sql`${pgArray(rows.flatMap((r) => Array<string | null>(r.weight).fill(pick(r))))}::text[]`;
const TOUCH = {
  host: per100(TOUCHES, (t) => t.host),
  referrer: per100(TOUCHES, (t) => t.referrer),
  source: per100(TOUCHES, (t) => t.utm?.[0] ?? null),
  medium: per100(TOUCHES, (t) => t.utm?.[1] ?? null),
  campaign: per100(TOUCHES, (t) => t.utm?.[2] ?? null),
  landing: per100(LANDINGS, (l) => l.path),
};

const EVENTS_PER_SESSION = 20;
const DAYS = 90;
const WINDOW_SECS = DAYS * 86_400;
/** One lead per 100 events, as 100,000 leads beside 10M events. */
export const leadsFor = (events: number) => Math.round(events / 100);

/**
 * `count` events over 90 days in sessions of 20 events within 20 minutes: the first a page view
 * with the session's first touch (referrer, UTM, landing page, device), then page views,
 * heartbeats and, for one session in five, a form view (one in twenty starts the form). Then
 * the rollups. Generated in SQL, so 10M stays quick. Leads and everything else are left as
 * they are (db:move's test seeds its own); returns how many sessions were made.
 */
export async function seedEvents(db: Db, count: number): Promise<number> {
  await execute(
    db,
    sql`truncate analytics_events, analytics_hourly, analytics_sessions, analytics_hourly_sources, analytics_hourly_visits`,
  );
  const sessions = Math.ceil(count / EVENTS_PER_SESSION);
  const chunk = 1_000_000;
  for (let done = 0; done < count; done += chunk) {
    await execute(
      db,
      sql`
      insert into analytics_events (session_id, page_path, event_type, time_spent, user_agent, referrer, utm_source, utm_medium, utm_campaign,
        referrer_host, device, created_at)
      select 'seed' || k,
             case when p = 0 then landing else (array['/', '/privacy', '/careers', '/terms', '/cookies'])[1 + (i * 7 + k) % 5] end,
             kind, case when kind = 'heartbeat' then 30 end, 'Mozilla/5.0 (seed)',
             case when p = 0 then (${TOUCH.referrer})[t] end,
             case when p = 0 then (${TOUCH.source})[t] end, case when p = 0 then (${TOUCH.medium})[t] end,
             case when p = 0 then (${TOUCH.campaign})[t] end,
             case when p = 0 then (${TOUCH.host})[t] end,
             case when kind = 'pageview' then (case when h / 1000000 % 100 < 55 then 'desktop' when h / 1000000 % 100 < 95 then 'mobile' else 'tablet' end) end,
             now() - make_interval(secs => 1200 + k * ${WINDOW_SECS / sessions}::float8 - p * 60)
      from (
        select i, k, p, h, t,
               case when (${TOUCH.source})[t] is not null and h / 100 % 10 < 9 then '/' else (${TOUCH.landing})[1 + h / 1000 % 100] end as landing,
               case when p = 0 then 'pageview'
                    when p = 5 and h / 10000 % 100 < 20 then 'form_view'
                    when p = 6 and h / 10000 % 100 < 5 then 'form_start'
                    when i % 3 = 0 then 'heartbeat' else 'pageview' end as kind
        from (select i, i / ${EVENTS_PER_SESSION} as k, i % ${EVENTS_PER_SESSION} as p, abs(hashint4(i / ${EVENTS_PER_SESSION})::bigint) as h,
                     1 + abs(hashint4(i / ${EVENTS_PER_SESSION})::bigint) % 100 as t
              from generate_series(${done}::int, ${Math.min(done + chunk, count) - 1}::int) as i) g
      ) e`,
    );
  }
  await rebuildAnalyticsRollups(db);
  for (const table of ['analytics_hourly', 'analytics_sessions', 'analytics_hourly_visits', 'analytics_hourly_sources']) {
    await execute(db, sql.raw(`vacuum analyze ${table}`));
  }
  return sessions;
}

/** The analytics bench's data: `count` events (seedEvents) and, in place of any leads, `leadsFor(count)` leads over a year (seedLeads). */
export async function seedEventsAndLeads(db: Db, count: number): Promise<void> {
  await execute(db, sql`truncate leads, appointments cascade`);
  const sessions = await seedEvents(db, count);
  await seedLeads(db, leadsFor(count), sessions);
  await seedStageHistory(db);
  for (const table of ['leads', 'appointments', 'lead_stage_changes']) await execute(db, sql.raw(`vacuum analyze ${table}`));
}

/**
 * A stage history for the seeded leads in place of the one the trigger wrote at seed time (every
 * lead entering its stage now): each entered New when it was added; those past New entered Call
 * booked 1-3 days later (a quarter of the won and lost skip it), the won and lost and half the
 * others Proposal sent on the 5th day (where they are now), and the won and lost their stage on
 * the 10th (never after now). The lost ones get one of the five default reasons, a tenth none ("Not given").
 */
async function seedStageHistory(db: Db): Promise<void> {
  await execute(
    db,
    sql`update leads set lost_reason = case when abs(hashtext(id::text)) % 10 = 0 then 'Not given'
          else (array['Price', 'Chose another firm', 'Deal fell through', 'No response', 'Not a fit'])[1 + abs(hashtext(email)) % 5] end
        where status = 'Dropped'`,
  );
  await execute(
    db,
    sql`update leads set stage_id = (select id from pipeline_stages where name = 'Proposal sent')
        where status = 'Contacted' and abs(hashtext(id::text)) / 4 % 2 = 0`,
  );
  await execute(db, sql`truncate lead_stage_changes`);
  await execute(
    db,
    sql`
    with stage as (select name, id from pipeline_stages),
    lead as (select id, status, stage_id, created_at, abs(hashtext(id::text)) as h from leads),
    step as (
      select id, 0 as k, (select id from stage where name = 'New') as to_stage, created_at as at from lead
      union all
      select id, 1, (select id from stage where name = 'Call booked'), created_at + make_interval(days => 1 + h % 3) from lead
      where status = 'Contacted' or (status in ('Converted', 'Dropped') and h % 4 <> 0)
      union all
      select id, 2, (select id from stage where name = 'Proposal sent'), created_at + interval '5 days' from lead
      where status in ('Converted', 'Dropped') or (status = 'Contacted' and h / 4 % 2 = 0)
      union all
      select id, 3, stage_id, created_at + interval '10 days' from lead where status in ('Converted', 'Dropped')
    )
    insert into lead_stage_changes (lead_id, from_stage_id, to_stage_id, changed_at)
    select id, lag(to_stage) over (partition by id order by k), to_stage, least(at, now()) from step`,
  );
}

/**
 * `count` leads over the last year: 15% entered by staff or imported (no session, no
 * submission), 3% from the website without a recorded visit, the rest sent from the form after
 * a visit. Those of the last 90 days belong to a seeded session (its first touch copied and
 * its first page view's hour as visit_hour, as the public form does); older ones carry a first
 * touch drawn as the sessions' are, their raw events long deleted. One in ten Converted with a
 * fee; appointments for 30%, scheduled or completed (one in ten cancelled).
 */
async function seedLeads(db: Db, count: number, sessions: number): Promise<void> {
  const span = WINDOW_SECS / sessions;
  await execute(
    db,
    sql`
    insert into leads (full_name, email, phone, property_types, status, message, created_at, submission_id, analytics_session_id,
      source, utm_source, utm_medium, utm_campaign, landing_page, pages_viewed, visit_hour, estimated_fee_cents)
    select
      ${SEED_PERSON},
      status,
      case when i % 3 = 0 then 'Looking for underwriting on a deal.' end,
      created_at,
      case when origin <> 'offline' then gen_random_uuid() end,
      case when origin = 'visit' then coalesce(s.session_id, 'expired' || i) end,
      case when s.session_id is not null then s.source when origin = 'visit' then (${TOUCH.host})[t] end,
      case when s.session_id is not null then s.utm_source when origin = 'visit' then (${TOUCH.source})[t] end,
      case when s.session_id is not null then s.utm_medium when origin = 'visit' then (${TOUCH.medium})[t] end,
      case when s.session_id is not null then s.utm_campaign when origin = 'visit' then (${TOUCH.campaign})[t] end,
      case when s.session_id is not null then s.landing_page when origin = 'visit' then
        case when (${TOUCH.source})[t] is not null then '/' else (${TOUCH.landing})[1 + h / 1000 % 100] end end,
      case when s.session_id is not null then s.page_views when origin = 'visit' then 1 + h % 12 end,
      case when s.session_id is not null then s.first_hour when origin = 'visit' then date_trunc('hour', created_at - interval '20 minutes') end,
      case when status = 'Converted' then 250000 + (h / 100 % 40) * 50000 end
    from (
      select i, h, t, origin, status, k,
             -- A lead of the seeded window comes 20 minutes after the start of its session.
             case when k is not null then now() - make_interval(secs => k * ${span}::float8) else now() - make_interval(secs => age) end as created_at
      from (
        select i, h, t, age, origin, status,
               case when origin = 'visit' and age < ${WINDOW_SECS - 3600} then floor(age / ${span}::float8)::int end as k
        from (
          select i, abs(hashint4(i)::bigint) as h, 1 + abs(hashint4(i)::bigint) / 7 % 100 as t,
                 (i - 0.5) * ${(365 * 86_400) / count}::float8 as age,
                 case when abs(hashint4(i)::bigint) % 100 < 15 then 'offline' when abs(hashint4(i)::bigint) % 100 < 18 then 'unrecorded' else 'visit' end as origin,
                 case when abs(hashint4(-i)::bigint) % 100 < 10 then 'Converted' when abs(hashint4(-i)::bigint) % 100 < 45 then 'Contacted'
                      when abs(hashint4(-i)::bigint) % 100 < 60 then 'Dropped' else 'New' end as status
          from generate_series(1, ${count}) as i) a) b) l
    left join analytics_sessions s on s.session_id = 'seed' || l.k`,
  );
  // At random times, so many overlap: allowed, as staff may (otherwise appointments_no_overlap refuses the seed).
  await execute(
    db,
    sql`
    insert into appointments (lead_id, date, time, type, status, cancelled_by, overlap_allowed)
    select id, day, at, 'Call', case when cancelled then 'cancelled' when day < current_date then 'completed' else 'scheduled' end,
           case when cancelled then 'staff' end, true
    from (select id, (created_at + make_interval(days => 1 + abs(hashtext(id::text)) % 10))::date as day,
                 make_time(9 + abs(hashtext(email)) % 8, (abs(hashtext(phone)) % 2) * 30, 0) as at,
                 status <> 'Converted' and abs(hashtext('c' || id::text)) % 10 = 0 as cancelled
          from leads where status = 'Converted' or abs(hashtext(id::text)) % 100 < 25) a`,
  );
}

export async function timeSummary(
  origin: string,
  cookie: string,
  samples = 30,
): Promise<{ period: AnalyticsPeriod; p50: number; p95: number }[]> {
  const out = [];
  for (const period of ANALYTICS_PERIODS) {
    const times: number[] = [];
    for (let i = 0; i < samples + 3; i++) {
      const started = performance.now();
      const res = await fetch(`${origin}/api/analytics/summary?period=${period}`, { headers: { cookie } });
      await res.arrayBuffer();
      if (res.status !== 200) throw new Error(`summary answered ${res.status}`);
      if (i >= 3) times.push(performance.now() - started);
    }
    times.sort((a, b) => a - b);
    out.push({ period, p50: times[Math.floor(times.length / 2)]!, p95: times[Math.floor(times.length * 0.95)]! });
  }
  return out;
}

export type ReportTiming = { name: string; p50: number; p95: number };
const SOURCE_GROUPS = ['referrer', 'utm', 'landing'] as const;

/**
 * p50/p95 over `samples` requests after 3 warm-ups of the report (funnel and trend), the pipeline
 * (lost reasons and stage conversion) and each sources group, for 90 and 30 days.
 */
export async function timeReport(origin: string, cookie: string, samples = 30): Promise<ReportTiming[]> {
  const out: ReportTiming[] = [];
  for (const days of [90, 30]) {
    const paths = [
      { name: `report ${days}d`, path: `/api/analytics/report?days=${days}` },
      { name: `pipeline ${days}d`, path: `/api/analytics/pipeline?days=${days}` },
      ...SOURCE_GROUPS.map((group) => ({ name: `sources ${group} ${days}d`, path: `/api/analytics/sources?days=${days}&group=${group}` })),
    ];
    for (const { name, path } of paths) {
      const times: number[] = [];
      for (let i = 0; i < samples + 3; i++) {
        const started = performance.now();
        const res = await fetch(`${origin}${path}`, { headers: { cookie } });
        await res.arrayBuffer();
        if (res.status !== 200) throw new Error(`${path} answered ${res.status}`);
        if (i >= 3) times.push(performance.now() - started);
      }
      times.sort((a, b) => a - b);
      out.push({ name, p50: times[Math.floor(times.length / 2)]!, p95: times[Math.floor(times.length * 0.95)]! });
    }
  }
  return out;
}
