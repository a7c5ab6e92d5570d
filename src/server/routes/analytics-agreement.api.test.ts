import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import type { AnalyticsSummary } from '#shared/schemas/analytics';
import type { AnalyticsReport, AnalyticsSources } from '#shared/schemas/analytics-report';
import { seededRandom } from '../lib/seeded-random.ts';
import { execute, pgArray } from '../db/sql.ts';
import { rebuildAnalyticsRollups } from '../db/queries/analytics-events-queries.ts';
import { ensureAdmin } from '../auth/accounts.ts';
import { createTestApp, signIn } from '../test/test-app.ts';
import { useTestDatabase } from '../test/database.ts';

/**
 * One period, one set of numbers: for visitors who come back, sessions that only sent a
 * heartbeat, form events without a page view, leads from old visits, leads typed in by staff
 * and clients won with and without a call, spread over 100 days of a time zone that is not
 * UTC, the summary cards, the daily trend, the funnel and the sources table of each period
 * count visitors, page views and leads alike, and the funnel never grows from one step to
 * the next.
 */
const database = useTestDatabase();
let t: ReturnType<typeof createTestApp>;
let cookie: string;
const HOUR = 3_600_000;
const DAYS = 100;

beforeAll(async () => {
  t = createTestApp(database, { BUSINESS_TIME_ZONE: 'America/Chicago' });
  await ensureAdmin(database.db, 'agree@example.com', 'agree-password');
  cookie = await signIn(t.json, 'agree@example.com', 'agree-password');
  await seedWorld(7);
});

type Event = {
  session: string;
  type: string;
  path: string;
  referrer: string | null;
  utm: string | null;
  hoursAgo: number;
  spent: number | null;
};

/** Visitors over DAYS days, some back days later, and their leads, calls and clients; plus leads with no visit. */
async function seedWorld(seed: number) {
  const next = seededRandom(seed);
  const pick = <T>(items: readonly T[]) => items[Math.floor(next() * items.length)]!;
  const events: Event[] = [];
  const visits: { session: string; firstHoursAgo: number }[] = [];
  for (let i = 0; i < 160; i++) {
    const session = `agreeSession${String(i).padStart(8, '0')}`;
    const firstHoursAgo = next() * DAYS * 24;
    const visit = (hoursAgo: number, withView: boolean) => {
      if (withView)
        events.push({
          session,
          type: 'pageview',
          path: pick(['/', '/privacy', '/careers']),
          referrer: pick(['Direct', 'google.com', 'bing.com']),
          utm: pick([null, 'news']),
          hoursAgo,
          spent: null,
        });
      if (next() < 0.6)
        events.push({
          session,
          type: 'heartbeat',
          path: '/',
          referrer: null,
          utm: null,
          hoursAgo: Math.max(0, hoursAgo - 0.01),
          spent: 30,
        });
      if (withView && next() < 0.5)
        events.push({
          session,
          type: 'pageview',
          path: '/',
          referrer: null,
          utm: null,
          hoursAgo: Math.max(0, hoursAgo - 0.02),
          spent: null,
        });
      // The lead form: seen, started, or (a lost request) started without being seen.
      const form = next();
      if (form < 0.3)
        events.push({
          session,
          type: 'form_view',
          path: '/',
          referrer: null,
          utm: null,
          hoursAgo: Math.max(0, hoursAgo - 0.03),
          spent: null,
        });
      if (form < 0.15 || form > 0.95)
        events.push({
          session,
          type: 'form_start',
          path: '/',
          referrer: null,
          utm: null,
          hoursAgo: Math.max(0, hoursAgo - 0.04),
          spent: null,
        });
    };
    // One in ten sends only a heartbeat (its page view lost): never a visitor.
    visit(firstHoursAgo, next() > 0.1);
    // A third come back, days later.
    if (next() < 0.35) visit(firstHoursAgo * next(), true);
    visits.push({ session, firstHoursAgo });
  }
  const col = <T>(rows: T[], f: (r: T) => string | number | null) => pgArray(rows.map(f));
  await execute(
    database.db,
    sql`
    insert into analytics_events (session_id, event_type, page_path, referrer_host, utm_source, time_spent, created_at)
    select s, ty, p, r, u, sp, now() - make_interval(secs => h * 3600)
    from unnest(${col(events, (e) => e.session)}::text[], ${col(events, (e) => e.type)}::text[], ${col(events, (e) => e.path)}::text[],
      ${col(events, (e) => e.referrer)}::text[], ${col(events, (e) => e.utm)}::text[], ${col(events, (e) => e.spent)}::int[],
      ${col(events, (e) => e.hoursAgo)}::float8[]) as x(s, ty, p, r, u, sp, h)`,
  );
  await rebuildAnalyticsRollups(database.db);

  // Leads: from a visit (sent some time after the first page view), typed in by staff, or sent with the visit not recorded.
  for (let i = 0; i < 70; i++) {
    const kind = pick(['visit', 'visit', 'visit', 'offline', 'unrecorded'] as const);
    const from = kind === 'visit' ? pick(visits) : undefined;
    const hoursAgo = from ? from.firstHoursAgo * next() : next() * DAYS * 24;
    const id = crypto.randomUUID();
    const status = pick(['New', 'Contacted', 'Converted', 'Converted', 'Dropped']);
    await execute(
      database.db,
      sql`
      insert into leads (id, full_name, email, phone, property_types, created_at, status, submission_id, analytics_session_id,
        source, utm_source, utm_medium, utm_campaign, landing_page, visit_hour)
      select ${id}::uuid, 'Lead', ${`agree${i}@example.com`}, '555', array['land'], now() - make_interval(secs => ${hoursAgo}::float8 * 3600), ${status},
        case when ${kind !== 'offline'} then gen_random_uuid() end, ${from?.session ?? null}::text,
        s.source, s.utm_source, s.utm_medium, s.utm_campaign, s.landing_page, s.first_hour
      from (select 1) one left join analytics_sessions s on s.session_id = ${from?.session ?? null}::text`,
    );
    const call = pick(['none', 'none', 'scheduled', 'completed', 'cancelled'] as const);
    if (call !== 'none')
      await execute(
        database.db,
        sql`insert into appointments (lead_id, date, time, type, status, overlap_allowed) values (${id}::uuid, '2026-11-20', '10:00', 'Call', ${call}, true)`,
      );
  }
}

const get = async <T>(path: string): Promise<T> => {
  const res = await t.app.request(path, { headers: { cookie } });
  expect(res.status, path).toBe(200);
  return (await res.json()) as T;
};

/** The three answers for one period (`range`: the report's and sources' query), asked within one clock hour, so the period cannot move between them. */
async function answersFor(period: string, range: string) {
  for (;;) {
    const hour = Math.floor(Date.now() / HOUR);
    const [summary, report, sources] = await Promise.all([
      get<AnalyticsSummary>(`/api/analytics/summary?period=${period}`),
      get<AnalyticsReport>(`/api/analytics/report?${range}`),
      get<AnalyticsSources>(`/api/analytics/sources?${range}&group=utm`),
    ]);
    if (Math.floor(Date.now() / HOUR) === hour) return { summary, report, sources };
  }
}

const sum = <T>(rows: T[], pick: (row: T) => number) => rows.reduce((n, row) => n + pick(row), 0);

/** The cards against the trend, the funnel and the sources table of the same period. */
function expectAgreement({ summary, report, sources }: Awaited<ReturnType<typeof answersFor>>) {
  const trendVisitors = sum(report.days, (d) => d.visitors);
  expect(summary.unique_visitors).toBeGreaterThan(0);
  expect(trendVisitors, 'sum of the trend').toBe(summary.unique_visitors);
  expect(report.funnel.visitors, "the funnel's first step").toBe(summary.unique_visitors);
  expect(
    sum(sources.rows, (r) => r.visitors),
    'the sources table',
  ).toBe(summary.unique_visitors);
  expect(
    sum(report.days, (d) => d.page_views),
    'page views of the trend',
  ).toBe(summary.page_views);
  expect(report.totals).toEqual({ visitors: trendVisitors, page_views: summary.page_views, leads: sum(report.days, (d) => d.leads) });
  expect(
    sum(sources.rows, (r) => r.leads),
    'leads of the sources table',
  ).toBe(report.totals.leads);
  expect(summary.form_conversions, 'visitors who sent the form').toBe(report.funnel.sent);
  expect(summary.previous_page_views, 'the period before').toBe(report.previous_totals.page_views);
}

describe('the Analytics page counts one way for one period', () => {
  for (const [period, days] of [
    ['7d', 7],
    ['30d', 30],
    ['90d', 90],
  ] as const) {
    it(`${period}: cards, trend, funnel and sources agree on visitors, page views and leads`, async () => {
      const answers = await answersFor(period, `days=${days}`);
      expectAgreement(answers);
      // The last N days: today and the N - 1 before it, from midnight in the business time zone.
      expect(answers.report.days).toHaveLength(days);
      expect(answers.report).toMatchObject({ hours: null, start: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T00:00:00-0[56]:00$/) });
      // Asked by its preset, the report is the same period.
      const byPeriod = await answersFor(period, `period=${period}`);
      expect(byPeriod.report.funnel).toEqual(answers.report.funnel);
      expect(byPeriod.report.totals).toEqual(answers.report.totals);
      expectAgreement(byPeriod);
    });
  }

  it('24h: the current hour and the 23 before it, for the cards, the hourly bars, the funnel and the sources', async () => {
    const answers = await answersFor('24h', 'period=24h');
    expectAgreement(answers);
    expect(sum(answers.summary.hourly, (h) => h.views)).toBe(answers.summary.page_views);
    expect(answers.report.hours).toBe(24);
    const start = Date.parse(answers.report.start);
    expect(Date.parse(answers.report.end) - start).toBe(24 * HOUR);
    expect(start % HOUR).toBe(0);
  });

  it('never lets a funnel step be larger than the one before it', async () => {
    for (const days of [7, 30, 90]) {
      const { funnel } = await get<AnalyticsReport>(`/api/analytics/report?days=${days}`);
      const steps = [funnel.visitors, funnel.saw_form, funnel.started_form, funnel.sent, funnel.booked, funnel.converted];
      for (let i = 1; i < steps.length; i++)
        expect(steps[i], `step ${i} of ${days} days: ${steps.join(' → ')}`).toBeLessThanOrEqual(steps[i - 1]!);
    }
  });
});
