import { sql } from 'drizzle-orm';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { AnalyticsNow, AnalyticsSummary } from '#shared/schemas/analytics';
import type { AnalyticsReport } from '#shared/schemas/analytics-report';
import { addDays, zonedParts } from '#shared/zoned-time';
import { sseReader } from '../test/sse.ts';
import { execute } from '../db/sql.ts';
import { insertAnalyticsEvents, rebuildAnalyticsRollups, type NewAnalyticsEvent } from '../db/queries/analytics-events-queries.ts';
import { ensureAdmin } from '../auth/accounts.ts';
import { createTestApp, signIn } from '../test/test-app.ts';
import { useTestDatabase } from '../test/database.ts';

const database = useTestDatabase();
let t: ReturnType<typeof createTestApp>;
let cookie: string;
beforeAll(async () => {
  t = createTestApp(database, { BUSINESS_TIME_ZONE: 'America/New_York' });
  await ensureAdmin(database.db, 'numbers@example.com', 'numbers-password');
  cookie = await signIn(t.json, 'numbers@example.com', 'numbers-password');
});
beforeEach(async () => {
  await execute(
    database.db,
    sql`truncate analytics_events, analytics_hourly, analytics_sessions, analytics_hourly_sources, analytics_hourly_visits`,
  );
  await execute(database.db, sql`truncate leads cascade`);
});

/** Inserts events, then moves each to `hoursAgo` hours before now, and rebuilds the rollups. */
async function eventsAt(list: (NewAnalyticsEvent & { hoursAgo: number })[]) {
  for (const { hoursAgo, ...e } of list) {
    await insertAnalyticsEvents(database.db, [e]);
    await execute(
      database.db,
      sql`update analytics_events set created_at = now() - make_interval(hours => ${hoursAgo})
      where id = (select max(id) from analytics_events)`,
    );
  }
  await rebuildAnalyticsRollups(database.db);
}
const summary = async (period: string) =>
  (await (await t.app.request(`/api/analytics/summary?period=${period}`, { headers: { cookie } })).json()) as AnalyticsSummary;
const view = (session: string, path: string, hoursAgo: number): NewAnalyticsEvent & { hoursAgo: number } => ({
  session_id: session,
  event_type: 'pageview',
  page_path: path,
  hoursAgo,
});
const spent = (session: string, path: string, seconds: number, hoursAgo: number): NewAnalyticsEvent & { hoursAgo: number } => ({
  session_id: session,
  event_type: 'time_spent',
  page_path: path,
  time_spent: seconds,
  hoursAgo,
});

describe('GET /api/analytics/now', () => {
  const now = async () => (await (await t.app.request('/api/analytics/now', { headers: { cookie } })).json()) as AnalyticsNow;

  it('counts the visitors of the last 5 minutes where each was last, and nobody before', async () => {
    expect(await now()).toEqual({ minutes: 5, visitors: 0, pages: [] });
    const viewedMinutesAgo = async (session: string, path: string, minutes: number) => {
      await insertAnalyticsEvents(database.db, [{ session_id: session, event_type: 'pageview', page_path: path }]);
      await execute(
        database.db,
        sql`update analytics_events set created_at = now() - make_interval(mins => ${minutes}) where id = (select max(id) from analytics_events)`,
      );
    };
    await viewedMinutesAgo('sessionNowAAAAAAAAAA', '/', 6); // gone
    await viewedMinutesAgo('sessionNowBBBBBBBBBB', '/', 3); // then moved on
    await viewedMinutesAgo('sessionNowCCCCCCCCCC', '/', 1);
    await insertAnalyticsEvents(database.db, [
      { session_id: 'sessionNowBBBBBBBBBB', event_type: 'pageview', page_path: '/privacy' },
      { session_id: 'sessionNowDDDDDDDDDD', event_type: 'pageview', page_path: '/privacy' },
      { session_id: 'sessionNowDDDDDDDDDD', event_type: 'heartbeat', page_path: '/privacy', time_spent: 30 },
    ]);
    expect(await now()).toEqual({
      minutes: 5,
      visitors: 3,
      pages: [
        { path: '/privacy', visitors: 2 },
        { path: '/', visitors: 1 },
      ],
    });
  });

  it('is announced on the notification stream when events arrive, at most every 2 s a process', async () => {
    const stopListening = await t.hub.connect(database, (await import('pino')).pino({ level: 'silent' }));
    const controller = new AbortController();
    const stream = sseReader(await t.app.request('/api/notifications/stream', { headers: { cookie }, signal: controller.signal }), {
      ignore: ['notification'],
    });
    try {
      expect((await stream.next()).event).toBe('ready');
      const send = (session: string) =>
        t.json(
          'POST',
          '/api/public/events',
          { session_id: session, event_type: 'pageview', page_path: '/' },
          { 'user-agent': 'Mozilla/5.0 (X11; Linux x86_64) Chrome/126.0' },
        );
      expect((await send('sessionLiveAAAAAAAAA')).status).toBe(204);
      expect(await stream.next()).toMatchObject({ event: 'change', data: JSON.stringify({ resource: 'analytics' }) });
      // Three more within the window: one more announcement, at its end.
      const started = Date.now();
      for (const s of ['sessionLiveBBBBBBBBB', 'sessionLiveCCCCCCCCC', 'sessionLiveDDDDDDDDD']) expect((await send(s)).status).toBe(204);
      expect(await stream.next(5_000)).toMatchObject({ event: 'change', data: JSON.stringify({ resource: 'analytics' }) });
      expect(Date.now() - started).toBeGreaterThan(1_000);
      await expect(stream.next(2_500)).rejects.toThrow('no SSE event in time');
    } finally {
      controller.abort();
      await stream.cancel();
      await stopListening();
    }
  });
});

describe('GET /api/analytics/summary', () => {
  it('computes the hand-checked figures for the last 24 hours', async () => {
    await eventsAt([
      view('sessionAAAAAAAAAAAA', '/', 1),
      spent('sessionAAAAAAAAAAAA', '/', 90, 1),
      view('sessionAAAAAAAAAAAA', '/privacy', 1),
      spent('sessionAAAAAAAAAAAA', '/privacy', 30, 1),
      view('sessionBBBBBBBBBBBB', '/', 3),
      spent('sessionBBBBBBBBBBBB', '/', 60, 3),
      // The previous 24 hours: one view.
      view('sessionCCCCCCCCCCCC', '/', 30),
      // Older than both periods.
      view('sessionDDDDDDDDDDDD', '/', 60),
    ]);
    const s = await summary('24h');
    expect(s).toMatchObject({
      period: '24h',
      time_zone: 'America/New_York',
      page_views: 3,
      previous_page_views: 1,
      change_percent: 200,
      unique_visitors: 2,
    });
    // (90 + 30 + 60) seconds / 2 sessions.
    expect(s.avg_time_seconds).toBe(90);
    expect(s.top_pages).toEqual([
      { path: '/', views: 2, avg_time_seconds: 75 },
      { path: '/privacy', views: 1, avg_time_seconds: 30 },
    ]);
    expect(s.hourly).toHaveLength(24);
    expect(s.hourly.reduce((n, b) => n + b.views, 0)).toBe(3);
    expect(s.hourly.reduce((n, b) => n + b.time_spent, 0)).toBe(180);
  });

  it('puts buckets at the hour of day in the business time zone', async () => {
    await eventsAt([view('sessionEEEEEEEEEEEE', '/', 2)]);
    const nyHour = Number(
      new Intl.DateTimeFormat('en-US', { timeZone: 'America/New_York', hour: 'numeric', hourCycle: 'h23' }).format(
        new Date(Date.now() - 2 * 3600_000),
      ),
    );
    const s = await summary('24h');
    expect(s.hourly.find((b) => b.views > 0)?.hour).toBe(nyHour);
  });

  it('reports 100% change when the previous period had no views, and zeros with no data', async () => {
    await eventsAt([view('sessionFFFFFFFFFFFF', '/', 5)]);
    expect((await summary('7d')).change_percent).toBe(100);
    await execute(
      database.db,
      sql`truncate analytics_events, analytics_hourly, analytics_sessions, analytics_hourly_sources, analytics_hourly_visits`,
    );
    const empty = await summary('30d');
    expect(empty).toMatchObject({ page_views: 0, unique_visitors: 0, avg_time_seconds: 0, top_pages: [], change_percent: null });
  });

  it('keeps the rollups exact for events written through the ingestion path', async () => {
    await insertAnalyticsEvents(database.db, [
      { session_id: 'sessionGGGGGGGGGGGG', event_type: 'pageview', page_path: '/' },
      { session_id: 'sessionGGGGGGGGGGGG', event_type: 'heartbeat', page_path: '/', time_spent: 30 },
      { session_id: 'sessionHHHHHHHHHHHH', event_type: 'pageview', page_path: '/careers' },
    ]);
    const s = await summary('24h');
    expect(s).toMatchObject({ page_views: 2, unique_visitors: 2, avg_time_seconds: 15 });
  });

  it('counts page views by device, and the visitor under the site that first referred them, from the ingestion endpoint', async () => {
    const iphone = 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 Mobile/15E148';
    const desktop = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 Chrome/126.0 Safari/537.36';
    const send = (ua: string, fields: Record<string, unknown>) =>
      t.json(
        'POST',
        'http://crm.example/api/public/events',
        { session_id: 'sessionIIIIIIIIIIII', event_type: 'pageview', page_path: '/', ...fields },
        { 'user-agent': ua, host: 'crm.example' },
      );
    await send(desktop, { referrer: 'https://www.google.com/search?q=due+diligence' });
    await send(desktop, { referrer: 'https://www.google.com/' });
    await send(iphone, { referrer: 'https://www.linkedin.com/feed/' });
    await send(iphone, {});
    await send(desktop, { referrer: 'https://crm.example/privacy', page_path: '/careers' }); // our own page: no source
    await send(desktop, { event_type: 'heartbeat', time_spent: 30 }); // not a page view
    const s = await summary('24h');
    expect(s.devices).toEqual({ desktop: 3, mobile: 2, tablet: 0 });
    // Referring sites are the sources table's: one visitor, under their first touch (no "Top Referrers" of page views beside it).
    expect(s).not.toHaveProperty('top_referrers');
    const sources = (await (await t.app.request('/api/analytics/sources?period=24h&group=referrer', { headers: { cookie } })).json()) as {
      rows: unknown[];
    };
    expect(sources.rows).toEqual([expect.objectContaining({ origin: 'referrer', value: 'google.com', visitors: 1 })]);
  });

  it("gives a lead its visitor's source, UTM, landing page and pages viewed, and counts the conversion", async () => {
    await execute(database.db, sql`truncate leads cascade`);
    const ua = { 'user-agent': 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 Chrome/126.0 Safari/537.36' };
    const session = 'sessionJJJJJJJJJJJJ';
    const ev = (fields: Record<string, unknown>) =>
      t.json('POST', '/api/public/events', { session_id: session, event_type: 'pageview', page_path: '/', ...fields }, ua);
    await ev({
      page_path: '/services',
      referrer: 'https://www.linkedin.com/feed/',
      utm_source: 'linkedin',
      utm_medium: 'social',
      utm_campaign: 'fall',
    });
    await ev({ page_path: '/' });
    await ev({ page_path: '/privacy', referrer: 'https://www.google.com/' }); // later touches do not replace the first
    await t.json('POST', '/api/public/events', { session_id: 'sessionKKKKKKKKKKKK', event_type: 'pageview', page_path: '/' }, ua);
    const res = await t.json('POST', '/api/public/leads', {
      full_name: 'Attributed Lead',
      email: 'attr@example.com',
      phone: '1',
      property_types: ['land'],
      submission_id: crypto.randomUUID(),
      fill_ms: 9000,
      analytics_session_id: session,
    });
    expect(res.status).toBe(201);
    const list = (await (await t.app.request('/api/leads', { headers: { cookie } })).json()) as { leads: Record<string, unknown>[] };
    expect(list.leads[0]).toMatchObject({
      full_name: 'Attributed Lead',
      source: 'linkedin.com',
      utm_source: 'linkedin',
      utm_medium: 'social',
      utm_campaign: 'fall',
      landing_page: '/services',
      pages_viewed: 3,
    });
    const s = await summary('24h');
    expect(s).toMatchObject({ unique_visitors: 2, form_conversions: 1, conversion_rate: 50 });

    // A form sent from a session whose page views were never recorded (its visitor's browser
    // was dropped as a bot) is not one of the visitors, so it is not a conversion of theirs.
    const unseen = await t.json('POST', '/api/public/leads', {
      full_name: 'Unseen Visitor',
      email: 'unseen@example.com',
      phone: '1',
      property_types: ['land'],
      submission_id: crypto.randomUUID(),
      fill_ms: 9000,
      analytics_session_id: 'sessionLLLLLLLLLLLL',
    });
    expect(unseen.status).toBe(201);
    expect(await summary('24h')).toMatchObject({ unique_visitors: 2, form_conversions: 1, conversion_rate: 50 });
  });

  it('rejects an unknown period', async () => {
    expect((await t.app.request('/api/analytics/summary?period=1y', { headers: { cookie } })).status).toBe(400);
  });
});

describe('GET /api/analytics/report and /api/analytics/sources', () => {
  const get = (path: string) => t.app.request(path, { headers: { cookie } });

  it('answers a range of days, and refuses a reversed range, one over 2 years, a bad date or group with a clear message', async () => {
    const ok = await get('/api/analytics/report?from=2026-11-01&to=2026-11-07');
    expect(ok.status).toBe(200);
    expect(await ok.json()).toMatchObject({
      from: '2026-11-01',
      to: '2026-11-07',
      previous_from: '2026-10-25',
      time_zone: 'America/New_York',
    });
    const refused = async (path: string) => {
      const res = await get(path);
      expect(res.status, path).toBe(400);
      return ((await res.json()) as { error: { fields?: Record<string, string> } }).error;
    };
    expect(JSON.stringify(await refused('/api/analytics/report?from=2026-11-08&to=2026-11-07'))).toContain(
      'The start date must be on or before the end date',
    );
    expect(JSON.stringify(await refused('/api/analytics/report?from=2024-01-01&to=2026-11-07'))).toContain(
      'Choose a range of at most 2 years',
    );
    expect(JSON.stringify(await refused('/api/analytics/report?from=2026-02-30&to=2026-03-07'))).toContain('Invalid date');
    expect(JSON.stringify(await refused('/api/analytics/sources?from=2026-11-01&to=2026-11-07&group=city'))).toContain(
      'Group must be referrer, utm or landing',
    );
    expect(JSON.stringify(await refused('/api/analytics/report'))).toContain('Choose the days: from and to, a period or a number of days');
    expect(JSON.stringify(await refused('/api/analytics/report?period=1y'))).toContain('Period must be 24h, 7d, 14d, 30d or 90d');
    expect(JSON.stringify(await refused('/api/analytics/report?days=0'))).toContain('Days must be at least 1');
    // The last N days end today in the business time zone.
    const today = zonedParts(Date.now(), 'America/New_York').date;
    expect(await (await get('/api/analytics/report?days=7')).json()).toMatchObject({ from: addDays(today, -6), to: today });
    expect(await (await get('/api/analytics/sources?days=1&group=landing')).json()).toMatchObject({
      from: today,
      to: today,
      group: 'landing',
      rows: [],
    });
    // Exactly two years (731 days) is allowed.
    expect((await get('/api/analytics/sources?from=2024-11-07&to=2026-11-07&group=utm')).status).toBe(200);
  });

  it('counts clients won without a call beside the funnel, never in it, and each step only of the step before', async () => {
    const ua = { 'user-agent': 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 Chrome/126.0 Safari/537.36' };
    const event = async (session_id: string, event_type: string) =>
      expect((await t.json('POST', '/api/public/events', { session_id, event_type, page_path: '/' }, ua)).status).toBe(204);
    const [seen, started, silent] = ['sessionFunnelSeenAAAA', 'sessionFunnelStartBBB', 'sessionFunnelSilentCC'];
    for (const s of [seen, started, silent]) await event(s, 'pageview');
    await event(seen, 'form_view');
    await event(seen, 'form_start');
    await event(started, 'form_start'); // its form_view was lost: starting the form is seeing it
    // `silent` sends the form with neither event recorded: it saw and started it all the same.
    for (const [session, email] of [
      [seen, 'seen@example.com'],
      [silent, 'silent@example.com'],
    ] as const) {
      const sent = await t.json('POST', '/api/public/leads', {
        full_name: 'Funnel Lead',
        email,
        phone: '1',
        property_types: ['land'],
        submission_id: crypto.randomUUID(),
        analytics_session_id: session,
      });
      expect(sent.status).toBe(201);
    }
    expect(
      (
        await t.json(
          'POST',
          '/api/leads',
          { full_name: 'Walk In', email: 'walkin@example.com', phone: '1', property_types: ['land'] },
          { cookie },
        )
      ).status,
    ).toBe(201);
    // All three won, none after a call.
    await execute(database.db, sql`update leads set status = 'Converted'`);
    const funnel = async () => ((await (await get('/api/analytics/report?period=24h')).json()) as AnalyticsReport).funnel;
    expect(await funnel()).toEqual({
      visitors: 3,
      saw_form: 3,
      started_form: 3,
      sent: 2,
      booked: 0,
      converted: 0,
      no_shows: 0,
      clients_without_call: 2,
      clients_without_visit: 1,
    });

    // A cancelled call is no conversation; a booked one is, whether still to come or completed.
    const call = (status: string) => sql`insert into appointments (lead_id, date, time, type, status, overlap_allowed)
      select id, '2026-11-20', '10:00', 'Call', ${status}, true from leads where analytics_session_id = ${seen}`;
    await execute(database.db, call('cancelled'));
    expect(await funnel()).toMatchObject({ sent: 2, booked: 0, converted: 0, clients_without_call: 2 });
    // A call they did not come to is no conversation either: counted as a no-show beside the funnel.
    await execute(database.db, call('no_show'));
    expect(await funnel()).toMatchObject({ sent: 2, booked: 0, no_shows: 1, clients_without_call: 2 });
    await execute(database.db, call('scheduled'));
    expect(await funnel()).toMatchObject({
      sent: 2,
      booked: 1,
      converted: 1,
      no_shows: 0,
      clients_without_call: 1,
      clients_without_visit: 1,
    });
    await execute(database.db, sql`update leads set status = 'Contacted' where analytics_session_id = ${seen}`);
    expect(await funnel()).toMatchObject({ booked: 1, converted: 0, clients_without_call: 1 });
  });
});
