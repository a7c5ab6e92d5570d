import { sql } from 'drizzle-orm';
import pino from 'pino';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Appointment } from '#shared/schemas/appointment';
import type { Availability } from '#shared/schemas/booking';
import type { CalendarConnection, CalendarConnectionList, OutsideBusy } from '#shared/schemas/calendars';
import type { ErrorResponse } from '#shared/schemas/error';
import { addDays, zonedInstant, zonedParts } from '#shared/zoned-time';
import { ensureAdmin } from '../auth/accounts.ts';
import { execute } from '../db/sql.ts';
import { createTestApp, signIn, validLead } from '../test/test-app.ts';
import { OPEN_EVERY_DAY, WORKS_EVERY_DAY } from '../test/open-every-day.ts';
import { icsOf, icsUtc, startCalendarServer } from '../test/calendar-server.ts';
import { rowsOf, useTestDatabase } from '../test/database.ts';
import { calendarAccess } from './calendar-access.ts';
import { syncDueCalendars } from './sync.ts';

const TZ = 'America/New_York';
const database = useTestDatabase();
let calendars: Awaited<ReturnType<typeof startCalendarServer>>;
let t: ReturnType<typeof createTestApp>;
let owner = { id: '', cookie: '' };
let staff = { id: '', cookie: '' };

const today = () => zonedParts(Date.now(), TZ).date;
const day = (n: number) => addDays(today(), n);
/** The instant of `time` on business date `date`. */
const at = (date: string, time: string) => zonedInstant(date, Number(time.slice(0, 2)) * 60 + Number(time.slice(3)), TZ)!;
/** A one-off event from `start` to `end` (instants). */
const meeting = (uid: string, start: number, end: number, extra: string[] = []) => [
  `UID:${uid}`,
  `DTSTAMP:${icsUtc(Date.now())}`,
  `DTSTART:${icsUtc(start)}`,
  `DTEND:${icsUtc(end)}`,
  'SUMMARY:Closing at 12 Main St',
  ...extra,
];

async function call<T>(method: string, path: string, body?: unknown, cookie = owner.cookie, app = t) {
  const res = await app.json(method, path, body, { cookie });
  const text = await res.text();
  return { status: res.status, body: (text ? JSON.parse(text) : undefined) as T };
}
const connect = (url: string, cookie = owner.cookie, app = t) =>
  call<CalendarConnection & ErrorResponse>('POST', '/api/account/calendars', { kind: 'ics', url }, cookie, app);
const slotsOf = async (date: string) => (await call<Availability>('GET', `/api/public/availability?from=${date}&to=${date}`)).body.slots;
const timesOf = (slots: string[]) => slots.map((s) => s.slice(11, 16));
const everyHalfHour = (from: string, to: string) => {
  const out: string[] = [];
  for (let m = Number(from.slice(0, 2)) * 60; m < Number(to.slice(0, 2)) * 60; m += 30)
    out.push(`${String(Math.floor(m / 60)).padStart(2, '0')}:${m % 60 === 0 ? '00' : '30'}`);
  return out;
};

beforeAll(async () => {
  calendars = await startCalendarServer();
  // The calendar server is on this machine's loopback: allowed by host and port, nothing else is.
  t = createTestApp(database, { BUSINESS_TIME_ZONE: TZ, OUTBOUND_ALLOW_HOSTS: `127.0.0.1:${calendars.port}` });
});
afterAll(async () => {
  await calendars.close();
});
beforeEach(async () => {
  await execute(
    database.db,
    sql`truncate users, sessions, leads, appointments, booking_settings, booking_tokens, notifications, calendar_connections, rate_limits cascade`,
  );
  const made = [];
  for (const [email, role] of [
    ['olive@example.com', 'owner'],
    ['sam@example.com', 'staff'],
  ] as const) {
    const { user } = await ensureAdmin(database.db, email, `${email}-password`, role);
    made.push({ id: user.id, cookie: await signIn(t.json, email, `${email}-password`) });
  }
  [owner, staff] = made as [typeof owner, typeof staff];
  expect((await call('PUT', '/api/booking-settings', OPEN_EVERY_DAY)).status).toBe(200);
  expect((await call('PUT', '/api/account/availability', WORKS_EVERY_DAY)).status).toBe(200);
});

describe('connecting an iCal link', () => {
  it('reads it at once; its busy event removes exactly its slots; the link is never answered or stored in the clear', async () => {
    const date = day(2);
    const path = `/calendar/ical/olive%40example.com/private-5ecre7/basic.ics`;
    calendars.set(path, { ics: icsOf(meeting('closing', at(date, '10:00'), at(date, '11:00'))) });
    expect(timesOf(await slotsOf(date))).toEqual(everyHalfHour('09:00', '17:00'));

    const made = await connect(calendars.url(path));
    expect(made.status).toBe(201);
    expect(made.body).toMatchObject({ kind: 'ics', label: '127.0.0.1', last_error: null, stale: false, busy_count: 1 });
    expect(made.body.last_synced_at).not.toBeNull();
    expect(JSON.stringify(made.body)).not.toContain('5ecre7');

    expect(timesOf(await slotsOf(date))).toEqual(everyHalfHour('09:00', '17:00').filter((s) => s !== '10:00' && s !== '10:30'));
    const list = await call<CalendarConnectionList>('GET', '/api/account/calendars');
    expect(list.body).toMatchObject({ credentials_ready: true, connections: [{ id: made.body.id }] });
    expect(JSON.stringify(list.body)).not.toContain('5ecre7');
    const [stored] = await rowsOf<{ secret: string }>(database.db, sql`select secret from calendar_connections`);
    expect(stored!.secret).not.toContain('5ecre7');
    expect(stored!.secret).not.toContain('127.0.0.1');
    // Someone else's calendar does not touch the owner's times, and is theirs alone.
    expect((await call<CalendarConnectionList>('GET', '/api/account/calendars', undefined, staff.cookie)).body.connections).toEqual([]);
    expect((await call('POST', `/api/account/calendars/${made.body.id}/sync`, undefined, staff.cookie)).status).toBe(404);
    expect((await call('DELETE', `/api/account/calendars/${made.body.id}`, undefined, staff.cookie)).status).toBe(404);
  });

  it('refuses, storing nothing, a link that is not a calendar, answers 404, or points where it may not', async () => {
    calendars.set('/page.html', { status: 200, body: '<html>Hello</html>' });
    calendars.set('/to-loopback.ics', { redirect: `http://127.0.0.1:1/secret.ics` });
    const notCalendar = await connect(calendars.url('/page.html'));
    expect(notCalendar.status).toBe(422);
    expect(notCalendar.body.error.message).toMatch(/^That calendar could not be read: /);
    const missing = await connect(calendars.url('/gone.ics'));
    expect(missing.status).toBe(422);
    expect(missing.body.error.message).toContain('HTTP 404');
    // Port 1 is not on the allow list: the redirect is refused before any connection is made.
    const redirected = await connect(calendars.url('/to-loopback.ics'));
    expect(redirected.status).toBe(422);
    expect(redirected.body.error.message).toMatch(/127\.0\.0\.1/);
    expect(calendars.hitsOf('/secret.ics')).toBe(0);
    // Without the allow list, the server's own machine is out of reach.
    const strict = createTestApp(database, { BUSINESS_TIME_ZONE: TZ });
    calendars.set('/ok.ics', { ics: icsOf() });
    const local = await connect(calendars.url('/ok.ics'), owner.cookie, strict);
    expect(local.status).toBe(422);
    expect(calendars.hitsOf('/ok.ics')).toBe(0);
    const bad = await connect('ftp://example.com/cal.ics');
    expect(bad.status).toBe(400);
    expect(bad.body.error.fields).toEqual({ url: 'Paste a link that starts with https://, http:// or webcal://' });
    expect(await rowsOf(database.db, sql`select id from calendar_connections`)).toEqual([]);
  });
});

describe('syncing', () => {
  it('Sync now reads the change; a failure keeps the last busy times, marks them stale and tells the person once', async () => {
    const date = day(3);
    const path = '/team/olive.ics';
    calendars.set(path, { ics: icsOf(meeting('a', at(date, '09:00'), at(date, '10:00'))) });
    const { body: made } = await connect(calendars.url(path));
    expect(timesOf(await slotsOf(date))).not.toContain('09:30');

    calendars.set(path, { ics: icsOf(meeting('a', at(date, '14:00'), at(date, '15:00'))) });
    const synced = await call<CalendarConnection>('POST', `/api/account/calendars/${made.id}/sync`);
    expect(synced.status).toBe(200);
    expect(timesOf(await slotsOf(date))).toEqual(everyHalfHour('09:00', '17:00').filter((s) => s !== '14:00' && s !== '14:30'));

    calendars.set(path, { status: 500, body: 'oops' });
    for (let i = 0; i < 2; i++) {
      const failed = await call<CalendarConnection>('POST', `/api/account/calendars/${made.id}/sync`);
      expect(failed.status).toBe(200);
      expect(failed.body).toMatchObject({ stale: true, busy_count: 1 });
      expect(failed.body.last_error).toContain('HTTP 500');
    }
    expect(timesOf(await slotsOf(date))).not.toContain('14:00');
    const told = await rowsOf<{ user_id: string; type: string; message: string }>(
      database.db,
      sql`select user_id, type, message from notifications where type = 'calendar'`,
    );
    expect(told).toHaveLength(1);
    expect(told[0]).toMatchObject({ user_id: owner.id });
    expect(told[0]!.message).toMatch(/^Your calendar 127\.0\.0\.1 could not be synced: .*HTTP 500/);

    calendars.set(path, { ics: icsOf() });
    const back = await call<CalendarConnection>('POST', `/api/account/calendars/${made.id}/sync`);
    expect(back.body).toMatchObject({ stale: false, last_error: null, busy_count: 0 });
    expect(timesOf(await slotsOf(date))).toEqual(everyHalfHour('09:00', '17:00'));
  });

  it('reads each due calendar once per interval however many processes run the sync', async () => {
    const paths = ['/p/1.ics', '/p/2.ics', '/p/3.ics'];
    for (const p of paths) {
      calendars.set(p, { ics: icsOf() });
      expect((await connect(calendars.url(p))).status).toBe(201);
    }
    // Made due, as five minutes later.
    await execute(database.db, sql`update calendar_connections set last_attempt_at = now() - interval '6 minutes'`);
    const second = createTestApp(database, { BUSINESS_TIME_ZONE: TZ, OUTBOUND_ALLOW_HOSTS: `127.0.0.1:${calendars.port}` });
    const silent = pino({ level: 'silent' });
    const runs = await Promise.all(
      [t, second, t, second].map((app) => syncDueCalendars(calendarAccess(database.db, app.config, app.vault, silent))),
    );
    expect(runs.reduce((a, b) => a + b, 0)).toBe(3);
    for (const p of paths) expect(calendars.hitsOf(p)).toBe(2); // the connect, and one sync
    // Not due again until the interval has passed.
    expect(await syncDueCalendars(calendarAccess(database.db, t.config, t.vault, silent))).toBe(0);
  });

  it('reads a calendar last read over a minute ago before a visitor’s booking is confirmed', async () => {
    const date = day(2);
    const path = '/late-change.ics';
    calendars.set(path, { ics: icsOf() });
    expect((await connect(calendars.url(path))).status).toBe(201);
    const token = (await call<{ booking_token: string }>('POST', '/api/public/leads', validLead())).body.booking_token;
    const [slot] = (await slotsOf(date)).filter((s) => s.slice(11, 16) === '11:00');
    // Since the last read, a meeting was added at that time.
    calendars.set(path, { ics: icsOf(meeting('new', at(date, '11:00'), at(date, '12:00'))) });
    await execute(database.db, sql`update calendar_connections set last_synced_at = now() - interval '2 minutes'`);
    const refused = await call<ErrorResponse>('POST', '/api/public/bookings', { booking_token: token, start: slot, type: 'Call' });
    expect(refused.status).toBe(409);
    expect(timesOf(refused.body.error.slots ?? [])).not.toContain('11:00');
    expect(calendars.hitsOf(path)).toBe(2);
  });
});

describe('staff and the calendar page', () => {
  it('warns "Busy in their calendar" over an outside busy time, and schedules anyway when told', async () => {
    const date = day(4);
    calendars.set('/busy.ics', { ics: icsOf(meeting('x', at(date, '13:00'), at(date, '14:00'))) });
    expect((await connect(calendars.url('/busy.ics'))).status).toBe(201);
    const lead = await call<{ id: string }>('POST', '/api/leads', validLead({ submission_id: undefined, fill_ms: undefined }));
    expect(lead.status).toBe(201);
    const body = { lead_id: lead.body.id, date, time: '13:30', duration_minutes: 30, type: 'Call', host_id: owner.id };
    const warned = await call<ErrorResponse>('POST', '/api/appointments', body);
    expect(warned.status).toBe(409);
    expect(warned.body.error).toMatchObject({ message: 'Busy in their calendar.', busy_outside: true, conflicts: [] });
    // Someone else is free then.
    expect((await call<Appointment>('POST', '/api/appointments', { ...body, host_id: staff.id })).status).toBe(201);
    expect((await call<Appointment>('POST', '/api/appointments', { ...body, allow_overlap: true })).status).toBe(201);
  });

  it('gives a person’s busy times per day, cut at midnight, without details', async () => {
    const date = day(5);
    calendars.set('/night.ics', {
      ics: icsOf(
        meeting('overnight', at(date, '22:00'), at(addDays(date, 1), '02:00')),
        meeting('m', at(date, '09:00'), at(date, '09:45')),
      ),
    });
    expect((await connect(calendars.url('/night.ics'))).status).toBe(201);
    const busy = await call<OutsideBusy>(
      'GET',
      `/api/calendar/busy?person=${owner.id}&from=${date}&to=${addDays(date, 1)}`,
      undefined,
      staff.cookie,
    );
    expect(busy.status).toBe(200);
    expect(busy.body.busy).toEqual([
      { date, start: '09:00', end: '09:45' },
      { date, start: '22:00', end: '24:00' },
      { date: addDays(date, 1), start: '00:00', end: '02:00' },
    ]);
    expect(JSON.stringify(busy.body)).not.toContain('Closing');
    const tooLong = await call<ErrorResponse>('GET', `/api/calendar/busy?person=${owner.id}&from=${date}&to=${addDays(date, 60)}`);
    expect(tooLong.status).toBe(400);
  });

  it('removing a calendar gives its times back', async () => {
    const date = day(2);
    calendars.set('/gone-soon.ics', { ics: icsOf(meeting('g', at(date, '15:00'), at(date, '16:00'))) });
    const { body: made } = await connect(calendars.url('/gone-soon.ics'));
    expect(timesOf(await slotsOf(date))).not.toContain('15:00');
    expect((await call('DELETE', `/api/account/calendars/${made.id}`)).status).toBe(204);
    expect(timesOf(await slotsOf(date))).toContain('15:00');
    expect(await rowsOf(database.db, sql`select 1 from calendar_busy`)).toEqual([]);
    expect((await call('DELETE', `/api/account/calendars/${made.id}`)).status).toBe(404);
  });
});
