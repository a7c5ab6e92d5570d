import { sql } from 'drizzle-orm';
import { beforeEach, describe, expect, it } from 'vitest';
import { seededRandom } from '../../lib/seeded-random.ts';
import { addDays, zonedParts } from '#shared/zoned-time';
import {
  conversionRate,
  DIRECT_SOURCE,
  utmValue,
  type AnalyticsSourceGroup,
  type AnalyticsSourceRow,
} from '#shared/schemas/analytics-report';
import { execute, pgArray } from '../sql.ts';
import { useTestDatabase } from '../../test/database.ts';
import { rebuildAnalyticsRollups } from './analytics-events-queries.ts';
import { getAnalyticsFunnel, getAnalyticsReport, getAnalyticsSources, type DayRange } from './analytics-report-queries.ts';
import { listLeads, NEWEST_FIRST } from './lead-list-queries.ts';

/**
 * The report's numbers against a brute-force count over the raw rows, for random visitors,
 * events, leads and appointments spread over 40 days of a time zone with a daylight-saving
 * change: the rollups (rebuilt from the raw events, which insertAnalyticsEvents' own test
 * proves equal to what the write path keeps) and the queries over them must say exactly what
 * the raw rows say.
 */
const database = useTestDatabase();
const TZ = 'America/New_York';
const HOUR = 3_600_000;
// Across the end of daylight saving time (2026-11-01) in New York.
const FIRST_DAY = '2026-10-10';
const DAYS = 40;
const startMs = Date.parse(`${FIRST_DAY}T04:00:00Z`);

beforeEach(async () => {
  await execute(
    database.db,
    sql`truncate analytics_events, analytics_hourly, analytics_sessions, analytics_hourly_sources, analytics_hourly_visits`,
  );
  await execute(database.db, sql`truncate leads, appointments cascade`);
});

const random = seededRandom;

type Event = {
  session_id: string;
  event_type: string;
  page_path: string;
  referrer_host: string | null;
  utm_source: string | null;
  utm_medium: string | null;
  utm_campaign: string | null;
  at: number;
};
type Lead = {
  id: string;
  session: string | null;
  submission: boolean;
  at: number;
  status: string;
  fee: number | null;
  booked: boolean;
  /** A call they did not come to (no-show), whether or not they booked another. */
  noShow: boolean;
};

function world(seed: number) {
  const next = random(seed);
  const pick = <T>(items: readonly T[]) => items[Math.floor(next() * items.length)]!;
  const events: Event[] = [];
  const sessions = Array.from({ length: 60 }, (_, i) => `session${seed}x${String(i).padStart(12, '0')}`);
  for (const session of sessions) {
    let at = startMs + Math.floor(next() * DAYS * 24) * HOUR + Math.floor(next() * HOUR);
    const count = 1 + Math.floor(next() * 6);
    for (let i = 0; i < count; i++) {
      // Form events sometimes before the first recorded page view (a lost request).
      const event_type = pick(['pageview', 'pageview', 'form_view', 'form_start', 'heartbeat'] as const);
      events.push({
        session_id: session,
        event_type,
        page_path: pick(['/', '/privacy', '/terms']),
        // 'Direct' as ingestion stores it, and null (a first recorded page with no source): one row.
        referrer_host: event_type === 'pageview' ? pick([null, 'Direct', 'google.com', 'bing.com']) : null,
        utm_source: event_type === 'pageview' ? pick([null, 'news', 'ads']) : null,
        utm_medium: event_type === 'pageview' ? pick([null, 'email']) : null,
        utm_campaign: event_type === 'pageview' ? pick([null, 'spring']) : null,
        at,
      });
      at += Math.floor(next() * 30) * HOUR;
    }
  }
  const leads: Lead[] = Array.from({ length: 45 }, (_, i) => ({
    id: `00000000-0000-4000-8000-${String(seed * 1000 + i).padStart(12, '0')}`,
    // A session we know, one we never saw, or none (staff, or a website visitor not tracked).
    session: pick([...sessions.slice(0, 30), 'sessionNeverSeenXXXXXX', null]),
    submission: next() < 0.5,
    at: startMs + Math.floor(next() * DAYS * 24 * HOUR),
    status: pick(['New', 'Contacted', 'Converted', 'Converted', 'Dropped']),
    fee: next() < 0.8 ? Math.floor(next() * 1_000_000) : null,
    booked: next() < 0.5,
    noShow: next() < 0.3,
  }));
  return { events, leads, cancelledToo: next() < 0.5 };
}

async function store({ events, leads }: ReturnType<typeof world>) {
  const col = <T>(rows: T[], pick: (r: T) => string | number | null) => pgArray(rows.map(pick));
  await execute(
    database.db,
    sql`
    insert into analytics_events (session_id, event_type, page_path, referrer_host, utm_source, utm_medium, utm_campaign, created_at, time_spent)
    select s, t, p, r, us, um, uc, to_timestamp(a / 1000.0), case when t = 'heartbeat' then 30 end
    from unnest(${col(events, (e) => e.session_id)}::text[], ${col(events, (e) => e.event_type)}::text[], ${col(events, (e) => e.page_path)}::text[],
      ${col(events, (e) => e.referrer_host)}::text[], ${col(events, (e) => e.utm_source)}::text[], ${col(events, (e) => e.utm_medium)}::text[],
      ${col(events, (e) => e.utm_campaign)}::text[], ${col(events, (e) => e.at)}::float8[]) as x(s, t, p, r, us, um, uc, a)`,
  );
  // Leads copy their session's first touch as the public form does.
  await rebuildAnalyticsRollups(database.db);
  for (const l of leads) {
    await execute(
      database.db,
      sql`
      insert into leads (id, full_name, email, phone, property_types, created_at, status, estimated_fee_cents, submission_id, analytics_session_id,
        source, utm_source, utm_medium, utm_campaign, landing_page, visit_hour)
      select ${l.id}::uuid, 'Lead', 'lead@example.com', '555', array['land'], to_timestamp(${l.at} / 1000.0), ${l.status}, ${l.fee}::bigint,
        case when ${l.submission} then gen_random_uuid() end, ${l.session}::text,
        s.source, s.utm_source, s.utm_medium, s.utm_campaign, s.landing_page, s.first_hour
      from (select 1) one left join analytics_sessions s on s.session_id = ${l.session}::text`,
    );
    if (l.booked)
      await execute(
        database.db,
        sql`insert into appointments (lead_id, date, time, type, status, overlap_allowed) values (${l.id}::uuid, '2026-11-20', '10:00', 'Call', ${Number(l.id.at(-1)) % 2 ? 'scheduled' : 'completed'}, true)`,
      );
    if (l.noShow)
      await execute(
        database.db,
        sql`insert into appointments (lead_id, date, time, type, status, overlap_allowed) values (${l.id}::uuid, '2026-11-19', '10:00', 'Call', 'no_show', true)`,
      );
    // A cancelled call is no conversation.
    await execute(
      database.db,
      sql`insert into appointments (lead_id, date, time, type, status, overlap_allowed) values (${l.id}::uuid, '2026-11-21', '10:00', 'Call', 'cancelled', true)`,
    );
  }
}

/** The brute force: what the raw rows say, computed here without the rollups. */
function expected({ events, leads }: ReturnType<typeof world>, range: DayRange, group: AnalyticsSourceGroup) {
  const dayOf = (ms: number) => zonedParts(ms, range.timeZone).date;
  const inRange = (ms: number) => dayOf(ms) >= range.from && dayOf(ms) <= range.to;
  const sessions = new Map<string, { first?: Event; saw: boolean; started: boolean }>();
  for (const e of events) {
    const s = sessions.get(e.session_id) ?? sessions.set(e.session_id, { saw: false, started: false }).get(e.session_id)!;
    // The first page view is the first inserted (events are stored in this order).
    if (e.event_type === 'pageview' && !s.first) s.first = e;
    if (e.event_type === 'form_view') s.saw = true;
    if (e.event_type === 'form_start') s.started = true;
  }
  // A visitor's day is the day of the hour of their first page view.
  const visitHour = (e: Event) => Math.floor(e.at / HOUR) * HOUR;
  const visitors = [...sessions.entries()].filter(([, s]) => s.first && inRange(visitHour(s.first)));
  const valueOf = (e: Event) =>
    group === 'utm'
      ? utmValue(e.utm_source ?? '', e.utm_medium ?? '', e.utm_campaign ?? '')
      : group === 'referrer'
        ? (e.referrer_host ?? DIRECT_SOURCE)
        : e.page_path;
  const visitLeads = leads.filter(
    (l) => l.session && sessions.get(l.session)?.first && inRange(visitHour(sessions.get(l.session)!.first!)),
  );
  const sessionsOf = (ls: Lead[]) => new Set(ls.map((l) => l.session));
  const sent = sessionsOf(visitLeads);
  const wonAfterCall = sessionsOf(visitLeads.filter((l) => l.status === 'Converted' && l.booked));
  // Each step only the visitors of the step before: sending the form is starting it, starting it is seeing it.
  const funnel = {
    visitors: visitors.length,
    saw_form: visitors.filter(([id, s]) => s.saw || s.started || sent.has(id)).length,
    started_form: visitors.filter(([id, s]) => s.started || sent.has(id)).length,
    sent: sent.size,
    booked: sessionsOf(visitLeads.filter((l) => l.booked)).size,
    converted: wonAfterCall.size,
    no_shows: [...sessionsOf(visitLeads.filter((l) => l.noShow))].filter((id) => !sessionsOf(visitLeads.filter((l) => l.booked)).has(id))
      .length,
    clients_without_call: [...sessionsOf(visitLeads.filter((l) => l.status === 'Converted'))].filter((id) => !wonAfterCall.has(id)).length,
    clients_without_visit: leads.filter((l) => !(l.session && sessions.get(l.session)?.first) && inRange(l.at) && l.status === 'Converted')
      .length,
  };
  const rows = new Map<string, AnalyticsSourceRow>();
  const row = (origin: AnalyticsSourceRow['origin'], value: string) =>
    rows.get(`${origin} ${value}`) ??
    rows
      .set(`${origin} ${value}`, { origin, value, visitors: 0, leads: 0, bookings: 0, converted: 0, conversion_rate: null, fees_cents: 0 })
      .get(`${origin} ${value}`)!;
  for (const [, s] of visitors) row(group, valueOf(s.first!)).visitors++;
  const countLead = (r: AnalyticsSourceRow, l: Lead) => {
    r.leads++;
    if (l.booked) r.bookings++;
    if (l.status === 'Converted') {
      r.converted++;
      r.fees_cents += l.fee ?? 0;
    }
  };
  for (const l of visitLeads) countLead(row(group, valueOf(sessions.get(l.session!)!.first!)), l);
  for (const l of leads) {
    const recorded = l.session && sessions.get(l.session)?.first;
    if (!recorded && inRange(l.at)) countLead(row(l.submission ? 'unrecorded' : 'offline', ''), l);
  }
  const sources = [...rows.values()].map((r) => ({ ...r, conversion_rate: conversionRate(r.converted, r.visitors) }));
  const byKey = (a: AnalyticsSourceRow, b: AnalyticsSourceRow) => (`${a.origin} ${a.value}` < `${b.origin} ${b.value}` ? -1 : 1);
  const days = new Map<string, { visitors: number; page_views: number; leads: number }>();
  const day = (d: string) => days.get(d) ?? days.set(d, { visitors: 0, page_views: 0, leads: 0 }).get(d)!;
  for (const [, s] of sessions) if (s.first && inRange(visitHour(s.first))) day(dayOf(visitHour(s.first))).visitors++;
  for (const e of events) if (e.event_type === 'pageview' && inRange(e.at)) day(dayOf(e.at)).page_views++;
  // A lead's day: that of the visit that brought it, else the day it was added.
  for (const l of visitLeads) day(dayOf(visitHour(sessions.get(l.session!)!.first!))).leads++;
  for (const l of leads) if (!(l.session && sessions.get(l.session)?.first) && inRange(l.at)) day(dayOf(l.at)).leads++;
  return { funnel, sources: sources.sort(byKey), byKey, days };
}

describe('the funnel, the sources and the daily trend equal a brute-force count of the raw rows', () => {
  for (const seed of [1, 2, 3, 4, 5, 6]) {
    it(`seed ${seed}`, async () => {
      const w = world(seed);
      await store(w);
      const next = random(seed * 7919);
      for (let i = 0; i < 4; i++) {
        const from = addDays(FIRST_DAY, Math.floor(next() * DAYS) - 3);
        const range: DayRange = { from, to: addDays(from, Math.floor(next() * 25)), timeZone: TZ };
        for (const group of ['referrer', 'utm', 'landing'] as const) {
          const want = expected(w, range, group);
          expect(await getAnalyticsFunnel(database.db, range), `${range.from}..${range.to}`).toEqual(want.funnel);
          const rows = await getAnalyticsSources(database.db, range, group);
          expect(rows.sort(want.byKey), `${range.from}..${range.to} ${group}`).toEqual(want.sources);
          // Each row opens exactly the leads it counts (the leads list's origin filter).
          for (const row of rows) {
            const filters = { origin: row.origin, origin_value: row.value, visit_from: range.from, visit_to: range.to, timeZone: TZ };
            const { total } = await listLeads(database.db, filters, { order: NEWEST_FIRST, page: 1, page_size: 1 });
            expect(total, `${row.origin} ${row.value}`).toBe(row.leads);
          }
        }
        const report = await getAnalyticsReport(database.db, range);
        const want = expected(w, range, 'referrer');
        for (const d of report.days)
          expect(d, d.day).toEqual({ day: d.day, ...(want.days.get(d.day) ?? { visitors: 0, page_views: 0, leads: 0 }) });
        expect(report.totals.visitors).toBe(want.funnel.visitors);
      }
    });
  }

  it('compares with the days just before, of the same length', async () => {
    const report = await getAnalyticsReport(database.db, { from: '2026-11-01', to: '2026-11-07', timeZone: TZ });
    expect(report).toMatchObject({ previous_from: '2026-10-25', previous_to: '2026-10-31' });
    expect(report.days.map((d) => d.day)).toEqual([
      '2026-11-01',
      '2026-11-02',
      '2026-11-03',
      '2026-11-04',
      '2026-11-05',
      '2026-11-06',
      '2026-11-07',
    ]);
  });
});
