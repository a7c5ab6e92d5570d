import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { beforeEach, describe, expect, it } from 'vitest';
import { appRoot } from '../../app-root.ts';
import { seededRandom } from '../../lib/seeded-random.ts';
import { execute } from '../sql.ts';
import { useTestDatabase, rowsOf } from '../../test/database.ts';
import { insertAnalyticsEvents, rebuildAnalyticsRollups, rollupsOf, type NewAnalyticsEvent } from './analytics-events-queries.ts';

const database = useTestDatabase();
beforeEach(async () => {
  await execute(
    database.db,
    sql`truncate analytics_events, analytics_hourly, analytics_sessions, analytics_hourly_sources, analytics_hourly_visits`,
  );
});

const random = seededRandom;

function randomEvents(next: () => number, count: number): NewAnalyticsEvent[] {
  const pick = <T>(items: readonly T[]) => items[Math.floor(next() * items.length)]!;
  return Array.from({ length: count }, () => {
    const event_type = pick(['pageview', 'pageview', 'heartbeat', 'time_spent', 'form_view', 'form_start'] as const);
    return {
      // Few sessions and pages, so batches share sessions and rollup rows.
      session_id: `session${pick(['A', 'B', 'C', 'D', 'E', 'F'])}xxxxxxxxxx`,
      page_path: pick(['/', '/privacy', '/careers', '/terms']),
      event_type,
      time_spent: event_type === 'heartbeat' || event_type === 'time_spent' ? Math.floor(next() * 120) : null,
      referrer_host: event_type === 'pageview' ? pick(['Direct', 'google.com', 'bing.com', null]) : null,
      device: event_type === 'pageview' ? pick(['desktop', 'mobile', 'tablet']) : 'desktop',
      utm_source: event_type === 'pageview' ? pick(['newsletter', null, null]) : null,
      utm_medium: event_type === 'pageview' ? pick(['email', null]) : null,
      utm_campaign: null,
    };
  });
}

async function rollupTables() {
  return {
    hourly: await rowsOf(database.db, sql`select hour, page_path, views, time_spent from analytics_hourly order by 1, 2`),
    sources: await rowsOf(database.db, sql`select hour, kind, value, views from analytics_hourly_sources order by 1, 2, 3`),
    sessions: await rowsOf(
      database.db,
      sql`
      select session_id, last_hour, source, utm_source, utm_medium, utm_campaign, landing_page, page_views, first_hour, form_views, form_starts
      from analytics_sessions order by 1`,
    ),
    visits: await rowsOf(database.db, sql`select * from analytics_hourly_visits order by 1, 2, 3, 4, 5, 6`),
  };
}

describe('analytics rollups written with each batch', () => {
  it('sums a batch per page, per source and per session, first touch from the first page view', () => {
    const r = rollupsOf([
      { session_id: 's1', page_path: '/b', event_type: 'heartbeat', time_spent: 30, device: 'desktop' },
      { session_id: 's1', page_path: '/a', event_type: 'pageview', referrer_host: 'google.com', utm_source: 'ads', device: 'mobile' },
      { session_id: 's1', page_path: '/b', event_type: 'pageview', referrer_host: 'bing.com', device: 'mobile' },
      { session_id: 's0', page_path: '/a', event_type: 'time_spent', time_spent: 5 },
    ]);
    expect(r.pages).toEqual([
      { page_path: '/a', views: 1, time_spent: 5 },
      { page_path: '/b', views: 1, time_spent: 30 },
    ]);
    expect(r.sources).toEqual([
      { kind: 'device', value: 'mobile', views: 2 },
      { kind: 'referrer', value: 'bing.com', views: 1 },
      { kind: 'referrer', value: 'google.com', views: 1 },
    ]);
    expect(r.sessions).toEqual([
      {
        session_id: 's0',
        source: null,
        utm_source: null,
        utm_medium: null,
        utm_campaign: null,
        landing_page: null,
        page_views: 0,
        form_views: 0,
        form_starts: 0,
      },
      {
        session_id: 's1',
        source: 'google.com',
        utm_source: 'ads',
        utm_medium: null,
        utm_campaign: null,
        landing_page: '/a',
        page_views: 2,
        form_views: 0,
        form_starts: 0,
      },
    ]);
  });

  it('counts a visitor who started the lead form as having seen it, once, whatever the order of the events', async () => {
    const ev = (session_id: string, event_type: string): NewAnalyticsEvent => ({ session_id, event_type, page_path: '/' });
    // Started in a later batch than the visit; in the same batch; before the first page view; seen after starting.
    await insertAnalyticsEvents(database.db, [ev('sessionLaterxxxxxxxx', 'pageview'), ev('sessionBeforexxxxxxx', 'form_start')]);
    await insertAnalyticsEvents(database.db, [
      ev('sessionLaterxxxxxxxx', 'form_start'),
      ev('sessionSamexxxxxxxxx', 'pageview'),
      ev('sessionSamexxxxxxxxx', 'form_start'),
    ]);
    await insertAnalyticsEvents(database.db, [ev('sessionBeforexxxxxxx', 'pageview'), ev('sessionLaterxxxxxxxx', 'form_view')]);
    const totals = async () =>
      (
        await rowsOf<{ visitors: number; saw_form: number; started_form: number }>(
          database.db,
          sql`
        select sum(visitors)::int as visitors, sum(saw_form)::int as saw_form, sum(started_form)::int as started_form from analytics_hourly_visits`,
        )
      )[0];
    expect(await totals()).toEqual({ visitors: 3, saw_form: 3, started_form: 3 });
    await rebuildAnalyticsRollups(database.db);
    expect(await totals()).toEqual({ visitors: 3, saw_form: 3, started_form: 3 });
  });

  it('the migration that made starting the form seeing it gives the rows kept before it their visitors who started unseen', async () => {
    const ev = (session_id: string, event_type: string): NewAnalyticsEvent => ({ session_id, event_type, page_path: '/' });
    await insertAnalyticsEvents(database.db, [
      ev('sessionOldAxxxxxxxxx', 'pageview'),
      ev('sessionOldAxxxxxxxxx', 'form_start'),
      ev('sessionOldBxxxxxxxxx', 'pageview'),
      ev('sessionOldBxxxxxxxxx', 'form_view'),
      ev('sessionOldBxxxxxxxxx', 'form_start'),
      ev('sessionOldCxxxxxxxxx', 'pageview'),
    ]);
    const saw = async () =>
      (await rowsOf<{ saw: number }>(database.db, sql`select sum(saw_form)::int as saw from analytics_hourly_visits`))[0]!.saw;
    // As the rollup counted before: only B, who had a form_view.
    await execute(database.db, sql`update analytics_hourly_visits set saw_form = 1`);
    const dir = path.join(appRoot(), 'drizzle');
    const file = readdirSync(dir).find((name) => name.endsWith('_funnel_form_steps.sql'))!;
    // Its data statement (the indexes it makes are in this database already).
    const [update] = readFileSync(path.join(dir, file), 'utf8')
      .split('--> statement-breakpoint')
      .filter((s) => /UPDATE analytics_hourly_visits/.test(s));
    await execute(database.db, sql.raw(update!));
    expect(await saw()).toBe(2);
    const migrated = await rollupTables();
    await rebuildAnalyticsRollups(database.db);
    expect(await rollupTables()).toEqual(migrated);
  });

  // The rollups must always equal what the raw events say: rebuilding them from
  // analytics_events changes nothing, however the events were split into batches.
  for (const seed of [1, 2, 3]) {
    it(`equal a rebuild from the raw events after random batches (seed ${seed})`, async () => {
      const next = random(seed);
      const batches = Array.from({ length: 12 }, () => randomEvents(next, 1 + Math.floor(next() * 40)));
      // Batches in flight at once, as the group commit may run them (PGlite runs them in turn).
      for (let i = 0; i < batches.length; i += 3) {
        await Promise.all(batches.slice(i, i + 3).map((b) => insertAnalyticsEvents(database.db, b)));
      }
      const incremental = await rollupTables();
      expect(incremental.hourly.length).toBeGreaterThan(0);
      expect(incremental.sessions.length).toBeGreaterThan(0);
      expect(incremental.visits.some((v) => Number((v as { saw_form: unknown }).saw_form) > 0)).toBe(true);

      await rebuildAnalyticsRollups(database.db);
      expect(await rollupTables()).toEqual(incremental);
    });
  }
});
