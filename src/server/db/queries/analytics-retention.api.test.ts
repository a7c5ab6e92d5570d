import { sql } from 'drizzle-orm';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { AnalyticsSummary } from '#shared/schemas/analytics';
import { ensureAdmin } from '../../auth/accounts.ts';
import { createTestApp, signIn } from '../../test/test-app.ts';
import { rowsOf, useTestDatabase } from '../../test/database.ts';
import { execute } from '../sql.ts';
import { deleteExpiredAnalyticsEvents, insertAnalyticsEvents, RETENTION_BATCH } from './analytics-events-queries.ts';

const database = useTestDatabase();
let t: ReturnType<typeof createTestApp>;
let cookie: string;
beforeAll(async () => {
  t = createTestApp(database);
  await ensureAdmin(database.db, 'retention@example.com', 'retention-password');
  cookie = await signIn(t.json, 'retention@example.com', 'retention-password');
});
beforeEach(async () => {
  await execute(database.db, sql`truncate analytics_events, analytics_hourly, analytics_sessions, analytics_hourly_sources`);
});

/** Stores `count` page views of `path` through the normal write (rollups included), then ages their raw rows. */
async function viewsAged(count: number, path: string, daysAgo: number) {
  await insertAnalyticsEvents(
    database.db,
    Array.from({ length: count }, (_, i) => ({ session_id: `retention${i}xxxxxxxxx`, event_type: 'pageview', page_path: path })),
  );
  await execute(
    database.db,
    sql`update analytics_events set created_at = now() - make_interval(days => ${daysAgo}) where page_path = ${path}`,
  );
  // The rollups are keyed by hour: age them with their events, as if written then.
  await execute(database.db, sql`update analytics_hourly set hour = hour - make_interval(days => ${daysAgo}) where page_path = ${path}`);
}
const rawCount = async () => Number((await rowsOf<{ n: number }>(database.db, sql`select count(*)::int as n from analytics_events`))[0]!.n);

describe('deleteExpiredAnalyticsEvents (ANALYTICS_RETENTION_DAYS)', () => {
  it('deletes raw events older than the retention, in batches, and keeps the younger ones', async () => {
    await viewsAged(7, '/old', 5);
    await viewsAged(3, '/young', 1);
    // Batches of 2: four statements for 7 rows, so the loop, not one statement, did the work.
    expect(await deleteExpiredAnalyticsEvents(database.db, 3, 2)).toBe(7);
    expect(await rowsOf(database.db, sql`select page_path from analytics_events`)).toEqual([
      { page_path: '/young' },
      { page_path: '/young' },
      { page_path: '/young' },
    ]);
    expect(await deleteExpiredAnalyticsEvents(database.db, 3, 2)).toBe(0);
    expect(RETENTION_BATCH).toBe(5000);
  });

  it('keeps the rollups, so the dashboard still shows the period whose raw events are gone', async () => {
    await viewsAged(4, '/old', 5);
    const before = (await (await t.app.request('/api/analytics/summary?period=7d', { headers: { cookie } })).json()) as AnalyticsSummary;
    expect(await deleteExpiredAnalyticsEvents(database.db, 1)).toBe(4);
    expect(await rawCount()).toBe(0);
    const after = (await (await t.app.request('/api/analytics/summary?period=7d', { headers: { cookie } })).json()) as AnalyticsSummary;
    expect(after.page_views).toBe(4);
    expect(after.top_pages).toEqual(before.top_pages);
  });

  it('two processes deleting at once delete each row once', async () => {
    await viewsAged(40, '/old', 10);
    const [a, b] = await Promise.all([deleteExpiredAnalyticsEvents(database.db, 3, 5), deleteExpiredAnalyticsEvents(database.db, 3, 5)]);
    expect(a + b).toBe(40);
    expect(await rawCount()).toBe(0);
  });
});
