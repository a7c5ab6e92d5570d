import { sql } from 'drizzle-orm';
import { queueWeeklyReportTo } from '../db/queries/weekly-report-queries.ts';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { AnalyticsSummary } from '#shared/schemas/analytics';
import { EXPORT_VISIT_EVENTS_LIMIT, leadExportSchema, type EraseResponse, type LeadExport } from '#shared/schemas/lead-privacy';
import type { Overview } from '#shared/schemas/overview';
import { ensureAdmin } from '../auth/accounts.ts';
import { execute } from '../db/sql.ts';
import { createTestApp, signIn } from '../test/test-app.ts';
import { OPEN_EVERY_DAY, WORKS_EVERY_DAY } from '../test/open-every-day.ts';
import { rowsOf, useTestDatabase } from '../test/database.ts';
import { makePerson, type Person, type PersonRecord } from '../test/person.ts';

const TZ = 'America/New_York';
const database = useTestDatabase();
let t: ReturnType<typeof createTestApp>;
let cookie: string;
let adminId: string;

const QUINCY: Person = { full_name: 'Quincy Erasmus-Vale', email: 'quincy.vale@erase.test', phone: '(301) 555-0177' };
/** A legacy duplicate of Quincy (typed in by staff before the form joined known emails): the same person. */
const QUINCY_AGAIN = { full_name: 'Quincy Vale', email: QUINCY.email, phone: '(301) 555-0178', property_types: ['land'] };
const CONTROL: Person = { full_name: 'Olive Keepington', email: 'olive.keep@stay.test', phone: '(240) 555-0133' };

beforeAll(() => {
  t = createTestApp(database, { BUSINESS_TIME_ZONE: TZ });
});
beforeEach(async () => {
  await execute(
    database.db,
    sql`truncate users, sessions, leads, appointments, booking_settings, booking_tokens, notifications, emails, rate_limits,
      analytics_events, analytics_hourly, analytics_sessions, analytics_hourly_sources cascade`,
  );
  adminId = (await ensureAdmin(database.db, 'privacy@example.com', 'privacy-password')).user.id;
  cookie = await signIn(t.json, 'privacy@example.com', 'privacy-password');
  await api('PUT', '/api/booking-settings', OPEN_EVERY_DAY);
  await api('PUT', '/api/account/availability', WORKS_EVERY_DAY);
});

async function api<T>(method: string, path: string, body?: unknown, headers: Record<string, string> = { cookie }) {
  const res = await t.json(method, path, body, headers);
  return { status: res.status, headers: res.headers, body: (await res.json()) as T };
}
const make = (person: Person, tag: string, slot: number) =>
  makePerson(t, database.db, cookie, person, { adminId, timeZone: TZ, tag, slot });
const columnsOf = async (table: string) =>
  (
    await rowsOf<{ c: string }>(
      database.db,
      sql`select column_name as c from information_schema.columns where table_schema = 'public' and table_name = ${table}`,
    )
  )
    .map((r) => r.c)
    .sort();

describe('GET /api/leads/{id}/export', () => {
  let quincy: PersonRecord;
  beforeEach(async () => {
    quincy = await make(QUINCY, 'quincyAA', 2);
    await make(CONTROL, 'oliveBBB', 4);
  });

  it('downloads everything held about the person as JSON, named after them and the day', async () => {
    const res = await api<LeadExport>('GET', `/api/leads/${quincy.id}/export`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    const day = new Date().toISOString().slice(0, 10);
    expect(res.headers.get('content-disposition')).toBe(`attachment; filename="lead-quincy-erasmus-vale-${day}.json"`);
    const data = leadExportSchema.parse(res.body);

    // The row, every column of the table.
    expect(Object.keys(data.lead).sort()).toEqual(await columnsOf('leads'));
    expect(data.lead).toMatchObject({
      id: quincy.id,
      ...QUINCY,
      status: 'Contacted',
      contacted: true,
      message: 'First message from Quincy Erasmus-Vale',
      analytics_session_id: quincy.sessionIds[0],
      source: 'google.com',
      owner_id: adminId,
      property_address: '12 Erasable Lane, Frederick, MD',
      estimated_fee_cents: 125_000,
      follow_up_note: 'Call Quincy Erasmus-Vale back',
    });
    expect(data.owner_email).toBe('privacy@example.com');
    expect(data.status_history.map((c) => [c.from_status, c.to_status, c.changed_by])).toEqual([
      [null, 'New', null],
      ['New', 'Contacted', 'privacy@example.com'],
    ]);
    expect(data.notes).toEqual([
      expect.objectContaining({ body: 'Spoke with Quincy Erasmus-Vale at (301) 555-0177', author: 'privacy@example.com' }),
    ]);
    const kinds = data.events.map((e) => e.kind);
    expect(kinds).toEqual(expect.arrayContaining(['inquiry', 'appointment', 'owner', 'follow_up']));
    expect(data.events.find((e) => e.kind === 'inquiry')?.data).toMatchObject({
      message: 'Second message, call (301) 555-0177',
      analytics_session_id: quincy.sessionIds[1],
    });

    // Both appointments, every column, notes and place included.
    expect(data.appointments).toHaveLength(2);
    expect(Object.keys(data.appointments[0]!).sort()).toEqual(await columnsOf('appointments'));
    expect(data.appointments.map((a) => a.source).sort()).toEqual(['booking', 'staff']);
    expect(data.appointments.find((a) => a.source === 'staff')).toMatchObject({
      type: 'On-site',
      time: '11:00',
      notes: 'Gate code 4412, ask for Quincy Erasmus-Vale',
      location: 'Near quincy.vale@erase.test',
    });

    // Emails to them and about them, each with its snapshot.
    expect(new Set(data.emails.map((e) => e.kind))).toEqual(new Set(['lead-acknowledgement', 'new-lead', 'appointment']));
    expect(data.emails.filter((e) => e.to_address === QUINCY.email).length).toBeGreaterThanOrEqual(4);
    expect(data.emails.every((e) => JSON.stringify(e.data).includes(QUINCY.full_name))).toBe(true);

    // Their visits: both sessions, every event, none of the other person's.
    expect(data.visits.session_ids).toEqual([...quincy.sessionIds].sort());
    expect(data.visits.events).toHaveLength(quincy.pageEvents);
    expect(new Set(data.visits.events.map((e) => e.session_id))).toEqual(new Set(quincy.sessionIds));
    expect(data.visits.events[0]).toMatchObject({
      event_type: 'pageview',
      page_path: '/',
      referrer: 'https://www.google.com/',
      utm_source: 'newsletter',
      device: 'desktop',
    });
    expect(data.visits.truncated).toBe(false);
    expect(JSON.stringify(data)).not.toContain(CONTROL.email);
  });

  it(`carries the newest ${EXPORT_VISIT_EVENTS_LIMIT} events of a long visit and says it was cut`, async () => {
    await execute(
      database.db,
      sql`
      insert into analytics_events (session_id, page_path, event_type, time_spent, created_at)
      select ${quincy.sessionIds[0]}, '/old/' || g, 'heartbeat', 30, now() - interval '20 days' + g * interval '1 second'
      from generate_series(1, ${EXPORT_VISIT_EVENTS_LIMIT}) g`,
    );
    const { body } = await api<LeadExport>('GET', `/api/leads/${quincy.id}/export`);
    expect(body.visits.truncated).toBe(true);
    expect(body.visits.events).toHaveLength(EXPORT_VISIT_EVENTS_LIMIT);
    // Oldest first, ending with the newest: the visit's own page views are in, the very first heartbeats are not.
    expect(body.visits.events.at(-1)?.page_path).toBe('/careers');
    expect(body.visits.events.some((e) => e.page_path === '/old/1')).toBe(false);
    expect(body.visits.events[0]!.created_at <= body.visits.events.at(-1)!.created_at).toBe(true);
  });

  it('answers 404 for an unknown lead, 400 for a bad id and 401 without a session', async () => {
    expect((await api('GET', '/api/leads/00000000-0000-4000-8000-000000000000/export')).status).toBe(404);
    expect((await api('GET', '/api/leads/not-an-id/export')).status).toBe(400);
    expect((await api('GET', `/api/leads/${quincy.id}/export`, undefined, {})).status).toBe(401);
  });
});

/** Every text, array and JSON column of every table (ours and the migrations'), as [table, column]. */
async function textColumns() {
  return rowsOf<{ table_schema: string; table_name: string; column_name: string }>(
    database.db,
    sql`select c.table_schema, c.table_name, c.column_name from information_schema.columns c
      join information_schema.tables t on t.table_schema = c.table_schema and t.table_name = c.table_name and t.table_type = 'BASE TABLE'
      where c.table_schema not in ('pg_catalog', 'information_schema')
        and c.data_type in ('text', 'character varying', 'character', 'json', 'jsonb', 'ARRAY')
      order by 1, 2, 3`,
  );
}

/** Where any of `needles` still appears: "table.column: needle" for each hit. */
async function findTraces(needles: string[]): Promise<string[]> {
  const hits: string[] = [];
  for (const col of await textColumns()) {
    for (const needle of needles) {
      const [row] = await rowsOf<{ n: number }>(
        database.db,
        sql`select count(*)::int as n from ${sql.identifier(col.table_schema)}.${sql.identifier(col.table_name)} x
          where strpos(lower(x.${sql.identifier(col.column_name)}::text), lower(${needle})) > 0`,
      );
      if (row!.n > 0) hits.push(`${col.table_name}.${col.column_name}: ${needle}`);
    }
  }
  return hits;
}

const needlesOf = (p: Person) => [p.email, p.full_name, p.phone];
const QUINCY_NEEDLES = [...needlesOf(QUINCY), QUINCY_AGAIN.full_name, QUINCY_AGAIN.phone];

describe('POST /api/leads/{id}/erase', () => {
  let quincy: PersonRecord;
  beforeEach(async () => {
    quincy = await make(QUINCY, 'quincyAA', 2);
    await make(CONTROL, 'oliveBBB', 4);
    expect((await api('POST', '/api/leads', QUINCY_AGAIN)).status).toBe(201);
  });

  it('leaves no trace of the person in any column of any table, and the counts as they were', async () => {
    // Both people's follow-ups are due, and an admin's weekly report lists them by name.
    // (Their follow-up dates are put back after, so the Overview compares as before.)
    const dates = await rowsOf<{ id: string; follow_up_on: string | null }>(database.db, sql`select id, follow_up_on::text from leads`);
    await execute(database.db, sql`update leads set follow_up_on = current_date - 1`);
    await queueWeeklyReportTo(
      database.db,
      { email: 'owner@keystone.test' },
      { now: new Date(), timeZone: 'America/New_York', mail: { domain: 'keystone.test', sending: true } },
    );
    for (const { id, follow_up_on } of dates)
      await execute(database.db, sql`update leads set follow_up_on = ${follow_up_on}::date where id = ${id}`);
    // The walk finds what is there: both people, in many places.
    const before = await findTraces([...QUINCY_NEEDLES, ...needlesOf(CONTROL)]);
    expect(before.filter((h) => h.endsWith(QUINCY.email)).length).toBeGreaterThanOrEqual(5);
    const overview = (await api<Overview>('GET', '/api/overview')).body;
    const analytics = (await api<AnalyticsSummary>('GET', '/api/analytics/summary?period=7d')).body;
    const [{ n: appointmentsBefore }] = (await rowsOf<{ n: number }>(database.db, sql`select count(*)::int as n from appointments`)) as [
      { n: number },
    ];

    const res = await api<EraseResponse>('POST', `/api/leads/${quincy.id}/erase`);
    expect(res.status).toBe(200);
    // Notifications: the new-lead and "wrote again" notices and the duplicate's (by lead), the booking and the two older ones (by their words).
    expect(res.body).toEqual({
      erased: true,
      leads_removed: 2,
      appointments_kept: 2,
      notifications_removed: 6,
      events_removed: quincy.pageEvents,
      calendars_unreachable: [],
    });

    expect(await findTraces(QUINCY_NEEDLES)).toEqual([]);
    // The other person is untouched, wherever they were.
    expect(await findTraces(needlesOf(CONTROL))).toEqual(before.filter((h) => needlesOf(CONTROL).some((n) => h.endsWith(`: ${n}`))));
    // No raw event of their sessions; the rollups still count them.
    expect(
      await rowsOf(database.db, sql`select 1 from analytics_events where session_id in (${quincy.sessionIds[0]}, ${quincy.sessionIds[1]})`),
    ).toEqual([]);

    const overviewAfter = (await api<Overview>('GET', '/api/overview')).body;
    // Speed to lead is measured on leads: it may move. Everything else stays, but the lead count
    // and the forecast, which loses the erased deals' share.
    const counts = (o: Overview) => ({ ...o, recent_leads: [], upcoming: [], median_seconds_to_contacted: null, expected_fees_cents: 0 });
    expect(overviewAfter.expected_fees_cents).toBeLessThan(overview.expected_fees_cents);
    expect(counts(overviewAfter)).toEqual({
      ...counts(overview),
      total_leads: overview.total_leads - 2,
      new_leads: overview.new_leads - 1,
    });
    const byId = (a: [string, unknown], b: [string, unknown]) => a[0].localeCompare(b[0]);
    expect(overviewAfter.upcoming.map((a): [string, unknown] => [a.id, a.lead]).sort(byId)).toEqual(
      overview.upcoming.map((a): [string, unknown] => [a.id, a.lead?.email === QUINCY.email ? null : a.lead]).sort(byId),
    );
    const analyticsAfter = (await api<AnalyticsSummary>('GET', '/api/analytics/summary?period=7d')).body;
    // Only the form conversions change: a conversion is a lead, and the lead is gone.
    expect({ ...analyticsAfter, form_conversions: 0, conversion_rate: 0 }).toEqual({
      ...analytics,
      form_conversions: 0,
      conversion_rate: 0,
    });
    expect(analyticsAfter.form_conversions).toBe(analytics.form_conversions - 1);
    expect(analyticsAfter.page_views).toBeGreaterThan(0);

    // Their appointments stay, without them, their notes or place.
    const kept = await rowsOf<{ lead_id: string | null; notes: string | null; location: string | null; status: string }>(
      database.db,
      sql`select lead_id, notes, location, status from appointments where lead_id is null order by date`,
    );
    expect(kept).toEqual([
      { lead_id: null, notes: null, location: null, status: 'scheduled' },
      { lead_id: null, notes: null, location: null, status: 'scheduled' },
    ]);
    expect((await rowsOf<{ n: number }>(database.db, sql`select count(*)::int as n from appointments`))[0]!.n).toBe(appointmentsBefore);
    // The booking link is gone with the lead.
    expect((await t.json('GET', `/api/public/bookings/${quincy.bookingToken}`)).status).toBe(404);
  });

  it('answers 404 for an unknown or already erased lead, and 401 without a session', async () => {
    expect((await api('POST', `/api/leads/${quincy.id}/erase`, undefined, {})).status).toBe(401);
    expect((await api('POST', `/api/leads/${quincy.id}/erase`)).status).toBe(200);
    expect((await api('POST', `/api/leads/${quincy.id}/erase`)).status).toBe(404);
    expect((await api('POST', '/api/leads/00000000-0000-4000-8000-000000000000/erase')).status).toBe(404);
  });
});
