/**
 * Analytics at scale: ingestion through HTTP (group commit) against a bare Hono hello-world
 * measured in the same run, and the summary's latency with 1M and 10M events.
 */
import { sql } from 'drizzle-orm';
import { ANALYTICS_PERIODS, type AnalyticsPeriod } from '../src/shared/constants.ts';
import type { Db } from '../src/server/db/client.ts';
import { execute } from '../src/server/db/sql.ts';
import { rebuildAnalyticsRollups } from '../src/server/db/queries/analytics-events.ts';
import { runLoad, type LoadResult } from './lib/load.ts';

const BROWSER = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Safari/537.36';
const PAGES = ['/', '/privacy', '/careers', '/terms', '/cookies'];

export function eventBody(): string {
  const n = Math.floor(Math.random() * 1e12).toString(36).padStart(8, '0');
  const kind = Math.random() < 0.6 ? 'pageview' : 'heartbeat';
  return JSON.stringify({
    session_id: `bench${n}session`,
    event_type: kind,
    page_path: PAGES[Math.floor(Math.random() * PAGES.length)],
    ...(kind === 'heartbeat' ? { time_spent: 30 } : { referrer: 'https://www.google.com/' }),
  });
}

export type Ingestion = { events: LoadResult; hello: LoadResult };

/** The same load generator and connections against `helloOrigin` (10 s at most), then the events for `durationMs`. */
export async function measureIngestion(origin: string, helloOrigin: string, connections: number, durationMs: number): Promise<Ingestion> {
  const hello = await runLoad({ url: `${helloOrigin}/`, method: 'GET', headers: {}, body: () => '', connections, durationMs: Math.min(durationMs, 10_000), maxRequests: 5_000_000 });
  const events = await runLoad({
    url: `${origin}/api/public/events`,
    method: 'POST',
    headers: { 'content-type': 'application/json', 'user-agent': BROWSER },
    body: eventBody,
    connections,
    durationMs,
    maxRequests: 20_000_000,
  });
  return { events, hello };
}

/** `count` events over 30 days: ~20 per session, sessions within an hour, then the rollups. */
export async function seedEvents(db: Db, count: number): Promise<void> {
  const chunk = 1_000_000;
  for (let done = 0; done < count; done += chunk) {
    await execute(db, sql`
      insert into analytics_events (session_id, page_path, event_type, time_spent, user_agent, referrer, created_at)
      select 'seed' || (i / 20), (array['/', '/privacy', '/careers', '/terms', '/cookies'])[1 + i % 5],
             case when i % 3 = 0 then 'heartbeat' else 'pageview' end,
             case when i % 3 = 0 then 30 end, 'Mozilla/5.0 (seed)', null,
             now() - make_interval(secs => ((i / 20) * 2592000.0 / ${count / 20}::float8) + (i % 20) * 60)
      from generate_series(${done}::int, ${Math.min(done + chunk, count) - 1}::int) as i`);
  }
  await rebuildAnalyticsRollups(db);
  await execute(db, sql`vacuum analyze analytics_hourly`);
  await execute(db, sql`vacuum analyze analytics_sessions`);
}

export async function timeSummary(origin: string, cookie: string, samples = 30): Promise<{ period: AnalyticsPeriod; p50: number; p95: number }[]> {
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
