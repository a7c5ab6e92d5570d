import { sql } from 'drizzle-orm';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { AVAILABILITY_MAX_DAYS } from '#shared/constants';
import type { Availability, BookingSettings } from '#shared/schemas/booking';
import type { ErrorResponse } from '#shared/schemas/error';
import { addDays, zonedInstant, zonedParts } from '#shared/zoned-time';
import { ensureAdmin } from '../auth/accounts.ts';
import { execute } from '../db/sql.ts';
import { createTestApp, signIn, validLead } from '../test/test-app.ts';
import { OPEN_EVERY_DAY, WORKS_EVERY_DAY } from '../test/open-every-day.ts';
import { rowsOf, useTestDatabase } from '../test/database.ts';
import { clearDatabaseClock, middleOfWindow, setDatabaseClock } from '../test/database-clock.ts';

/*
 * GET /api/public/availability: open times cached per availability version (two test apps on
 * one database stand for two processes, each with its own cache), the range one request may
 * ask for, the per-address limit, and how long one request may hold the event loop.
 */
const TZ = 'America/New_York';
const database = useTestDatabase();
const today = () => zonedParts(Date.now(), TZ).date;
const day = (n: number) => addDays(today(), n);

/** The widest settings an owner may save: every day, all day, 10-minute slots, no notice, a year ahead. */
const WIDEST: BookingSettings = {
  ...OPEN_EVERY_DAY,
  hours: Array.from({ length: 7 }, () => ({ start: '00:00', end: '23:59' })),
  slot_minutes: 10,
  min_notice_hours: 0,
  horizon_days: 365,
};

type App = ReturnType<typeof createTestApp>;
const availability = async (app: App, from: string, to: string, headers: Record<string, string> = {}) => {
  const res = await app.json('GET', `/api/public/availability?from=${from}&to=${to}`, undefined, headers);
  return { status: res.status, headers: res.headers, body: (await res.json()) as Availability & ErrorResponse };
};

let cookie: string | undefined;
beforeEach(async () => {
  cookie = undefined;
  await execute(
    database.db,
    sql`truncate users, sessions, leads, appointments, booking_settings, booking_tokens, notifications, emails, rate_limits cascade`,
  );
  await ensureAdmin(database.db, 'desk@example.com', 'desk-password');
});
afterEach(() => {
  vi.useRealTimers();
});

async function saveSettings(app: App, settings: BookingSettings) {
  cookie ??= await signIn(app.json, 'desk@example.com', 'desk-password');
  const res = await app.json('PUT', '/api/booking-settings', settings, { cookie });
  expect(res.status).toBe(200);
  expect((await app.json('PUT', '/api/account/availability', WORKS_EVERY_DAY, { cookie })).status).toBe(200);
}

describe('cached open times across processes', () => {
  it('a change committed through one process is gone from (or back in) the other’s cached answer at once', async () => {
    const [a, b] = [createTestApp(database, { BUSINESS_TIME_ZONE: TZ }), createTestApp(database, { BUSINESS_TIME_ZONE: TZ })];
    await saveSettings(a, OPEN_EVERY_DAY);
    const date = day(2);
    const all = (await availability(a, date, date)).body.slots;
    expect(all).toHaveLength(16);
    expect((await availability(b, date, date)).body.slots).toEqual(all);
    // Both now answer from their caches.
    const cached = [a.availability.stats.cachedAnswers, b.availability.stats.cachedAnswers];
    expect((await availability(a, date, date)).body.slots).toEqual(all);
    expect((await availability(b, date, date)).body.slots).toEqual(all);
    expect([a.availability.stats.cachedAnswers, b.availability.stats.cachedAnswers]).toEqual([cached[0]! + 1, cached[1]! + 1]);

    // A visitor books through B: A no longer offers that time.
    const lead = await b.json('POST', '/api/public/leads', validLead());
    const { booking_token } = (await lead.json()) as { booking_token: string };
    expect((await b.json('POST', '/api/public/bookings', { booking_token, start: all[3], type: 'Call' })).status).toBe(201);
    expect((await availability(a, date, date)).body.slots).toEqual(all.filter((s) => s !== all[3]));

    // Staff schedule a call through A (30 minutes at 13:00): B no longer offers it.
    const { id: leadId } = (await rowsOf<{ id: string }>(database.db, sql`select id from leads`))[0]!;
    const made = await a.json(
      'POST',
      '/api/appointments',
      { lead_id: leadId, date, time: '13:00', type: 'Call', duration_minutes: 30 },
      { cookie: cookie! },
    );
    expect(made.status).toBe(201);
    const { id: appointmentId } = (await made.json()) as { id: string };
    const at13 = all.find((s) => s.includes('T13:00'))!;
    expect((await availability(b, date, date)).body.slots).toEqual(all.filter((s) => s !== all[3] && s !== at13));

    // Cancelled through B: A offers it again.
    expect((await b.json('PATCH', `/api/appointments/${appointmentId}`, { status: 'cancelled' }, { cookie })).status).toBe(200);
    expect((await availability(a, date, date)).body.slots).toEqual(all.filter((s) => s !== all[3]));

    // Settings saved through B (hour-long slots): A answers with them.
    await saveSettings(b, { ...OPEN_EVERY_DAY, slot_minutes: 60 });
    const hourly = (await availability(a, date, date)).body;
    expect(hourly.slot_minutes).toBe(60);
    expect(hourly.slots).toHaveLength(7); // 9 to 5 but the hour of the booked 10:30 call

    // A change from outside the app (a script, a restore) counts the same.
    await execute(database.db, sql`delete from appointments`);
    expect((await availability(a, date, date)).body.slots).toHaveLength(8);
    expect((await availability(b, date, date)).body.slots).toHaveLength(8);
  });

  it('does not start over for a change that cannot move an open time (a reminder marked sent)', async () => {
    const a = createTestApp(database, { BUSINESS_TIME_ZONE: TZ });
    await saveSettings(a, OPEN_EVERY_DAY);
    await availability(a, day(1), day(3));
    const computed = a.availability.stats.computedDays;
    await execute(database.db, sql`update appointments set reminder_sent_at = now()`);
    const lead = await a.json('POST', '/api/public/leads', validLead());
    expect(lead.status).toBe(201);
    await availability(a, day(1), day(3));
    expect(a.availability.stats.computedDays).toBe(computed);
  });

  it('drops the times within the minimum notice from a cached answer as the clock moves, and adds the next day at midnight', async () => {
    const a = createTestApp(database, { BUSINESS_TIME_ZONE: TZ });
    await saveSettings(a, { ...OPEN_EVERY_DAY, hours: WIDEST.hours, slot_minutes: 60, min_notice_hours: 2, horizon_days: 1 });
    // 19:30 on the business clock, tomorrow: the clock is the test's (the database keeps its own).
    // Hour-long slots from midnight: the last starts at 22:00.
    const date = day(1);
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(zonedInstant(date, 19 * 60 + 30, TZ)!);
    const first = (await availability(a, date, addDays(date, 2))).body;
    expect(first.slots.filter((s) => s.startsWith(date)).map((s) => s.slice(11, 16))).toEqual(['22:00']);
    expect(first.last_date).toBe(addDays(date, 1));
    const computed = a.availability.stats.computedDays;

    // 20:30: 22:00 is now within the two hours' notice.
    vi.setSystemTime(zonedInstant(date, 20 * 60 + 30, TZ)!);
    const later = (await availability(a, date, addDays(date, 2))).body;
    expect(later.slots.filter((s) => s.startsWith(date))).toEqual([]);
    expect(later.slots[0]).toBe(`${addDays(date, 1)}T00:00:00${first.slots[0]!.slice(19)}`);
    expect(a.availability.stats.computedDays).toBe(computed);

    // Past midnight the window reaches one more day.
    vi.setSystemTime(zonedInstant(addDays(date, 1), 5, TZ)!);
    const next = (await availability(a, date, addDays(date, 2))).body;
    expect(next.last_date).toBe(addDays(date, 2));
    expect(next.slots.some((s) => s.startsWith(addDays(date, 2)))).toBe(true);
    expect(next.slots.some((s) => s.startsWith(date))).toBe(false);
  });
});

describe('the range one request may ask for', () => {
  it(`answers up to ${AVAILABILITY_MAX_DAYS} days, and a longer range 400 with what to do`, async () => {
    const a = createTestApp(database, { BUSINESS_TIME_ZONE: TZ });
    const ok = await availability(a, day(0), day(AVAILABILITY_MAX_DAYS - 1));
    expect(ok.status).toBe(200);
    const tooLong = await availability(a, day(0), day(AVAILABILITY_MAX_DAYS));
    expect(tooLong.status).toBe(400);
    expect(tooLong.body.error).toMatchObject({
      code: 'validation_failed',
      fields: { to: `Ask for at most ${AVAILABILITY_MAX_DAYS} days at a time` },
    });
    expect(AVAILABILITY_MAX_DAYS).toBeLessThanOrEqual(31);
  });

  it('says the last date that may be booked, so a page can ask page after page up to it', async () => {
    const a = createTestApp(database, { BUSINESS_TIME_ZONE: TZ });
    await saveSettings(a, WIDEST);
    const page = (await availability(a, day(-1), day(29))).body;
    expect(page.last_date).toBe(day(365));
    const end = (await availability(a, day(350), day(380))).body;
    expect(end.slots.at(-1)!.startsWith(day(365))).toBe(true);
  });
});

describe('the per-address limit', () => {
  // A burst must stay in one minute's window of the limit: the database's clock stands still in the
  // middle of one (the real clock is at most 30 s away, so the dates asked for are the same days).
  beforeEach(() => setDatabaseClock(database, middleOfWindow(60)));
  afterEach(() => clearDatabaseClock(database));

  it('answers 429 with Retry-After past AVAILABILITY_RATE_LIMIT a minute, per address (an IPv6 /64 as one), across processes', async () => {
    const env = { BUSINESS_TIME_ZONE: TZ, AVAILABILITY_RATE_LIMIT: '3', TRUST_PROXY: 'on' };
    const [a, b] = [createTestApp(database, env), createTestApp(database, env)];
    const from = (ip: string) => ({ 'x-forwarded-for': ip });
    const statuses = [];
    for (const app of [a, b, a, b]) statuses.push((await availability(app, day(0), day(6), from('203.0.113.9'))).status);
    expect(statuses).toEqual([200, 200, 200, 429]);
    const limited = await availability(a, day(0), day(6), from('203.0.113.9'));
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get('retry-after'))).toBe(60);
    expect(limited.body.error).toMatchObject({
      code: 'rate_limited',
      message: 'Too many requests for open times. Please try again in 1 minute.',
    });
    // Another address is not affected; one IPv6 subscriber's /64 counts as one.
    expect((await availability(b, day(0), day(6), from('203.0.113.10'))).status).toBe(200);
    const v6 = [];
    for (const ip of ['2001:db8:1:2::1', '2001:db8:1:2::2', '2001:db8:1:2:ffff::3', '2001:db8:1:2::4'])
      v6.push((await availability(a, day(0), day(6), from(ip))).status);
    expect(v6).toEqual([200, 200, 200, 429]);
  });

  it('lets a visitor page through a year of dates, and turns off with 0', async () => {
    const a = createTestApp(database, { BUSINESS_TIME_ZONE: TZ, TRUST_PROXY: 'on' });
    await saveSettings(a, WIDEST);
    // The picker's pages for a year (from yesterday on this device), twice over.
    const statuses = [];
    for (let round = 0; round < 2; round++) {
      for (let start = -1; start <= 365; start += AVAILABILITY_MAX_DAYS) {
        statuses.push(
          (await availability(a, day(start), day(start + AVAILABILITY_MAX_DAYS - 1), { 'x-forwarded-for': '198.51.100.20' })).status,
        );
      }
    }
    expect(statuses.every((s) => s === 200)).toBe(true);
    expect(a.config.availabilityRateLimit).toBeGreaterThanOrEqual(statuses.length * 4);
    const off = createTestApp(database, { BUSINESS_TIME_ZONE: TZ, AVAILABILITY_RATE_LIMIT: '0' });
    for (let i = 0; i < 20; i++) expect((await availability(off, day(0), day(1))).status).toBe(200);
    expect(
      await rowsOf(database.db, sql`select key from rate_limits where key like 'availability:%' and key not like '%198.51.100.20'`),
    ).toEqual([]);
  });
});

/**
 * The longest the event loop was held while `work` ran, two ways. A setImmediate callback runs
 * once per turn of the loop, so the gaps between two of them are its turns: the longest gap in
 * wall-clock time, and the most CPU time this process used within one turn. Whatever holds the
 * loop is code running on it (the request's own, PGlite's, which runs in-process), so on a
 * busy machine the CPU figure is the one that counts: the wall-clock gap also holds the time
 * other processes had the core.
 */
async function loopHeld(work: () => Promise<void>): Promise<{ wallMs: number; cpuMs: number }> {
  let done = false;
  let last = performance.now();
  let lastCpu = process.cpuUsage();
  const longest = { wallMs: 0, cpuMs: 0 };
  const turn = () => {
    const now = performance.now();
    const cpu = process.cpuUsage(lastCpu);
    longest.wallMs = Math.max(longest.wallMs, now - last);
    longest.cpuMs = Math.max(longest.cpuMs, (cpu.user + cpu.system) / 1000);
    last = now;
    lastCpu = process.cpuUsage();
    if (!done) setImmediate(turn);
  };
  setImmediate(turn);
  try {
    await work();
  } finally {
    done = true;
  }
  turn();
  return longest;
}

describe('the event loop', () => {
  it('is not held over 50 ms by a request for the longest range with the widest settings, computed afresh', async () => {
    const a = createTestApp(database, { BUSINESS_TIME_ZONE: TZ, AVAILABILITY_RATE_LIMIT: '0' });
    await saveSettings(a, WIDEST);
    // A booked call every two hours of the range, so the busy times are read and merged too.
    const { id: leadId } = (
      await rowsOf<{ id: string }>(
        database.db,
        sql`insert into leads (full_name, email, phone, property_types) values ('Busy Person', 'busy@example.com', '555', '{land}') returning id`,
      )
    )[0]!;
    await execute(
      database.db,
      sql`
      insert into appointments (lead_id, date, time, type, duration_minutes, source)
      select ${leadId}, ${day(1)}::date + (h / 12), make_time((h % 12) * 2, 0, 0), 'Call', 30, 'booking'
      from generate_series(0, ${AVAILABILITY_MAX_DAYS * 12 - 1}::int) h`,
    );
    const runs: { wallMs: number; cpuMs: number }[] = [];
    // The first five warm up (a process that has served a few requests has compiled this
    // code); the nine after them are measured.
    for (let i = -5; i < 9; i++) {
      // Something changed: every request computes its range again (the costliest case).
      await execute(database.db, sql`update booking_settings set updated_at = now()`);
      const computed = a.availability.stats.computedDays;
      let slots = 0;
      const held = await loopHeld(async () => {
        const res = await a.json('GET', `/api/public/availability?from=${day(i + 5)}&to=${day(i + 5 + AVAILABILITY_MAX_DAYS - 1)}`);
        expect(res.status).toBe(200);
        slots = ((await res.json()) as Availability).slots.length;
      });
      if (i >= 0) runs.push(held);
      expect(slots).toBeGreaterThan(AVAILABILITY_MAX_DAYS * 90);
      expect(a.availability.stats.computedDays - computed).toBe(AVAILABILITY_MAX_DAYS);
    }
    const sorted = (f: (r: (typeof runs)[number]) => number) => runs.map(f).sort((x, y) => x - y);
    const cpu = sorted((r) => r.cpuMs);
    console.log(
      `availability, ${AVAILABILITY_MAX_DAYS} days of the widest settings computed afresh, 9 requests (ms, sorted): ` +
        `longest turn of the event loop in CPU time ${cpu.map((ms) => ms.toFixed(1)).join(', ')}; in wall-clock time ${sorted(
          (r) => r.wallMs,
        )
          .map((ms) => ms.toFixed(1))
          .join(', ')}`,
    );
    // The median of nine: a collection or a compilation in one of them does not decide it.
    expect(cpu[4]).toBeLessThan(50);
  });
});
