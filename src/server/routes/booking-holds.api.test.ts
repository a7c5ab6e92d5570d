import { createHash } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { beforeEach, describe, expect, it } from 'vitest';
import type { Availability, BookingSettings, PendingBooking, PublicBooking } from '#shared/schemas/booking';
import type { ErrorResponse } from '#shared/schemas/error';
import { addDays, zonedParts } from '#shared/zoned-time';
import { ensureAdmin } from '../auth/accounts.ts';
import { deleteOldBookingHolds } from '../db/queries/booking-holds-queries.ts';
import { saveWebsiteContent } from '../db/queries/website-queries.ts';
import { defaultWebsiteContent } from '#shared/website-content';
import { execute } from '../db/sql.ts';
import { createTestApp, signIn, validLead } from '../test/test-app.ts';
import { OPEN_EVERY_DAY, WORKS_EVERY_DAY } from '../test/open-every-day.ts';
import { rowsOf, useTestDatabase } from '../test/database.ts';

/*
 * The website's booking limits and pending holds (docs/security.md, "Calendar exhaustion"):
 * bookings per client address and network per day, bookings held for an emailed confirmation
 * above the hourly threshold (or when the owners require it), and what happens with email off.
 * Client addresses are faked with TRUST_PROXY=on and X-Forwarded-For.
 */

const TZ = 'America/New_York';
const PHONE = '(301) 555-0100';
const database = useTestDatabase();
// Email on (never sent: the test apps' outbox is not started) unless a test says otherwise.
const MAIL_ON = { SMTP_URL: 'smtp://127.0.0.1:9', PUBLIC_URL: 'http://127.0.0.1:3000' };

type App = ReturnType<typeof createTestApp>;
type Answer<T> = { status: number; body: T; headers: Headers };

const appWith = (env: Record<string, string>): App =>
  createTestApp(database, { BUSINESS_TIME_ZONE: TZ, TRUST_PROXY: 'on', SITE_PHONE: PHONE, AVAILABILITY_RATE_LIMIT: '0', ...env });

async function call<T>(t: App, method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<Answer<T>> {
  const res = await t.json(method, path, body, headers);
  const text = await res.text();
  return { status: res.status, body: (text ? JSON.parse(text) : undefined) as T, headers: res.headers };
}
const from = (ip: string) => ({ 'x-forwarded-for': ip });

const today = () => zonedParts(Date.now(), TZ).date;
const day = (n: number) => addDays(today(), n);

let ownerCookie: string;
beforeEach(async () => {
  await execute(
    database.db,
    sql`truncate users, sessions, leads, appointments, booking_settings, booking_tokens, booking_holds, notifications, emails, public_mail_spends, rate_limits, audit_log, website_settings cascade`,
  );
  await ensureAdmin(database.db, 'owner@example.com', 'owner-password');
  const t = appWith({});
  ownerCookie = await signIn(t.json, 'owner@example.com', 'owner-password');
  await saveSettings(t, OPEN_EVERY_DAY);
  await call(t, 'PUT', '/api/account/availability', WORKS_EVERY_DAY, { cookie: ownerCookie });
});

const saveSettings = (t: App, settings: Partial<BookingSettings>) =>
  call<unknown>(t, 'PUT', '/api/booking-settings', { ...OPEN_EVERY_DAY, ...settings }, { cookie: ownerCookie });

async function newToken(t: App, ip = '127.0.0.1', email = `v${crypto.randomUUID().slice(0, 8)}@example.com`): Promise<string> {
  const res = await call<{ booking_token: string }>(t, 'POST', '/api/public/leads', validLead({ email }), from(ip));
  expect(res.status).toBe(201);
  return res.body.booking_token;
}
const slotsOf = async (t: App, a: string, b: string) =>
  (await call<Availability>(t, 'GET', `/api/public/availability?from=${a}&to=${b}`)).body.slots;
const book = <T = PublicBooking>(t: App, token: string, start: string, ip = '127.0.0.1') =>
  call<T>(t, 'POST', '/api/public/bookings', { booking_token: token, start, type: 'Call' }, from(ip));
const confirm = <T = PublicBooking>(t: App, token: string, code: string) =>
  call<T>(t, 'POST', `/api/public/bookings/${token}/confirm`, { code });
const scheduled = async () =>
  (await rowsOf<{ n: number }>(database.db, sql`select count(*)::int as n from appointments where status = 'scheduled'`))[0]!.n;

/** The confirmation link emailed for `token`'s hold: its code. */
async function emailedCode(token: string): Promise<string> {
  const rows = await rowsOf<{ link: string }>(
    database.db,
    sql`select data->>'link' as link from emails where kind = 'booking-confirmation' order by created_at desc`,
  );
  const link = rows.map((r) => r.link).find((l) => l.startsWith(`/booking/${token}/confirm/`));
  expect(link).toMatch(new RegExp(`^/booking/${token}/confirm/[A-Za-z0-9_-]{43}$`));
  return link!.split('/')[4]!;
}

describe('bookings per client address and network', () => {
  it('lets an address book BOOKING_RATE_LIMIT times a day and its /24 five times that, then asks them to call; a refused time does not count', async () => {
    const t = appWith({ BOOKING_RATE_LIMIT: '2' });
    const slots = await slotsOf(t, day(2), day(4));
    let next = 0;
    const bookFrom = async (ip: string) => book<ErrorResponse>(t, await newToken(t, ip), slots[next++]!, ip);

    expect((await bookFrom('127.0.5.1')).status).toBe(201);
    expect((await bookFrom('127.0.5.1')).status).toBe(201);
    const third = await bookFrom('127.0.5.1');
    expect(third.status).toBe(429);
    expect(third.body.error.message).toBe(
      `Too many online bookings from your network today. Please call us at ${PHONE} to book your call.`,
    );
    expect(Number(third.headers.get('retry-after'))).toBeGreaterThan(0);

    // A time someone else took is no booking: it does not use up the address's day.
    const taken = await book<ErrorResponse>(t, await newToken(t, '127.0.5.2'), slots[0]!, '127.0.5.2');
    expect(taken.status).toBe(409);
    for (const ip of ['127.0.5.2', '127.0.5.2', '127.0.5.3', '127.0.5.3', '127.0.5.4', '127.0.5.4', '127.0.5.5', '127.0.5.5'])
      expect((await bookFrom(ip)).status).toBe(201);
    // Ten from 127.0.5.0/24: its sixth address is refused, another network is not.
    expect((await bookFrom('127.0.5.6')).status).toBe(429);
    expect((await bookFrom('127.0.6.1')).status).toBe(201);
    expect(await scheduled()).toBe(11);
  });

  it('asks the visitor to call the phone the website shows (Settings → Website), not SITE_PHONE, once one is saved', async () => {
    const t = appWith({ BOOKING_RATE_LIMIT: '1' });
    await saveWebsiteContent(database.db, { ...defaultWebsiteContent('Keystone Due Diligence'), phone: '(443) 555-0142' });
    const slots = await slotsOf(t, day(2), day(2));
    expect((await book(t, await newToken(t, '127.0.7.1'), slots[0]!, '127.0.7.1')).status).toBe(201);
    const refused = await book<ErrorResponse>(t, await newToken(t, '127.0.7.1'), slots[1]!, '127.0.7.1');
    expect(refused.status).toBe(429);
    expect(refused.body.error.message).toBe(
      'Too many online bookings from your network today. Please call us at (443) 555-0142 to book your call.',
    );
  });

  it('counts an IPv6 client by its /64', async () => {
    const t = appWith({ BOOKING_RATE_LIMIT: '2' });
    const slots = await slotsOf(t, day(2), day(2));
    let next = 0;
    const bookFrom = async (ip: string) => (await book(t, await newToken(t, ip), slots[next++]!, ip)).status;
    expect(await bookFrom('2001:db8:1:2::1')).toBe(201);
    expect(await bookFrom('2001:db8:1:2:aaaa::2')).toBe(201);
    expect(await bookFrom('2001:db8:1:2:ffff::9')).toBe(429);
    expect(await bookFrom('2001:db8:1:3::1')).toBe(201);
  });

  it('0 turns the limit off', async () => {
    const t = appWith({ BOOKING_RATE_LIMIT: '0' });
    const slots = await slotsOf(t, day(2), day(2));
    for (const slot of slots.slice(0, 5)) expect((await book(t, await newToken(t, '127.0.5.1'), slot, '127.0.5.1')).status).toBe(201);
  });
});

describe('bookings held for an emailed confirmation', () => {
  it('above the hourly threshold: 202 pending, the time still offered, a link emailed; confirming books it and only then tells staff', async () => {
    const t = appWith({ ...MAIL_ON, BOOKING_HOLD_ABOVE_PER_HOUR: '1' });
    const slots = await slotsOf(t, day(2), day(2));
    expect((await book(t, await newToken(t), slots[0]!)).status).toBe(201);

    const token = await newToken(t, '127.0.0.1', 'held@example.com');
    await execute(database.db, sql`delete from notifications`);
    const held = await book<PendingBooking>(t, token, slots[3]!);
    expect(held.status).toBe(202);
    expect(held.body).toMatchObject({
      status: 'pending',
      booking: null,
      manage_path: `/booking/${token}`,
      pending: { start: slots[3], type: 'Call' },
    });
    const minutes = (Date.parse(held.body.expires_at) - Date.now()) / 60_000;
    expect(minutes).toBeGreaterThan(29);
    expect(minutes).toBeLessThanOrEqual(30);
    // Not taken: others may still book it; nothing on the calendar, nobody but the owners told (of the spike).
    expect(await slotsOf(t, day(2), day(2))).toContain(slots[3]);
    expect(await scheduled()).toBe(1);
    const notes = await rowsOf<{ message: string }>(database.db, sql`select message from notifications`);
    expect(notes.map((n) => n.message)).toEqual([expect.stringMatching(/^Website bookings are unusually busy: more than 1 this hour\./)]);
    // The email: to the address alone (no name the visitor typed), with the link; only its code's hash is stored.
    const mails = await rowsOf<{ to_address: string; to_name: string | null; status: string }>(
      database.db,
      sql`select to_address, to_name, status from emails where kind = 'booking-confirmation'`,
    );
    expect(mails).toEqual([{ to_address: 'held@example.com', to_name: null, status: 'queued' }]);
    const code = await emailedCode(token);
    const stored = await rowsOf<{ confirm_hash: string }>(database.db, sql`select confirm_hash from booking_holds`);
    expect(stored).toEqual([{ confirm_hash: createHash('sha256').update(code).digest('hex') }]);
    expect(JSON.stringify(stored)).not.toContain(code);
    // The link's page shows the time waiting.
    const page = await call<PublicBooking>(t, 'GET', `/api/public/bookings/${token}`);
    expect(page.body.pending).toMatchObject({ start: slots[3], expires_at: held.body.expires_at });

    expect((await confirm(t, token, 'A'.repeat(43))).status).toBe(404);
    const done = await confirm(t, token, code);
    expect(done.status).toBe(200);
    expect(done.body).toMatchObject({ booking: { start: slots[3], status: 'scheduled' }, pending: null, can_change: true });
    expect(await slotsOf(t, day(2), day(2))).not.toContain(slots[3]);
    const told = await rowsOf<{ message: string }>(database.db, sql`select message from notifications where message like 'New booking:%'`);
    expect(told).toHaveLength(1);
    const invitation = await rowsOf<{ manage_path: string }>(
      database.db,
      sql`select data->>'manage_path' as manage_path from emails where kind = 'appointment' and to_address = 'held@example.com'`,
    );
    expect(invitation).toEqual([{ manage_path: `/booking/${token}` }]);
    // A second click answers the same, and books nothing more.
    expect((await confirm(t, token, code)).status).toBe(200);
    expect(await scheduled()).toBe(2);
    // Sent, the message keeps no usable link.
    await execute(database.db, sql`update emails set status = 'sent', data = data - 'link' where kind = 'booking-confirmation'`);
  });

  it("the owners' switch holds every booking, whatever the hour", async () => {
    const t = appWith({ ...MAIL_ON, BOOKING_HOLD_ABOVE_PER_HOUR: '0' });
    expect((await saveSettings(t, { require_email_confirmation: true })).status).toBe(200);
    const slots = await slotsOf(t, day(2), day(2));
    expect((await book(t, await newToken(t), slots[0]!)).status).toBe(202);
    expect((await book(t, await newToken(t), slots[1]!)).status).toBe(202);
    expect(await scheduled()).toBe(0);
    // Audited like every booking setting.
    const audit = await rowsOf<{ details: { changes: Record<string, unknown> } }>(
      database.db,
      sql`select details from audit_log where action = 'settings_changed'`,
    );
    expect(audit.map((a) => a.details.changes.require_email_confirmation).filter(Boolean)).toEqual([{ from: false, to: true }]);
  });

  it("refuses a hold whose confirmation email the address's visitor mail budget cannot pay for, asking to call, and stores no hold", async () => {
    const t = appWith({ ...MAIL_ON, BOOKING_HOLD_ABOVE_PER_HOUR: '0', PUBLIC_MAIL_PER_ADDRESS_PER_DAY: '2' });
    await saveSettings(t, { require_email_confirmation: true });
    const slots = await slotsOf(t, day(2), day(2));
    const email = 'spent@example.net';
    // The form's acknowledgement and the first confirmation link spend the address's two.
    const first = await newToken(t, '127.0.7.1', email);
    expect((await book(t, first, slots[0]!, '127.0.7.1')).status).toBe(202);
    const second = await newToken(t, '127.0.7.2', email);
    const refused = await book<ErrorResponse>(t, second, slots[1]!, '127.0.7.2');
    expect(refused.status).toBe(429);
    expect(refused.body.error.message).toBe(
      `We cannot email you a confirmation link right now. Please call us at ${PHONE} to book your call.`,
    );
    const holds = await rowsOf<{ n: number }>(database.db, sql`select count(*)::int as n from booking_holds`);
    expect(holds[0]!.n).toBe(1);
    const links = await rowsOf<{ n: number }>(database.db, sql`select count(*)::int as n from emails where kind = 'booking-confirmation'`);
    expect(links[0]!.n).toBe(1);
    // Another address is not affected.
    expect((await book(t, await newToken(t, '127.0.7.3'), slots[1]!, '127.0.7.3')).status).toBe(202);
  });

  it('two holds of one time: the first confirmation books it, the other gets 409 and the open times', async () => {
    const t = appWith({ ...MAIL_ON });
    await saveSettings(t, { require_email_confirmation: true });
    const slot = (await slotsOf(t, day(3), day(3)))[4]!;
    const [a, b] = [await newToken(t), await newToken(t)];
    expect((await book(t, a, slot)).status).toBe(202);
    expect((await book(t, b, slot)).status).toBe(202);
    const [codeA, codeB] = [await emailedCode(a), await emailedCode(b)];
    const answers = await Promise.all([confirm<ErrorResponse>(t, a, codeA), confirm<ErrorResponse>(t, b, codeB)]);
    expect(answers.map((r) => r.status).sort()).toEqual([200, 409]);
    const lost = answers.find((r) => r.status === 409)!;
    expect(lost.body.error.message).toBe('Sorry, that time was just taken. Please pick another time.');
    expect(lost.body.error.slots).toHaveLength(15);
    expect(lost.body.error.slots).not.toContain(slot);
    expect(await scheduled()).toBe(1);
  });

  it('a hold expires after 30 minutes: its link says so and books nothing; the clean-up job removes it a day later', async () => {
    const t = appWith({ ...MAIL_ON });
    await saveSettings(t, { require_email_confirmation: true });
    const slot = (await slotsOf(t, day(2), day(2)))[2]!;
    const token = await newToken(t);
    expect((await book(t, token, slot)).status).toBe(202);
    const code = await emailedCode(token);
    const life = await rowsOf<{ minutes: number }>(
      database.db,
      sql`select extract(epoch from expires_at - created_at)::int / 60 as minutes from booking_holds`,
    );
    expect(life).toEqual([{ minutes: 30 }]);
    // 30 minutes and a second later.
    await execute(
      database.db,
      sql`update booking_holds set created_at = created_at - interval '30 minutes 1 second', expires_at = expires_at - interval '30 minutes 1 second'`,
    );
    const late = await confirm<ErrorResponse>(t, token, code);
    expect(late.status).toBe(422);
    expect(late.body.error.message).toBe('This confirmation link has expired: links work for 30 minutes. Please pick a time again.');
    expect(await scheduled()).toBe(0);
    expect((await call<PublicBooking>(t, 'GET', `/api/public/bookings/${token}`)).body).toMatchObject({ pending: null, can_book: true });
    // The link may book again (a new hold, a new code).
    expect((await book(t, token, slot)).status).toBe(202);
    expect(await emailedCode(token)).not.toBe(code);

    expect(await deleteOldBookingHolds(database.db)).toBe(0);
    await execute(database.db, sql`update booking_holds set expires_at = now() - interval '1 day 1 minute'`);
    expect(await deleteOldBookingHolds(database.db)).toBe(1);
  });
});

describe('with email off', () => {
  it("refuses bookings above the threshold with the firm's phone, storing nothing", async () => {
    const t = appWith({ BOOKING_HOLD_ABOVE_PER_HOUR: '1' });
    const slots = await slotsOf(t, day(2), day(2));
    expect((await book(t, await newToken(t), slots[0]!)).status).toBe(201);
    const refused = await book<ErrorResponse>(t, await newToken(t), slots[1]!);
    expect(refused.status).toBe(429);
    expect(refused.body.error.message).toBe(
      `We are receiving unusually many online bookings and cannot confirm yours by email right now. Please call us at ${PHONE} to book your call.`,
    );
    expect(await scheduled()).toBe(1);
    expect(await rowsOf(database.db, sql`select 1 from booking_holds`)).toHaveLength(0);
    expect(await rowsOf(database.db, sql`select 1 from emails where kind = 'booking-confirmation'`)).toHaveLength(0);
  });

  it("refuses to turn the owners' switch on, and says email is off", async () => {
    const t = appWith({});
    const settings = await call<{ email_on: boolean; require_email_confirmation: boolean }>(t, 'GET', '/api/booking-settings', undefined, {
      cookie: ownerCookie,
    });
    expect(settings.body).toMatchObject({ email_on: false, require_email_confirmation: false });
    const refused = await saveSettings(t, { require_email_confirmation: true });
    expect(refused.status).toBe(400);
    expect((refused.body as ErrorResponse).error.fields).toEqual({
      require_email_confirmation: 'Email is off on this server (no SMTP_URL), so no confirmation link could be sent. Turn email on first.',
    });
    const on = await call<{ email_on: boolean }>(appWith(MAIL_ON), 'GET', '/api/booking-settings', undefined, { cookie: ownerCookie });
    expect(on.body.email_on).toBe(true);
  });
});

describe('the spike notification', () => {
  it('tells each active owner once per hour when bookings pass the threshold, whatever the processes', async () => {
    await ensureAdmin(database.db, 'second-owner@example.com', 'owner-password');
    await ensureAdmin(database.db, 'staff@example.com', 'staff-password', 'staff');
    // Two app instances on one database stand for two processes.
    const [one, two] = [
      appWith({ ...MAIL_ON, BOOKING_HOLD_ABOVE_PER_HOUR: '2' }),
      appWith({ ...MAIL_ON, BOOKING_HOLD_ABOVE_PER_HOUR: '2' }),
    ];
    const slots = await slotsOf(one, day(2), day(2));
    const tokens = await Promise.all(slots.slice(0, 10).map(() => newToken(one)));
    const answers = await Promise.all(tokens.map((token, i) => book(i % 2 ? one : two, token, slots[i]!)));
    expect(answers.filter((a) => a.status === 201)).toHaveLength(2);
    expect(answers.filter((a) => a.status === 202)).toHaveLength(8);
    const spikes = await rowsOf<{ email: string; message: string }>(
      database.db,
      sql`select u.email, n.message from notifications n join users u on u.id = n.user_id where n.message like 'Website bookings%' order by u.email`,
    );
    expect(spikes).toEqual([
      {
        email: 'owner@example.com',
        message: 'Website bookings are unusually busy: more than 2 this hour. New ones now wait until the visitor confirms them by email.',
      },
      {
        email: 'second-owner@example.com',
        message: 'Website bookings are unusually busy: more than 2 this hour. New ones now wait until the visitor confirms them by email.',
      },
    ]);
  });
});

describe('the calendar exhaustion attack', () => {
  it('40 addresses in 40 networks racing for every open time of 60 days get at most 10% of them, and a visitor still books', async () => {
    const started = Date.now();
    const t = appWith({ ...MAIL_ON, BOOKING_RATE_LIMIT: '2', BOOKING_HOLD_ABOVE_PER_HOUR: '6' });
    await saveSettings(t, { horizon_days: 60 });
    // Open times come at most 31 days a request: two pages.
    const open = [...(await slotsOf(t, day(0), day(30))), ...(await slotsOf(t, day(31), day(60)))];
    expect(open.length).toBeGreaterThan(900);

    // Attacker i takes every 40th time from its i-th, until refused twice in a row.
    const attack = async (i: number) => {
      const ip = `127.0.${10 + i}.${1 + i}`;
      let refusals = 0;
      for (let k = i; k < open.length && refusals < 2; k += 40) {
        const status = (await book(t, await newToken(t, ip, `bot${i}-${k}@example.net`), open[k]!, ip)).status;
        refusals = status === 429 ? refusals + 1 : 0;
      }
    };
    await Promise.all(Array.from({ length: 40 }, (_, i) => attack(i)));
    expect(Date.now() - started).toBeLessThan(120_000);

    const taken = await scheduled();
    expect(taken).toBeLessThanOrEqual(open.length / 10);
    // The hourly threshold lets 6 through (12 if the attack straddles the turn of an hour).
    expect(taken).toBeLessThanOrEqual(12);

    // A visitor from elsewhere: held (the hour is busy), confirms from the email, booked.
    const visitor = await newToken(t, '203.0.113.7', 'real.person@example.com');
    const free = (await slotsOf(t, day(5), day(5)))[0]!;
    const held = await book<PendingBooking>(t, visitor, free, '203.0.113.7');
    expect(held.status).toBe(202);
    const booked = await confirm(t, visitor, await emailedCode(visitor));
    expect(booked.status).toBe(200);
    expect(booked.body.booking).toMatchObject({ start: free, status: 'scheduled' });
  });
});
