import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Appointment } from '#shared/schemas/appointment';
import type { Availability } from '#shared/schemas/booking';
import type { CalendarConnection, OutsideBusy } from '#shared/schemas/calendars';
import type { ErrorResponse } from '#shared/schemas/error';
import type { EraseResponse } from '#shared/schemas/lead-privacy';
import { addDays, zonedInstant, zonedParts } from '#shared/zoned-time';
import { ensureAdmin } from '../auth/accounts.ts';
import { claimDueWrites } from '../db/queries/calendar-writes-queries.ts';
import { calendarSecretContext } from '../db/sealed-secrets.ts';
import { execute } from '../db/sql.ts';
import { createTestApp, signIn, validLead } from '../test/test-app.ts';
import { OPEN_EVERY_DAY, WORKS_EVERY_DAY } from '../test/open-every-day.ts';
import { icsOf, icsUtc } from '../test/calendar-server.ts';
import { rowsOf, useTestDatabase } from '../test/database.ts';
import { hasRadicale, type Radicale, startRadicale } from '../test/radicale.ts';
import { writeDueCopies } from './calendar-copies.ts';
import { calendarAccess } from './calendar-access.ts';

/**
 * CalDAV accounts end to end against Radicale on this machine's loopback: connecting (and the
 * refusals), choosing calendars, busy times read from the chosen ones, and booked calls
 * written, moved and removed in the write calendar through the queue, once each, a crashed
 * writer's copy written again to the same resource.
 */
const TZ = 'America/New_York';
const database = useTestDatabase();
let radicale: Radicale;
let t: ReturnType<typeof createTestApp>;
let owner = { id: '', cookie: '' };
let password = '';

const today = () => zonedParts(Date.now(), TZ).date;
const day = (n: number) => addDays(today(), n);
const at = (date: string, time: string) => zonedInstant(date, Number(time.slice(0, 2)) * 60 + Number(time.slice(3)), TZ)!;

async function call<T>(method: string, path: string, body?: unknown, cookie = owner.cookie) {
  const res = await t.json(method, path, body, { cookie });
  const text = await res.text();
  return { status: res.status, body: (text ? JSON.parse(text) : undefined) as T };
}
const connect = (fields: { url?: string; username?: string; password?: string } = {}) =>
  call<CalendarConnection & ErrorResponse>('POST', '/api/account/calendars', {
    kind: 'caldav',
    url: radicale.url,
    username: 'dana',
    password,
    ...fields,
  });
const slotsOf = async (date: string) =>
  (await call<Availability>('GET', `/api/public/availability?from=${date}&to=${date}`)).body.slots.map((s) => s.slice(11, 16));
const access = () => calendarAccess(database.db, t.config, t.vault);
/** Drains the copy queue as the job does, until nothing is due. */
async function writeAll() {
  while ((await writeDueCopies(access())) > 0);
}
const meeting = (uid: string, start: number, end: number) =>
  icsOf([`UID:${uid}`, `DTSTAMP:${icsUtc(Date.now())}`, `DTSTART:${icsUtc(start)}`, `DTEND:${icsUtc(end)}`, 'SUMMARY:Closing']);
/** The VEVENTs of dana's calendar, each as its text. */
const eventsIn = async (calendar: string) =>
  (await radicale.readCalendar('dana', calendar)).replace(/\r\n /g, '').match(/BEGIN:VEVENT[\s\S]*?END:VEVENT/g) ?? [];

/** The app password was revoked at the provider: the stored one no longer signs in. */
async function revokePassword(connectionId: string) {
  const { vault } = access();
  if (!vault.available) throw new Error(vault.reason);
  const sealed = vault.seal(
    JSON.stringify({ url: radicale.url, username: 'dana', password: 'revoked-app-password' }),
    calendarSecretContext(connectionId),
  );
  await execute(database.db, sql`update calendar_connections set secret = ${sealed} where id = ${connectionId}`);
}

describe.skipIf(!hasRadicale && process.env.CI !== 'true')('CalDAV accounts', () => {
  beforeAll(async () => {
    if (!hasRadicale) throw new Error('CI=true needs Radicale (/usr/bin/radicale, Debian package radicale)');
    radicale = await startRadicale(['dana']);
    password = radicale.users[0]!.password;
    t = createTestApp(database, { BUSINESS_TIME_ZONE: TZ, OUTBOUND_ALLOW_HOSTS: `127.0.0.1:${radicale.port}` });
  }, 30_000);
  afterAll(async () => {
    await radicale?.stop();
  });

  let work = '';
  let home = '';
  beforeEach(async () => {
    await execute(
      database.db,
      sql`truncate users, sessions, leads, appointments, booking_settings, booking_tokens, notifications, calendar_connections, rate_limits cascade`,
    );
    const { user } = await ensureAdmin(database.db, 'dana@example.com', 'dana-password-1', 'owner');
    owner = { id: user.id, cookie: await signIn(t.json, 'dana@example.com', 'dana-password-1') };
    expect((await call('PUT', '/api/booking-settings', OPEN_EVERY_DAY)).status).toBe(200);
    expect((await call('PUT', '/api/account/availability', WORKS_EVERY_DAY)).status).toBe(200);
    // A fresh pair of calendars per test, so one test's events never reach another's.
    const tag = crypto.randomUUID().slice(0, 8);
    work = `work-${tag}`;
    home = `home-${tag}`;
    await radicale.makeCalendar('dana', work, { displayName: `Work ${tag}` });
    await radicale.makeCalendar('dana', home, { displayName: `Home ${tag}` });
  });

  it('connects with the app password, lists the calendars, counts all as busy until chosen, and never answers the password', async () => {
    const date = day(2);
    await radicale.putRawEvent('dana', work, 'closing', meeting('closing', at(date, '10:00'), at(date, '11:00')));
    await radicale.putRawEvent('dana', home, 'dentist', meeting('dentist', at(date, '14:00'), at(date, '15:00')));

    const made = await connect();
    expect(made.status).toBe(201);
    expect(made.body).toMatchObject({ kind: 'caldav', label: 'dana on 127.0.0.1', last_error: null, write_calendar: null, busy_count: 2 });
    const names = made.body.calendars.map((c) => c.name);
    expect(names).toEqual(expect.arrayContaining([expect.stringMatching(/^Work /), expect.stringMatching(/^Home /)]));
    expect(made.body.busy_calendars.sort()).toEqual(made.body.calendars.map((c) => c.url).sort());
    expect(JSON.stringify(made.body)).not.toContain(password);
    const [stored] = await rowsOf<{ secret: string }>(database.db, sql`select secret from calendar_connections`);
    expect(stored!.secret).not.toContain(password);
    expect(await slotsOf(date)).not.toContain('10:00');
    expect(await slotsOf(date)).not.toContain('14:00');

    // Only Home counts now: the closing at work no longer blocks 10:00.
    const homeUrl = made.body.calendars.find((c) => c.url.includes(home))!.url;
    const chosen = await call<CalendarConnection>('PATCH', `/api/account/calendars/${made.body.id}`, {
      busy_calendars: [homeUrl],
      write_calendar: null,
    });
    expect(chosen.status).toBe(200);
    expect(chosen.body).toMatchObject({ busy_calendars: [homeUrl], busy_count: 1, last_error: null });
    expect(await slotsOf(date)).toContain('10:00');
    expect(await slotsOf(date)).not.toContain('14:00');
  });

  it('refuses a wrong password, a server that is not CalDAV and calendars not of the account, saving nothing', async () => {
    const wrong = await connect({ password: 'not-the-password' });
    expect(wrong.status).toBe(422);
    expect(wrong.body.error.message).toMatch(/^That account could not be reached: /);
    const missing = await connect({ username: '' });
    expect(missing.status).toBe(400);
    expect(missing.body.error.fields).toEqual({ username: 'Enter the username' });
    const webcal = await connect({ url: 'webcal://example.com/' });
    expect(webcal.status).toBe(400);
    expect(await rowsOf(database.db, sql`select id from calendar_connections`)).toEqual([]);

    const made = await connect();
    const foreign = await call<ErrorResponse>('PATCH', `/api/account/calendars/${made.body.id}`, {
      busy_calendars: ['http://127.0.0.1:1/other/'],
      write_calendar: null,
    });
    expect(foreign.status).toBe(400);
    expect(foreign.body.error.message).toBe('Choose busy calendars from this account’s list.');
    const writeForeign = await call<ErrorResponse>('PATCH', `/api/account/calendars/${made.body.id}`, {
      busy_calendars: [],
      write_calendar: 'http://127.0.0.1:1/other/',
    });
    expect(writeForeign.status).toBe(400);
  });

  it('writes booked calls to the chosen calendar, moves and removes them, and does not count them as busy', async () => {
    const made = await connect();
    const workUrl = made.body.calendars.find((c) => c.url.includes(work))!.url;
    const date = day(3);
    // An appointment from before the choice is written once a calendar is chosen.
    const lead = await call<{ id: string }>('POST', '/api/leads', {
      ...validLead({ submission_id: undefined, fill_ms: undefined }),
      full_name: 'Jane Copy',
      phone: '(301) 555-0199',
    });
    const early = await call<Appointment>('POST', '/api/appointments', {
      lead_id: lead.body.id,
      date,
      time: '09:00',
      duration_minutes: 30,
      type: 'Call',
      host_id: owner.id,
      notes: 'Bring the survey',
    });
    expect(early.status).toBe(201);
    await writeAll();
    expect(await eventsIn(work)).toEqual([]);

    const chosen = await call<CalendarConnection>('PATCH', `/api/account/calendars/${made.body.id}`, {
      busy_calendars: made.body.busy_calendars,
      write_calendar: workUrl,
    });
    expect(chosen.body.write_calendar).toBe(workUrl);
    await writeAll();
    const [copy] = await eventsIn(work);
    expect(copy).toContain('SUMMARY:Call with Jane Copy');
    expect(copy).toContain('(301) 555-0199');
    expect(copy).toContain('Bring the survey');
    expect(copy).toContain(`DTSTART:${icsUtc(at(date, '09:00'))}`);

    // Our own copy is not an outside busy time: the calendar's busy times stay empty, and
    // editing the call's notes is not refused as "Busy in their calendar".
    expect((await call<CalendarConnection>('POST', `/api/account/calendars/${made.body.id}/sync`)).body.last_error).toBeNull();
    const busy = await call<OutsideBusy>('GET', `/api/calendar/busy?person=${owner.id}&from=${date}&to=${date}`);
    expect(busy.body.busy).toEqual([]);
    expect((await call('PATCH', `/api/appointments/${early.body.id}`, { notes: 'Bring the survey and the plat' })).status).toBe(200);

    // Moved: the same event, at the new time.
    expect((await call('PATCH', `/api/appointments/${early.body.id}`, { time: '11:30' })).status).toBe(200);
    await writeAll();
    const moved = await eventsIn(work);
    expect(moved).toHaveLength(1);
    expect(moved[0]).toContain(`DTSTART:${icsUtc(at(date, '11:30'))}`);
    expect(moved[0]).toContain('Bring the survey and the plat');

    // Cancelled: gone, and the queue is empty.
    expect((await call('PATCH', `/api/appointments/${early.body.id}`, { status: 'cancelled' })).status).toBe(200);
    await writeAll();
    expect(await eventsIn(work)).toEqual([]);
    expect(await rowsOf(database.db, sql`select appointment_id from calendar_writes`)).toEqual([]);
  });

  it('a booked call reaches the calendar with its place; no write calendar removes it; erasing the lead deletes it before answering', async () => {
    const made = await connect();
    const workUrl = made.body.calendars.find((c) => c.url.includes(work))!.url;
    await call('PATCH', `/api/account/calendars/${made.body.id}`, { busy_calendars: [], write_calendar: workUrl });
    const date = day(4);
    const lead = await call<{ id: string }>('POST', '/api/leads', {
      ...validLead({ submission_id: undefined, fill_ms: undefined }),
      full_name: 'Quinn Erase',
    });
    const booked = await call<Appointment>('POST', '/api/appointments', {
      lead_id: lead.body.id,
      date,
      time: '13:00',
      duration_minutes: 30,
      type: 'Zoom',
      host_id: owner.id,
      location: 'https://meet.example.com/quinn',
    });
    expect(booked.status).toBe(201);
    await writeAll();
    expect((await eventsIn(work))[0]).toContain('Quinn Erase');
    expect((await eventsIn(work))[0]).toContain('LOCATION:https://meet.example.com/quinn');

    // A second call, and no write calendar: removing the choice removes the copy.
    await call('PATCH', `/api/account/calendars/${made.body.id}`, { busy_calendars: [], write_calendar: null });
    await writeAll();
    expect(await eventsIn(work)).toEqual([]);
    await call('PATCH', `/api/account/calendars/${made.body.id}`, { busy_calendars: [], write_calendar: workUrl });
    await writeAll();
    expect(await eventsIn(work)).toHaveLength(1);

    // Erased: the copy is deleted before the answer, which names no unreachable calendar; the appointment stays.
    const erased = await call<EraseResponse>('POST', `/api/leads/${lead.body.id}/erase`);
    expect(erased.status).toBe(200);
    expect(erased.body).toMatchObject({ appointments_kept: 1, calendars_unreachable: [] });
    expect(await eventsIn(work)).toEqual([]);
    // A later change of the kept appointment does not bring the copy back.
    expect((await call('PATCH', `/api/appointments/${booked.body.id}`, { time: '14:00' })).status).toBe(200);
    await writeAll();
    expect(await eventsIn(work)).toEqual([]);
  });

  it('an erasure names the calendar it could not reach, and the copy goes when it answers', async () => {
    const made = await connect();
    const workUrl = made.body.calendars.find((c) => c.url.includes(work))!.url;
    await call('PATCH', `/api/account/calendars/${made.body.id}`, { busy_calendars: [], write_calendar: workUrl });
    const lead = await call<{ id: string }>('POST', '/api/leads', validLead({ submission_id: undefined, fill_ms: undefined }));
    await call('POST', '/api/appointments', {
      lead_id: lead.body.id,
      date: day(7),
      time: '10:00',
      duration_minutes: 30,
      type: 'Call',
      host_id: owner.id,
    });
    await writeAll();
    expect(await eventsIn(work)).toHaveLength(1);
    const secret = (await rowsOf<{ secret: string }>(database.db, sql`select secret from calendar_connections`))[0]!.secret;
    await revokePassword(made.body.id);

    const erased = await call<EraseResponse>('POST', `/api/leads/${lead.body.id}/erase`);
    expect(erased.status).toBe(200);
    expect(erased.body.calendars_unreachable).toEqual(['dana on 127.0.0.1']);
    expect(await eventsIn(work)).toHaveLength(1);
    // The password is put right: the queue removes it at its next try.
    await execute(database.db, sql`update calendar_connections set secret = ${secret}`);
    await execute(database.db, sql`update calendar_writes set next_attempt_at = now()`);
    await writeAll();
    expect(await eventsIn(work)).toEqual([]);
  });

  it('a writer killed mid-write leaves its copy to the next after the lease; two writers at once write each copy once', async () => {
    const made = await connect();
    const workUrl = made.body.calendars.find((c) => c.url.includes(work))!.url;
    await call('PATCH', `/api/account/calendars/${made.body.id}`, { busy_calendars: [], write_calendar: workUrl });
    const lead = await call<{ id: string }>('POST', '/api/leads', validLead({ submission_id: undefined, fill_ms: undefined }));
    const date = day(5);
    for (const time of ['09:00', '10:00', '11:00', '12:00', '13:00', '14:00'])
      expect(
        (
          await call('POST', '/api/appointments', {
            lead_id: lead.body.id,
            date,
            time,
            duration_minutes: 30,
            type: 'Call',
            host_id: owner.id,
          })
        ).status,
      ).toBe(201);

    // A writer claims two and dies (kill -9: no result, no release).
    const lost = await claimDueWrites(database.db, 2);
    expect(lost).toHaveLength(2);
    // Two writers at once take the other four, each once.
    const [a, b] = await Promise.all([writeDueCopies(access(), 3), writeDueCopies(access(), 3)]);
    expect(a + b).toBe(4);
    expect(await eventsIn(work)).toHaveLength(4);
    expect(await writeDueCopies(access())).toBe(0); // the dead writer's two are still held
    // Its lease runs out: the next writer writes them.
    await execute(database.db, sql`update calendar_writes set claimed_until = now() - interval '1 second' where claimed_until > now()`);
    await writeAll();
    const events = await eventsIn(work);
    expect(events).toHaveLength(6);
    const starts = events.map((e) => /DTSTART:(\S+)/.exec(e)![1]).sort();
    expect(starts).toEqual(['09:00', '10:00', '11:00', '12:00', '13:00', '14:00'].map((time) => icsUtc(at(date, time))));

    // A copy the dead writer had already written before it died is written again to the same resource: still one event.
    await execute(database.db, sql`update calendar_writes set written_version = 0`);
    await writeAll();
    expect(await eventsIn(work)).toHaveLength(6);
  });

  it('a failed write is kept, shown on the connection and tried again later', async () => {
    const made = await connect();
    const workUrl = made.body.calendars.find((c) => c.url.includes(work))!.url;
    await call('PATCH', `/api/account/calendars/${made.body.id}`, { busy_calendars: [], write_calendar: workUrl });
    await revokePassword(made.body.id);
    const lead = await call<{ id: string }>('POST', '/api/leads', validLead({ submission_id: undefined, fill_ms: undefined }));
    await call('POST', '/api/appointments', {
      lead_id: lead.body.id,
      date: day(6),
      time: '09:00',
      duration_minutes: 30,
      type: 'Call',
      host_id: owner.id,
    });
    expect(await writeDueCopies(access())).toBe(1);
    const [row] = await rowsOf<{ attempts: number; due_in: number }>(
      database.db,
      sql`select attempts, extract(epoch from next_attempt_at - now())::int as due_in from calendar_writes`,
    );
    expect(row).toMatchObject({ attempts: 1 });
    expect(row!.due_in).toBeGreaterThan(50);
    expect(await writeDueCopies(access())).toBe(0);
    const list = await call<{ connections: CalendarConnection[] }>('GET', '/api/account/calendars');
    expect(list.body.connections[0]).toMatchObject({ unwritten: 1 });
    expect(list.body.connections[0]!.write_error).toMatch(/password|sign/i);
  });
});
