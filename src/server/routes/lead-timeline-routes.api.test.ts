import { sql } from 'drizzle-orm';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Appointment } from '#shared/schemas/appointment';
import type { Availability } from '#shared/schemas/booking';
import type { ErrorResponse } from '#shared/schemas/error';
import type { Lead } from '#shared/schemas/lead';
import { timelineResponseSchema, type Note, type TimelineEntry, type TimelineResponse } from '#shared/schemas/lead-workspace';
import { addDays, zonedParts } from '#shared/zoned-time';
import { ensureAdmin } from '../auth/accounts.ts';
import { execute } from '../db/sql.ts';
import { createTestApp, signIn, validLead } from '../test/test-app.ts';
import { OPEN_EVERY_DAY, WORKS_EVERY_DAY } from '../test/open-every-day.ts';
import { rowsOf, useTestDatabase } from '../test/database.ts';

const TZ = 'America/New_York';
const database = useTestDatabase();
let t: ReturnType<typeof createTestApp>;
let cookie: string;
let staffId: string;
let otherId: string;

beforeAll(() => {
  t = createTestApp(database, { BUSINESS_TIME_ZONE: TZ, SITE_NAME: 'Keystone Due Diligence' });
});
beforeEach(async () => {
  await execute(
    database.db,
    sql`truncate users, sessions, leads, appointments, booking_settings, booking_tokens, notifications, emails, rate_limits, analytics_sessions cascade`,
  );
  staffId = (await ensureAdmin(database.db, 'staff@example.com', 'staff-password', 'owner', 'Stella Staff')).user.id;
  otherId = (await ensureAdmin(database.db, 'other@example.com', 'other-password', 'staff', 'Otto Other')).user.id;
  cookie = await signIn(t.json, 'staff@example.com', 'staff-password');
});

async function call<T>(method: string, path: string, body?: unknown, headers: Record<string, string> = {}) {
  const res = await t.json(method, path, body, headers);
  const text = await res.text();
  return { status: res.status, body: (text ? JSON.parse(text) : undefined) as T };
}
const api = <T>(method: string, path: string, body?: unknown) => call<T>(method, path, body, { cookie });

async function timeline(leadId: string, query = ''): Promise<TimelineResponse> {
  const res = await api<TimelineResponse>('GET', `/api/leads/${leadId}/timeline${query}`);
  expect(res.status).toBe(200);
  // The answer is exactly the contract's shape.
  return timelineResponseSchema.parse(res.body);
}

const ua = { 'user-agent': 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Safari/537.36' };
/** A visit the analytics tracker recorded: `pages` page views in `session`, the first from LinkedIn. */
async function visit(session: string, pages: number, campaign: string) {
  for (let i = 0; i < pages; i++) {
    const first =
      i === 0 ? { referrer: 'https://www.linkedin.com/feed/', utm_source: 'linkedin', utm_medium: 'social', utm_campaign: campaign } : {};
    const res = await t.json(
      'POST',
      '/api/public/events',
      { session_id: session, event_type: 'pageview', page_path: i === 0 ? '/services' : '/', ...first },
      ua,
    );
    expect(res.status).toBe(204);
  }
}
async function submit(fields: Record<string, unknown>) {
  const res = await call<{ booking_token: string }>('POST', '/api/public/leads', validLead(fields));
  expect(res.status).toBe(201);
  return res.body.booking_token;
}
const leadByEmail = async (email: string) =>
  (await rowsOf<{ id: string }>(database.db, sql`select id from leads where email = ${email}`))[0]!.id;

/** The entry without its id and time, for comparing whole timelines. */
const gist = ({ id: _id, at: _at, ...rest }: TimelineEntry) => rest;

describe('GET /api/leads/{id}/timeline', () => {
  it('lists every kind of entry newest first, each with its actor', async () => {
    await visit('sessionAAAAAAAAAAAA', 3, 'fall');
    await submit({
      full_name: 'Jane Doe',
      email: 'jane@example.com',
      message: 'A duplex in Frederick.',
      analytics_session_id: 'sessionAAAAAAAAAAAA',
    });
    const id = await leadByEmail('jane@example.com');
    // The same person again, from another visit: an inquiry on the same lead.
    await visit('sessionBBBBBBBBBBBB', 2, 'winter');
    await submit({
      full_name: 'Jane Q. Doe',
      email: 'jane@example.com',
      phone: '(301) 555-0123',
      message: 'Also a fourplex.',
      analytics_session_id: 'sessionBBBBBBBBBBBB',
    });

    expect((await api('PATCH', `/api/leads/${id}`, { status: 'Contacted' })).status).toBe(200);
    expect((await api('PATCH', `/api/leads/${id}`, { owner_id: otherId })).status).toBe(200);
    expect((await api('PATCH', `/api/leads/${id}`, { follow_up_on: '2030-11-20', follow_up_note: 'Send the zoning report' })).status).toBe(
      200,
    );
    const note = await api<Note>('POST', `/api/leads/${id}/notes`, { body: 'Called her.\nShe wants the report by Friday.' });
    expect(note.status).toBe(201);
    const appt = await api<Appointment>('POST', '/api/appointments', { lead_id: id, date: '2030-12-02', time: '14:30', type: 'Zoom' });
    expect(appt.status).toBe(201);
    // Merges and imports come from other screens: their events as those write them.
    await execute(
      database.db,
      sql`insert into lead_events (lead_id, kind, actor_id, data) values
      (${id}, 'merged', ${staffId}, '{"full_name":"J. Doe","email":"jd@example.com"}'),
      (${id}, 'imported', ${otherId}, '{"file":"leads-2030.csv"}')`,
    );

    const { entries, has_more } = await timeline(id);
    expect(has_more).toBe(false);
    // Admins by name, as the timeline shows them.
    const staff = 'Stella Staff';
    const visitOf = (campaign: string, pages: number) => ({
      source: 'linkedin.com',
      utm_source: 'linkedin',
      utm_medium: 'social',
      utm_campaign: campaign,
      landing_page: '/services',
      pages_viewed: pages,
    });
    const leadMail = (subject: RegExp | string) => ({
      kind: 'email_out',
      actor: null,
      email_id: expect.any(String),
      email_kind: expect.any(String),
      to: 'jane@example.com',
      status: 'not_sent',
      error: expect.stringContaining('Email is off'),
      subject,
      // Each its own conversation: nobody answered.
      thread_id: expect.any(String),
      thread_size: 1,
      thread_unread: 0,
      body: null,
    });
    expect(entries.map(gist)).toEqual([
      // One statement wrote these two: in the order of their kinds (a merge after an import).
      { kind: 'merged', actor: staff, full_name: 'J. Doe', email: 'jd@example.com' },
      { kind: 'imported', actor: 'Otto Other', file: 'leads-2030.csv' },
      leadMail(expect.stringMatching(/^Confirmed: your Zoom call with Keystone Due Diligence, Mon, Dec 2, 2:30 PM$/)),
      {
        kind: 'appointment',
        actor: staff,
        action: 'scheduled',
        appointment_id: appt.body.id,
        type: 'Zoom',
        date: '2030-12-02',
        time: '14:30',
        from_date: null,
        from_time: null,
        by: 'staff',
        booked_as: null,
      },
      {
        kind: 'note',
        actor: staff,
        note: expect.objectContaining({
          id: note.body.id,
          body: 'Called her.\nShe wants the report by Friday.',
          author_email: 'staff@example.com',
          author_name: staff,
          author_id: staffId,
        }),
      },
      { kind: 'follow_up', actor: staff, on: '2030-11-20', note: 'Send the zoning report' },
      { kind: 'owner', actor: staff, from: null, to: 'Otto Other' },
      { kind: 'status', actor: staff, from_status: 'New', to_status: 'Contacted' },
      leadMail('We received your request: Keystone Due Diligence'),
      {
        kind: 'inquiry',
        actor: null,
        message: 'Also a fourplex.',
        full_name: 'Jane Q. Doe',
        phone: '(301) 555-0123',
        visit: visitOf('winter', 2),
      },
      leadMail('We received your request: Keystone Due Diligence'),
      { kind: 'created', actor: null, via: 'form', message: 'A duplex in Frederick.', visit: visitOf('fall', 3) },
    ]);
    // Newest first, each id once.
    const times = entries.map((e) => Date.parse(e.at));
    expect(times).toEqual([...times].sort((a, b) => b - a));
    expect(new Set(entries.map((e) => e.id)).size).toBe(entries.length);
    expect(entries.find((e) => e.kind === 'email_out')?.email_kind).toBe('appointment');
  });

  it('shows a staff appointment made, moved and cancelled as three entries by the admin', async () => {
    const lead = (
      await api<Lead>('POST', '/api/leads', { full_name: 'Pat Buyer', email: 'pat@example.com', phone: '555', property_types: ['land'] })
    ).body;
    const appt = (
      await api<Appointment>('POST', '/api/appointments', { lead_id: lead.id, date: '2030-12-02', time: '09:00', type: 'Call' })
    ).body;
    expect((await api('PATCH', `/api/appointments/${appt.id}`, { date: '2030-12-03', time: '10:30' })).status).toBe(200);
    expect((await api('PATCH', `/api/appointments/${appt.id}`, { notes: 'Gate code 4321' })).status).toBe(200); // not news
    expect((await api('PATCH', `/api/appointments/${appt.id}`, { status: 'cancelled' })).status).toBe(200);
    const { entries } = await timeline(lead.id);
    const appointments = entries.filter((e) => e.kind === 'appointment').map(gist);
    const common = { kind: 'appointment', actor: 'Stella Staff', appointment_id: appt.id, type: 'Call', by: 'staff', booked_as: null };
    expect(appointments).toEqual([
      { ...common, action: 'cancelled', date: '2030-12-03', time: '10:30', from_date: null, from_time: null },
      { ...common, action: 'moved', date: '2030-12-03', time: '10:30', from_date: '2030-12-02', from_time: '09:00' },
      { ...common, action: 'scheduled', date: '2030-12-02', time: '09:00', from_date: null, from_time: null },
    ]);
    // Typed in by staff: created by them, no message, no visit; nothing mailed to the lead about being a lead.
    expect(entries.at(-1)).toMatchObject({ kind: 'created', via: 'staff', actor: 'Stella Staff', message: null, visit: null });
    const subjects = entries.flatMap((e) => (e.kind === 'email_out' ? [e.subject] : []));
    expect(subjects).toEqual([
      expect.stringMatching(/^Cancelled: your call with Keystone Due Diligence, Tue, Dec 3, 10:30 AM$/),
      expect.stringMatching(/^Updated: your call with Keystone Due Diligence, Tue, Dec 3, 10:30 AM$/),
      expect.stringMatching(/^Confirmed: your call with Keystone Due Diligence, Mon, Dec 2, 9:00 AM$/),
    ]);
  });

  it('shows a call booked, moved and cancelled through the private link as by the lead, with no admin', async () => {
    expect((await api('PUT', '/api/booking-settings', OPEN_EVERY_DAY)).status).toBe(200);
    expect((await api('PUT', '/api/account/availability', WORKS_EVERY_DAY)).status).toBe(200);
    const token = await submit({ email: 'booker@example.com' });
    const id = await leadByEmail('booker@example.com');
    const day = addDays(zonedParts(Date.now(), TZ).date, 2);
    const slots = (await call<Availability>('GET', `/api/public/availability?from=${day}&to=${day}`)).body.slots;
    expect((await call('POST', '/api/public/bookings', { booking_token: token, start: slots[2], type: 'Zoom' })).status).toBe(201);
    // Staff add a note to it (not news for the timeline), then the lead moves it: the move is the lead's.
    const [booked] = await rowsOf<{ id: string }>(database.db, sql`select id from appointments`);
    expect((await api('PATCH', `/api/appointments/${booked!.id}`, { notes: 'Has a survey' })).status).toBe(200);
    expect((await call('PATCH', `/api/public/bookings/${token}`, { start: slots[6], type: 'Zoom' })).status).toBe(200);
    expect((await call('DELETE', `/api/public/bookings/${token}`)).status).toBe(200);
    const appointments = (await timeline(id)).entries.filter((e) => e.kind === 'appointment');
    expect(appointments.map((e) => [e.action, e.by, e.actor])).toEqual([
      ['cancelled', 'lead', null],
      ['moved', 'lead', null],
      ['scheduled', 'lead', null],
    ]);
    expect(await rowsOf(database.db, sql`select changed_by from appointments`)).toEqual([{ changed_by: null }]);
  });

  it('shows a repeated public submission as an inquiry with its visit, and one without a visit with none', async () => {
    await submit({ email: 'again@example.com', message: 'First' });
    await visit('sessionCCCCCCCCCCCC', 4, 'spring');
    await submit({ email: 'again@example.com', message: 'Second', analytics_session_id: 'sessionCCCCCCCCCCCC' });
    await submit({ email: 'again@example.com', message: '' });
    const { entries } = await timeline(await leadByEmail('again@example.com'));
    const inquiries = entries.filter((e) => e.kind === 'inquiry');
    expect(inquiries.map((e) => [e.message, e.visit])).toEqual([
      [null, null],
      [
        'Second',
        {
          source: 'linkedin.com',
          utm_source: 'linkedin',
          utm_medium: 'social',
          utm_campaign: 'spring',
          landing_page: '/services',
          pages_viewed: 4,
        },
      ],
    ]);
    expect(entries.at(-1)).toMatchObject({ kind: 'created', via: 'form', actor: null, message: 'First', visit: null });
  });

  it('shows an imported lead as created by import; leaves out the first New and mail to the admins', async () => {
    const lead = (
      await api<Lead>('POST', '/api/leads', { full_name: 'Imp Orted', email: 'imp@example.com', phone: '555', property_types: ['land'] })
    ).body;
    await execute(
      database.db,
      sql`insert into lead_events (lead_id, kind, actor_id, data) values (${lead.id}, 'imported', ${staffId}, '{"file":null}')`,
    );
    // An admin's own copy of an appointment email is about the lead, not to them.
    await execute(
      database.db,
      sql`insert into emails (message_id, status, kind, to_address, data, lead_id)
      values ('<x@example.com>', 'sent', 'appointment', 'staff@example.com', '{}', ${lead.id}), ('<y@example.com>', 'sent', 'new-lead', 'staff@example.com', '{}', ${lead.id})`,
    );
    const { entries } = await timeline(lead.id);
    expect(entries.map((e) => e.kind)).toEqual(['imported', 'created']);
    expect(entries[0]).toMatchObject({ file: null });
    expect(entries[1]).toMatchObject({ via: 'import', actor: 'Stella Staff' });
  });

  it('pages with before and limit, never splitting entries of the same instant across pages', async () => {
    const lead = (
      await api<Lead>('POST', '/api/leads', { full_name: 'Many Notes', email: 'many@example.com', phone: '555', property_types: ['land'] })
    ).body;
    // Four notes in one statement share one instant; a fifth comes later.
    await execute(
      database.db,
      sql`insert into lead_notes (lead_id, author_id, body, created_at)
      select ${lead.id}::uuid, ${staffId}::uuid, 'same ' || i, now() + interval '1 minute' from generate_series(1, 4) i`,
    );
    await execute(
      database.db,
      sql`insert into lead_notes (lead_id, author_id, body, created_at) values (${lead.id}, ${staffId}, 'latest', now() + interval '2 minutes')`,
    );
    const bodies = (r: TimelineResponse) => r.entries.map((e) => (e.kind === 'note' ? e.note.body : e.kind));

    const all = await timeline(lead.id);
    expect(bodies(all)).toEqual(
      ['latest', 'same 4', 'same 3', 'same 2', 'same 1', 'created'].map((b) =>
        b.startsWith('same') ? expect.stringMatching(/^same \d$/) : b,
      ),
    );
    expect(all.has_more).toBe(false);

    // Two would end inside the group of four: the page stops before it.
    const first = await timeline(lead.id, '?limit=2');
    expect(bodies(first)).toEqual(['latest']);
    expect(first.has_more).toBe(true);
    // The group alone is bigger than the page: it comes whole.
    const second = await timeline(lead.id, `?limit=2&before=${encodeURIComponent(first.entries.at(-1)!.at)}`);
    expect(second.entries.map((e) => e.kind)).toEqual(['note', 'note', 'note', 'note']);
    expect(second.has_more).toBe(true);
    const third = await timeline(lead.id, `?limit=2&before=${encodeURIComponent(second.entries.at(-1)!.at)}`);
    expect(bodies(third)).toEqual(['created']);
    expect(third.has_more).toBe(false);
    // Page by page, every entry exactly once.
    const ids = [...first.entries, ...second.entries, ...third.entries].map((e) => e.id);
    expect(ids.sort()).toEqual(all.entries.map((e) => e.id).sort());

    const five = await timeline(lead.id, '?limit=5');
    expect(five.entries).toHaveLength(5);
    expect(five.has_more).toBe(true);
    expect((await timeline(lead.id, '?limit=6')).has_more).toBe(false);
    // A `before` with an offset means the same instant.
    const at = new Date(all.entries[0]!.at);
    const offset = new Date(at.getTime() - 5 * 3600_000).toISOString().replace('Z', '-05:00');
    expect((await timeline(lead.id, `?before=${encodeURIComponent(offset)}`)).entries).toHaveLength(5);
  });

  it('answers 404 for an unknown lead, 400 for a bad id, limit or time', async () => {
    const unknown = await api<ErrorResponse>('GET', '/api/leads/00000000-0000-4000-8000-000000000000/timeline');
    expect(unknown.status).toBe(404);
    expect(unknown.body.error).toMatchObject({ code: 'not_found', message: 'Lead not found.' });
    const lead = (await api<Lead>('POST', '/api/leads', { full_name: 'A', email: 'a@example.com', phone: '5', property_types: ['land'] }))
      .body;
    for (const query of ['?limit=0', '?limit=501', '?limit=x', '?before=yesterday', '?before=2030-01-01', '?before=0000-01-01T00:00:00Z']) {
      expect({ query, status: (await api('GET', `/api/leads/${lead.id}/timeline${query}`)).status }).toEqual({ query, status: 400 });
    }
    expect((await api('GET', '/api/leads/nope/timeline')).status).toBe(400);
    expect((await timeline(lead.id, '?limit=500')).entries).toHaveLength(1);
    // Before its creation there is nothing, but the lead exists.
    expect(await timeline(lead.id, '?before=2000-01-01T00:00:00Z')).toEqual({ entries: [], has_more: false });
  });
});
