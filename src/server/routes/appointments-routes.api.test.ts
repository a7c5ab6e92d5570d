import ICAL from 'ical.js';
import { sql } from 'drizzle-orm';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Appointment, AppointmentListResponse, CalendarFeed } from '#shared/schemas/appointment';
import type { Lead } from '#shared/schemas/lead';
import { execute } from '../db/sql.ts';
import { ensureAdmin } from '../auth/accounts.ts';
import { createTestApp, signIn } from '../test/test-app.ts';
import { useTestDatabase } from '../test/database.ts';

const database = useTestDatabase();
let t: ReturnType<typeof createTestApp>;
let cookie: string;
let lead: Lead;
beforeAll(async () => {
  t = createTestApp(database, { BUSINESS_TIME_ZONE: 'America/New_York', SITE_NAME: 'Acme, Inc; Diligence' });
});
beforeEach(async () => {
  await execute(database.db, sql`truncate users, sessions, leads, appointments, calendar_feeds cascade`);
  await ensureAdmin(database.db, 'sched@example.com', 'sched-password');
  cookie = await signIn(t.json, 'sched@example.com', 'sched-password');
  lead = (
    await api<Lead>('POST', '/api/leads', { full_name: 'Pat Buyer', email: 'pat@example.com', phone: '555-0100', property_types: ['land'] })
  ).body;
});

async function api<T>(method: string, path: string, body?: unknown) {
  const res = await t.json(method, path, body, { cookie });
  const text = await res.text();
  return { status: res.status, body: (text ? JSON.parse(text) : undefined) as T, headers: res.headers };
}
const schedule = (fields: Record<string, unknown> = {}) =>
  api<Appointment>('POST', '/api/appointments', {
    lead_id: lead.id,
    date: '2030-12-01',
    time: '14:30',
    type: 'Zoom',
    notes: 'Walk the rent roll',
    ...fields,
  });

describe('appointments API', () => {
  it('schedules, reads, lists by range in date-then-time order, updates and deletes', async () => {
    const created = await schedule();
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      date: '2030-12-01',
      time: '14:30',
      type: 'Zoom',
      notes: 'Walk the rent roll',
      lead: { full_name: 'Pat Buyer', email: 'pat@example.com', phone: '555-0100' },
    });
    await schedule({ date: '2030-12-01', time: '09:00', type: 'Call', notes: '' });
    await schedule({ date: '2030-11-30', time: '23:59' });
    await schedule({ date: '2030-12-31', time: '08:00' });
    await schedule({ date: '2031-01-01', time: '08:00' });

    const december = (await api<AppointmentListResponse>('GET', '/api/appointments?from=2030-12-01&to=2030-12-31')).body;
    expect(december.time_zone).toBe('America/New_York');
    expect(december.appointments.map((a) => `${a.date} ${a.time}`)).toEqual(['2030-12-01 09:00', '2030-12-01 14:30', '2030-12-31 08:00']);
    expect(december.appointments[0]!.notes).toBeNull();
    expect((await api<AppointmentListResponse>('GET', '/api/appointments')).body.appointments).toHaveLength(5);

    const updated = await api<Appointment>('PATCH', `/api/appointments/${created.body.id}`, { time: '16:00', type: 'On-site' });
    expect(updated.body).toMatchObject({ date: '2030-12-01', time: '16:00', type: 'On-site', notes: 'Walk the rent roll' });
    expect((await api('GET', `/api/appointments/${created.body.id}`)).status).toBe(200);
    expect((await api('DELETE', `/api/appointments/${created.body.id}`)).status).toBe(200);
    expect((await api('GET', `/api/appointments/${created.body.id}`)).status).toBe(404);
    expect((await api('DELETE', `/api/appointments/${created.body.id}`)).status).toBe(404);
    expect((await api('PATCH', `/api/appointments/${created.body.id}`, { time: '10:00' })).status).toBe(404);
  });

  it.each([
    [{ lead_id: '' }, 'lead_id', 'Please select a lead'],
    [{ lead_id: 'nope' }, 'lead_id', 'Please select a lead'],
    [{ date: '' }, 'date', 'Date is required'],
    [{ date: '2026-02-30' }, 'date', 'Invalid date'],
    [{ date: '12/01/2026' }, 'date', 'Invalid date'],
    [{ time: '' }, 'time', 'Time is required'],
    [{ time: '24:00' }, 'time', 'Invalid time'],
    [{ type: '' }, 'type', 'Appointment type is required'],
    [{ type: 'Lunch' }, 'type', 'Appointment type is required'],
    [{ notes: 'x'.repeat(5001) }, 'notes', 'Notes must be at most 5000 characters'],
  ])('rejects a bad field (%#)', async (fields, field, message) => {
    const res = await schedule(fields);
    expect(res.status).toBe(400);
    expect((res.body as unknown as { error: { fields: Record<string, string> } }).error.fields[field]).toBe(message);
  });

  it('answers 422 when the lead does not exist', async () => {
    const res = await schedule({ lead_id: '00000000-0000-4000-8000-000000000000' });
    expect(res.status).toBe(422);
    expect(res.body).toMatchObject({ error: { code: 'unprocessable', fields: { lead_id: 'Please select a lead' } } });
  });

  it('rejects a bad range', async () => {
    expect((await api('GET', '/api/appointments?from=2030-12-31&to=2030-12-01')).status).toBe(400);
    expect((await api('GET', '/api/appointments?from=2026-13-01')).status).toBe(400);
  });

  it('makes a moved appointment due for a reminder again', async () => {
    const { body } = await schedule();
    await execute(database.db, sql`update appointments set reminder_sent_at = now()`);
    await api('PATCH', `/api/appointments/${body.id}`, { date: '2030-12-02' });
    const rows = (await database.db.execute(sql`select reminder_sent_at from appointments`)) as unknown as {
      rows: { reminder_sent_at: unknown }[];
    };
    expect(rows.rows[0]!.reminder_sent_at).toBeNull();
  });

  it('records the signed-in admin as changed_by when scheduling, moving and cancelling (the timeline names them)', async () => {
    const changedBy = async () =>
      (
        (await database.db.execute(sql`select u.email from appointments a left join users u on u.id = a.changed_by`)) as unknown as {
          rows: { email: string | null }[];
        }
      ).rows[0]!.email;
    const { body } = await schedule();
    expect(await changedBy()).toBe('sched@example.com');
    await ensureAdmin(database.db, 'second@example.com', 'second-password');
    const second = await signIn(t.json, 'second@example.com', 'second-password');
    expect((await t.json('PATCH', `/api/appointments/${body.id}`, { date: '2030-12-02' }, { cookie: second })).status).toBe(200);
    expect(await changedBy()).toBe('second@example.com');
    expect((await api('PATCH', `/api/appointments/${body.id}`, { status: 'cancelled' })).status).toBe(200);
    expect(await changedBy()).toBe('sched@example.com');
  });
});

function parseEvents(text: string) {
  const calendar = new ICAL.Component(ICAL.parse(text));
  return { calendar, events: calendar.getAllSubcomponents('vevent').map((v) => new ICAL.Event(v)) };
}

describe('iCalendar export', () => {
  it('downloads one appointment as valid iCalendar at the right instant', async () => {
    const { body } = await schedule({ date: '2030-07-04', time: '09:15', notes: 'Bring comps; 2 units, maybe 3\nCall first' });
    const res = await t.app.request(`/api/appointments/${body.id}/ics`, { headers: { cookie } });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('text/calendar');
    const text = await res.text();
    expect(text.split('\r\n').every((line) => Buffer.byteLength(line) <= 75)).toBe(true);
    const { calendar, events } = parseEvents(text);
    expect(calendar.getFirstPropertyValue('version')).toBe('2.0');
    expect(events).toHaveLength(1);
    const event = events[0]!;
    // 09:15 in New York in July (EDT, UTC-4) is 13:15 UTC.
    expect(event.startDate.toJSDate().toISOString()).toBe('2030-07-04T13:15:00.000Z');
    expect(event.summary).toBe('Zoom with Pat Buyer');
    expect(event.description).toBe('Bring comps; 2 units, maybe 3\nCall first\nEmail: pat@example.com\nPhone: 555-0100');
    expect(event.uid).toContain(body.id);
  });

  it('writes script payloads and line breaks in names and notes as escaped TEXT that cannot start a property', async () => {
    const name = '<script>window.__xss=1</script>, "Evil"; \\ Co';
    const payload = (
      await api<Lead>('POST', '/api/leads', { full_name: name, email: 'evil@example.com', phone: '555-0666', property_types: ['land'] })
    ).body;
    const notes =
      '<img src=x onerror=window.__xss=1>\rATTENDEE:mailto:evil@example.com\nX-INJECTED:1\r\nBEGIN:VALARM; a,b \\ c\u0001\u007f';
    const { body } = await schedule({ lead_id: payload.id, notes });
    const text = await (await t.app.request(`/api/appointments/${body.id}/ics`, { headers: { cookie } })).text();
    // Only CRLF ends a line (RFC 5545 3.1); no other control character appears in a TEXT value (3.3.11).
    // eslint-disable-next-line no-control-regex -- looking for control characters is the point
    expect(text.replace(/\r\n/g, '')).not.toMatch(/[\u0000-\u0008\u000a-\u001f\u007f]/);
    const unfolded = text.replace(/\r\n[ \t]/g, '').split('\r\n');
    expect(unfolded.filter((line) => /^(ATTENDEE|X-INJECTED|BEGIN:VALARM)/.test(line))).toEqual([]);
    expect(unfolded).toContain(`SUMMARY:Zoom with <script>window.__xss=1</script>\\, "Evil"\\; \\\\ Co`);
    const { events } = parseEvents(text);
    expect(events).toHaveLength(1);
    expect(events[0]!.summary).toBe(`Zoom with ${name}`);
    expect(events[0]!.description).toBe(
      '<img src=x onerror=window.__xss=1>\nATTENDEE:mailto:evil@example.com\nX-INJECTED:1\nBEGIN:VALARM; a,b \\ c\nEmail: evil@example.com\nPhone: 555-0666',
    );
  });

  it('uses standard time in winter', async () => {
    const { body } = await schedule({ date: '2031-01-15', time: '09:15' });
    const { events } = parseEvents(await (await t.app.request(`/api/appointments/${body.id}/ics`, { headers: { cookie } })).text());
    expect(events[0]!.startDate.toJSDate().toISOString()).toBe('2031-01-15T14:15:00.000Z');
  });

  it('serves a private, revocable feed that calendar apps can subscribe to without a cookie', async () => {
    const tomorrow = new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);
    await schedule({ date: tomorrow, time: '10:00' });
    expect((await api<CalendarFeed>('GET', '/api/calendar-feed')).body).toEqual({ active: false, created_at: null });
    const created = await api<CalendarFeed>('POST', '/api/calendar-feed');
    expect(created.status).toBe(201);
    const url = new URL(created.body.url!);
    expect(url.pathname).toMatch(/^\/api\/calendar\/[A-Za-z0-9_-]{43}\/appointments\.ics$/);
    expect((await api<CalendarFeed>('GET', '/api/calendar-feed')).body).toMatchObject({ active: true });

    const feed = await t.app.request(url.pathname);
    expect(feed.status).toBe(200);
    const { calendar, events } = parseEvents(await feed.text());
    // ical.js leaves X- properties raw: our TEXT escaping of , and ; is visible here.
    expect(calendar.getFirstPropertyValue('x-wr-calname')).toBe('Acme\\, Inc\\; Diligence appointments');
    expect(events.map((e) => e.summary)).toEqual(['Zoom with Pat Buyer']);

    // A new URL replaces the old one; revoking ends it.
    const second = await api<CalendarFeed>('POST', '/api/calendar-feed');
    expect((await t.app.request(url.pathname)).status).toBe(404);
    await api('DELETE', '/api/calendar-feed');
    expect((await t.app.request(new URL(second.body.url!).pathname)).status).toBe(404);
    expect((await t.app.request('/api/calendar/not-a-token/appointments.ics')).status).toBe(400);
  });
});
