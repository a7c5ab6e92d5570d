import { sql } from 'drizzle-orm';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Appointment, AppointmentListResponse } from '#shared/schemas/appointment';
import type { MemberAvailabilityResponse } from '#shared/schemas/availability';
import type { Availability } from '#shared/schemas/booking';
import type { ErrorResponse } from '#shared/schemas/error';
import { addDays, zonedParts } from '#shared/zoned-time';
import { ensureAdmin } from '../auth/accounts.ts';
import { execute } from '../db/sql.ts';
import { createTestApp, signIn, validLead } from '../test/test-app.ts';
import { OPEN_EVERY_DAY, WORKS_EVERY_DAY } from '../test/open-every-day.ts';
import { rowsOf, useTestDatabase } from '../test/database.ts';

const TZ = 'America/New_York';
const database = useTestDatabase();
let t: ReturnType<typeof createTestApp>;
/** The owner (the first account: takes website calls from the start) and two staff. */
const people: { id: string; cookie: string; email: string }[] = [];

const today = () => zonedParts(Date.now(), TZ).date;
const day = (n: number) => addDays(today(), n);

async function call<T>(method: string, path: string, body?: unknown, cookie?: string) {
  const res = await t.json(method, path, body, cookie ? { cookie } : {});
  const text = await res.text();
  return { status: res.status, body: (text ? JSON.parse(text) : undefined) as T };
}
const owner = <T>(method: string, path: string, body?: unknown) => call<T>(method, path, body, people[0]!.cookie);

async function newToken(email: string): Promise<string> {
  const res = await call<{ booking_token: string }>('POST', '/api/public/leads', validLead({ email }));
  expect(res.status).toBe(201);
  return res.body.booking_token;
}
const slotsOf = async (date: string) => (await call<Availability>('GET', `/api/public/availability?from=${date}&to=${date}`)).body.slots;
const book = (token: string, start: string) => call<unknown>('POST', '/api/public/bookings', { booking_token: token, start, type: 'Call' });
const takesCalls = (cookie: string) => call('PUT', '/api/account/availability', WORKS_EVERY_DAY, cookie);

beforeAll(() => {
  // The website's booking limits are off here: the race below is about people, not abuse.
  t = createTestApp(database, { BUSINESS_TIME_ZONE: TZ, BOOKING_RATE_LIMIT: '0', LEAD_RATE_LIMIT: '0', BOOKING_HOLD_ABOVE_PER_HOUR: '0' });
});
beforeEach(async () => {
  await execute(
    database.db,
    sql`truncate users, sessions, leads, appointments, booking_settings, booking_tokens, notifications, emails, rate_limits cascade`,
  );
  people.length = 0;
  for (const [i, email] of ['olive@example.com', 'sam@example.com', 'tess@example.com'].entries()) {
    const { user } = await ensureAdmin(database.db, email, `${email}-password`, i === 0 ? 'owner' : 'staff');
    people.push({ id: user.id, email, cookie: await signIn(t.json, email, `${email}-password`) });
  }
  expect((await owner('PUT', '/api/booking-settings', OPEN_EVERY_DAY)).status).toBe(200);
});

describe('working hours', () => {
  it('start as: the first account takes calls; the others do not until they say so, on the firm’s hours, holidays off', async () => {
    const first = await owner<MemberAvailabilityResponse>('GET', '/api/account/availability');
    expect(first.body).toMatchObject({
      user_id: people[0]!.id,
      bookable: true,
      hours: null,
      days_off: [],
      holidays_off: true,
      time_zone: TZ,
    });
    expect(first.body.firm_hours).toEqual(OPEN_EVERY_DAY.hours.map((h) => [h]));
    expect(first.body.holidays.length).toBeGreaterThanOrEqual(10);
    expect(first.body.holidays.every((h) => h.date >= today())).toBe(true);
    const staff = await call<MemberAvailabilityResponse>('GET', '/api/account/availability', undefined, people[1]!.cookie);
    expect(staff.body).toMatchObject({ user_id: people[1]!.id, bookable: false, hours: null, holidays_off: true });
  });

  it('keeps a lunch break: no slot inside it, and the day’s other stretches offered', async () => {
    await owner('PUT', '/api/account/availability', { ...WORKS_EVERY_DAY, bookable: false });
    const week = Array.from({ length: 7 }, () => [
      { start: '09:00', end: '12:00' },
      { start: '13:00', end: '15:00' },
    ]);
    const saved = await call<MemberAvailabilityResponse>(
      'PUT',
      '/api/account/availability',
      { ...WORKS_EVERY_DAY, hours: week },
      people[1]!.cookie,
    );
    expect(saved.status).toBe(200);
    expect(saved.body.hours).toEqual(week);
    const times = (await slotsOf(day(3))).map((s) => s.slice(11, 16));
    expect(times).toEqual(['09:00', '09:30', '10:00', '10:30', '11:00', '11:30', '13:00', '13:30', '14:00', '14:30']);
  });

  it('refuses overlapping stretches and bad dates with their messages, and changes nothing', async () => {
    const bad = await owner<ErrorResponse>('PUT', '/api/account/availability', {
      ...WORKS_EVERY_DAY,
      hours: [
        [
          { start: '09:00', end: '12:00' },
          { start: '11:00', end: '15:00' },
        ],
        [],
        [],
        [],
        [],
        [],
        [],
      ],
      days_off: ['2030-02-30'],
    });
    expect(bad.status).toBe(400);
    expect(bad.body.error.fields).toMatchObject({
      hours: 'Each stretch must start after the one before it ends',
      days_off: 'Invalid date',
    });
    expect((await owner<MemberAvailabilityResponse>('GET', '/api/account/availability')).body.hours).toBeNull();
  });

  it('lets an owner read and set anyone’s hours; staff cannot', async () => {
    const path = `/api/team/members/${people[2]!.id}/availability`;
    expect((await owner('PUT', path, WORKS_EVERY_DAY)).status).toBe(200);
    expect((await owner<MemberAvailabilityResponse>('GET', path)).body.bookable).toBe(true);
    expect((await call('GET', path, undefined, people[1]!.cookie)).status).toBe(403);
    expect((await call('PUT', path, WORKS_EVERY_DAY, people[1]!.cookie)).status).toBe(403);
    expect((await owner('GET', '/api/team/members/00000000-0000-4000-8000-000000000000/availability')).status).toBe(404);
  });

  it('takes federal holidays off unless the person works them', async () => {
    const [{ date: holiday } = { date: '' }] = (
      await owner<MemberAvailabilityResponse>('GET', '/api/account/availability')
    ).body.holidays.filter((h) => h.date > day(1) && h.date <= day(29));
    if (!holiday) return; // no federal holiday within the booking window this month
    expect(await slotsOf(holiday)).toEqual([]);
    await takesCalls(people[0]!.cookie);
    expect(await slotsOf(holiday)).toHaveLength(16);
  });
});

describe('hosts', () => {
  it('a person’s calls never overlap, two people’s may; the answer names the host', async () => {
    const lead = await owner<{ id: string }>('POST', '/api/leads', validLead({ submission_id: undefined, fill_ms: undefined }));
    const at = { lead_id: lead.body.id, date: day(5), time: '10:00', type: 'Call' };
    const mine = await owner<Appointment>('POST', '/api/appointments', at);
    expect(mine.status).toBe(201);
    expect(mine.body).toMatchObject({ host_id: people[0]!.id, host_name: expect.any(String) });
    const again = await owner<ErrorResponse>('POST', '/api/appointments', at);
    expect(again.status).toBe(409);
    const theirs = await owner<Appointment>('POST', '/api/appointments', { ...at, host_id: people[1]!.id });
    expect(theirs.status).toBe(201);
    expect(theirs.body.host_id).toBe(people[1]!.id);
    // Moving it onto its new host's existing call is the overlap warning; the database holds it too.
    const moved = await owner<ErrorResponse>('PATCH', `/api/appointments/${theirs.body.id}`, { host_id: people[0]!.id });
    expect(moved.status).toBe(409);
    await expect(
      execute(database.db, sql`update appointments set host_id = ${people[0]!.id}::uuid where id = ${theirs.body.id}`),
    ).rejects.toThrow();
    const list = await owner<AppointmentListResponse>('GET', `/api/appointments?from=${day(5)}&to=${day(5)}&host_id=${people[1]!.id}`);
    expect(list.body.appointments.map((a) => a.id)).toEqual([theirs.body.id]);
    // A deactivated person cannot be given a call.
    await execute(database.db, sql`update users set deactivated_at = now() where id = ${people[2]!.id}`);
    const gone = await owner<ErrorResponse>('POST', '/api/appointments', { ...at, time: '11:00', host_id: people[2]!.id });
    expect(gone.status).toBe(400);
    expect(gone.body.error.fields).toEqual({ host_id: 'Choose who takes the call' });
  });

  it('the website offers a time while anyone is free, and books the lead’s owner when free, else the least recently booked', async () => {
    for (const p of people) await takesCalls(p.cookie);
    const slot = (await slotsOf(day(4)))[2]!; // 10:00
    // Sam owns Jane's lead: Jane's call is Sam's.
    const jane = await newToken('jane@example.com');
    await execute(database.db, sql`update leads set owner_id = ${people[1]!.id}::uuid where email = 'jane@example.com'`);
    expect((await book(jane, slot)).status).toBe(201);
    // Nobody owns Kim's: whoever was booked least recently (never: Olive or Tess), and Kim's lead becomes theirs.
    const kim = await newToken('kim@example.com');
    expect((await book(kim, slot)).status).toBe(201);
    expect(await slotsOf(day(4))).toContain(slot);
    const lee = await newToken('lee@example.com');
    expect((await book(lee, slot)).status).toBe(201);
    expect(await slotsOf(day(4))).not.toContain(slot);
    const hosts = await rowsOf<{ email: string; host: string; owner: string }>(
      database.db,
      sql`select l.email, h.email as host, o.email as owner from appointments a join leads l on l.id = a.lead_id
          join users h on h.id = a.host_id join users o on o.id = l.owner_id order by l.email`,
    );
    expect(hosts.find((h) => h.email === 'jane@example.com')).toMatchObject({ host: 'sam@example.com', owner: 'sam@example.com' });
    expect(new Set(hosts.map((h) => h.host))).toEqual(new Set(people.map((p) => p.email)));
    for (const h of hosts) expect(h.owner).toBe(h.host);
    const timeline = await rowsOf<{ data: { to: string } }>(
      database.db,
      sql`select e.data from lead_events e join leads l on l.id = e.lead_id where l.email = 'kim@example.com' and e.kind = 'owner'`,
    );
    expect(timeline).toHaveLength(1);
  });

  it('three people free, 30 visitors racing for one time: exactly three bookings, one each', async () => {
    for (const p of people) await takesCalls(p.cookie);
    const tokens = await Promise.all(Array.from({ length: 30 }, (_, i) => newToken(`race${i}@example.com`)));
    const slot = (await slotsOf(day(6)))[5]!;
    const answers = await Promise.all(tokens.map((token) => book(token, slot)));
    expect(answers.filter((a) => a.status === 201)).toHaveLength(3);
    expect(answers.filter((a) => a.status === 409)).toHaveLength(27);
    const rows = await rowsOf<{ host_id: string }>(database.db, sql`select host_id from appointments where status = 'scheduled'`);
    expect(rows.map((r) => r.host_id).sort()).toEqual(people.map((p) => p.id).sort());
    expect(await slotsOf(day(6))).not.toContain(slot);
  });
});

describe('who takes website calls', () => {
  const settings = (extra: object) => owner('PUT', '/api/booking-settings', { ...OPEN_EVERY_DAY, ...extra });

  it('only the people chosen take website calls; choosing nobody or a stranger is refused', async () => {
    for (const p of people) await takesCalls(p.cookie);
    const [olive, sam] = people as [(typeof people)[0], (typeof people)[0]];
    const none = await settings({ website_hosts: 'chosen', website_host_ids: [] });
    expect(none.status).toBe(400);
    expect((none.body as ErrorResponse).error.fields).toEqual({ website_host_ids: 'Choose at least one person' });
    const stranger = await settings({ website_hosts: 'chosen', website_host_ids: ['00000000-0000-4000-8000-000000000001'] });
    expect(stranger.status).toBe(400);
    expect((stranger.body as ErrorResponse).error.fields).toEqual({ website_host_ids: 'Choose people on the team' });
    expect((await settings({ website_hosts: 'chosen', website_host_ids: [sam.id] })).status).toBe(200);
    // A client that does not know the choice leaves it as it is.
    const { website_hosts: _a, website_host_ids: _b, visitors_choose_host: _c, ...older } = { ...OPEN_EVERY_DAY };
    expect((await owner('PUT', '/api/booking-settings', older)).status).toBe(200);

    const slot = (await slotsOf(day(3)))[2]!;
    const first = await book(await newToken('first@example.com'), slot);
    const second = await book(await newToken('second@example.com'), slot);
    expect([first.status, second.status]).toEqual([201, 409]);
    const rows = await rowsOf<{ host_id: string }>(database.db, sql`select host_id from appointments`);
    expect(rows).toEqual([{ host_id: sam.id }]);
    expect(await slotsOf(day(3))).not.toContain(slot);
    // Everyone again: Olive and Tess are free at that time.
    expect((await settings({ website_hosts: 'everyone' })).status).toBe(200);
    expect(await slotsOf(day(3))).toContain(slot);
    expect(olive.id).not.toBe(sam.id);
  });

  it('visitors choose the person only when the owners let them: names and initials only, that person’s times and call', async () => {
    for (const p of people) await takesCalls(p.cookie);
    const sam = people[1]!;
    await execute(database.db, sql`update users set display_name = 'Sam Staff' where id = ${sam.id}`);
    const closed = await call<{ choose: boolean; hosts: unknown[] }>('GET', '/api/public/hosts');
    expect(closed.body).toEqual({ choose: false, hosts: [] });
    const refused = await call<ErrorResponse>('GET', `/api/public/availability?from=${day(2)}&to=${day(2)}&host_id=${sam.id}`);
    expect(refused.status).toBe(400);
    const token = await newToken('chooser@example.com');
    const slots = await slotsOf(day(2));
    expect(
      (await call<ErrorResponse>('POST', '/api/public/bookings', { booking_token: token, start: slots[0], type: 'Call', host_id: sam.id }))
        .status,
    ).toBe(400);

    expect((await settings({ visitors_choose_host: true })).status).toBe(200);
    const open = await call<{ choose: boolean; hosts: { id: string; name: string; initials: string }[] }>('GET', '/api/public/hosts');
    expect(open.body.choose).toBe(true);
    expect(open.body.hosts).toContainEqual({ id: sam.id, name: 'Sam Staff', initials: 'SS' });
    expect(open.body.hosts).toHaveLength(3);
    expect(JSON.stringify(open.body)).not.toContain('@example.com');

    // Sam has a call at the day's first time: the others are free then, Sam is not.
    expect(
      (
        await call('POST', '/api/public/bookings', {
          booking_token: await newToken('a@example.com'),
          start: slots[0],
          type: 'Call',
          host_id: sam.id,
        })
      ).status,
    ).toBe(201);
    const samsTimes = (await call<Availability>('GET', `/api/public/availability?from=${day(2)}&to=${day(2)}&host_id=${sam.id}`)).body
      .slots;
    expect(samsTimes).not.toContain(slots[0]);
    expect(samsTimes).toContain(slots[1]);
    expect(await slotsOf(day(2))).toContain(slots[0]);
    const taken = await call<ErrorResponse>('POST', '/api/public/bookings', {
      booking_token: token,
      start: slots[0],
      type: 'Call',
      host_id: sam.id,
    });
    expect(taken.status).toBe(409);
    expect(taken.body.error.slots).not.toContain(slots[0]);
    const withSam = await call<{ appointment: unknown }>('POST', '/api/public/bookings', {
      booking_token: token,
      start: slots[1],
      type: 'Call',
      host_id: sam.id,
    });
    expect(withSam.status).toBe(201);
    const hosts = await rowsOf<{ host_id: string }>(database.db, sql`select host_id from appointments`);
    expect(hosts).toEqual([{ host_id: sam.id }, { host_id: sam.id }]);
  });
});

describe('video links', () => {
  it('a Zoom call takes its host’s meeting link, else a Jitsi room of its own when the firm makes them, on the page and in the .ics', async () => {
    const [olive, sam] = people as [(typeof people)[0], (typeof people)[0]];
    for (const p of people.slice(0, 2)) await takesCalls(p.cookie);
    const bad = await call<ErrorResponse>(
      'PUT',
      '/api/account/availability',
      { ...WORKS_EVERY_DAY, meeting_link: 'zoom.us/j/1' },
      sam.cookie,
    );
    expect(bad.status).toBe(400);
    expect(bad.body.error.fields).toEqual({ meeting_link: 'Enter a link that starts with https://' });
    const link = 'https://zoom.us/j/5551234567';
    const saved = await call<MemberAvailabilityResponse>(
      'PUT',
      '/api/account/availability',
      { ...WORKS_EVERY_DAY, meeting_link: link },
      sam.cookie,
    );
    expect(saved.body.meeting_link).toBe(link);
    // Saving without the field keeps it.
    expect(
      (await call<MemberAvailabilityResponse>('PUT', '/api/account/availability', WORKS_EVERY_DAY, sam.cookie)).body.meeting_link,
    ).toBe(link);
    expect((await owner('PUT', '/api/booking-settings', { ...OPEN_EVERY_DAY, jitsi_links: true })).status).toBe(200);

    const slot = (await slotsOf(day(5)))[0]!;
    const tokens = [await newToken('zoom1@example.com'), await newToken('zoom2@example.com')];
    const booked = await Promise.all(
      tokens.map((token) =>
        call<{ booking: { join_url: string | null } }>('POST', '/api/public/bookings', { booking_token: token, start: slot, type: 'Zoom' }),
      ),
    );
    expect(booked.map((b) => b.status)).toEqual([201, 201]);
    const rows = await rowsOf<{ host_id: string; location: string }>(
      database.db,
      sql`select host_id, location from appointments order by host_id`,
    );
    const bySam = rows.find((r) => r.host_id === sam.id)!;
    const byOlive = rows.find((r) => r.host_id === olive.id)!;
    expect(bySam.location).toBe(link);
    expect(byOlive.location).toMatch(/^https:\/\/meet\.jit\.si\/call-[a-z2-7]{24}$/);
    expect(booked.map((b) => b.body.booking.join_url).sort()).toEqual([link, byOlive.location].sort());
    const ics = await t.json('GET', `/api/public/bookings/${tokens[0]}/calendar.ics`);
    const text = await ics.text();
    expect(text).toMatch(/^LOCATION:https:\/\/(zoom\.us|meet\.jit\.si)\//m);
    expect(text).toMatch(/^URL:https:\/\//m);
    // A phone call has no video link.
    const phone = await call<{ booking: { join_url: string | null } }>('POST', '/api/public/bookings', {
      booking_token: await newToken('phone@example.com'),
      start: (await slotsOf(day(5)))[0],
      type: 'Call',
    });
    expect(phone.body.booking.join_url).toBeNull();
  });
});
