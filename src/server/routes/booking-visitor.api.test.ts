import { sql } from 'drizzle-orm';
import { beforeEach, describe, expect, it } from 'vitest';
import type { Availability, PendingBooking, PublicBooking } from '#shared/schemas/booking';
import { TIME_ZONE_MESSAGE } from '#shared/schemas/booking';
import type { ErrorResponse } from '#shared/schemas/error';
import { addDays, zonedParts } from '#shared/zoned-time';
import { ensureAdmin } from '../auth/accounts.ts';
import { execute } from '../db/sql.ts';
import { mailContext } from '../mail/mail-context.ts';
import { composeEmail } from '../mail/messages.ts';
import { createTestApp, signIn, validLead } from '../test/test-app.ts';
import { OPEN_EVERY_DAY, WORKS_EVERY_DAY } from '../test/open-every-day.ts';
import { rowsOf, useTestDatabase } from '../test/database.ts';

/*
 * What a visitor who books online is told, and that it is true (docs/product-rules.md,
 * "Booking"): each answer to a change says whether an email was queued (email off: no); the
 * visitor's time zone is checked, kept with the call (and with a held booking) and shown in
 * the mails beside the firm's; and the call comes as an .ics file with the invitation's UID,
 * plus links for Google Calendar and Outlook.
 */
const TZ = 'America/New_York';
const LA = 'America/Los_Angeles';
const database = useTestDatabase();
// Email on, never sent (the test app's outbox is not started).
const MAIL_ON = {
  SMTP_URL: 'smtp://127.0.0.1:9',
  MAIL_FROM: '"Keystone Due Diligence" <hello@keystone.test>',
  PUBLIC_URL: 'http://127.0.0.1:3000',
};
type App = ReturnType<typeof createTestApp>;

const appWith = (env: Record<string, string> = {}): App =>
  createTestApp(database, { BUSINESS_TIME_ZONE: TZ, AVAILABILITY_RATE_LIMIT: '0', ...env });
const day = (n: number) => addDays(zonedParts(Date.now(), TZ).date, n);

async function call<T>(t: App, method: string, path: string, body?: unknown, headers: Record<string, string> = {}) {
  const res = await t.json(method, path, body, headers);
  const text = await res.text();
  return {
    status: res.status,
    body: (text && res.headers.get('content-type')?.includes('json') ? JSON.parse(text) : text) as T,
    headers: res.headers,
  };
}
async function newToken(t: App, email = `v${crypto.randomUUID().slice(0, 8)}@example.com`): Promise<string> {
  const res = await call<{ booking_token: string }>(t, 'POST', '/api/public/leads', validLead({ full_name: 'Lee Visitor', email }));
  expect(res.status).toBe(201);
  return res.body.booking_token;
}
const slotsOn = async (t: App, n: number) =>
  (await call<Availability>(t, 'GET', `/api/public/availability?from=${day(n)}&to=${day(n)}`)).body.slots;
const book = <T = PublicBooking>(t: App, token: string, start: string, extra: Record<string, unknown> = {}) =>
  call<T>(t, 'POST', '/api/public/bookings', { booking_token: token, start, type: 'Zoom', ...extra });
const move = (t: App, token: string, start: string, extra: Record<string, unknown> = {}) =>
  call<PublicBooking>(t, 'PATCH', `/api/public/bookings/${token}`, { start, type: 'Zoom', ...extra });
const cancel = (t: App, token: string) => call<PublicBooking>(t, 'DELETE', `/api/public/bookings/${token}`);

const leadMails = () =>
  rowsOf<{ status: string; data: Record<string, unknown> }>(
    database.db,
    sql`select status, data from emails where kind = 'appointment' and data->>'audience' = 'lead' order by created_at, id`,
  );

let ownerCookie: string;
beforeEach(async () => {
  await execute(
    database.db,
    sql`truncate users, sessions, leads, appointments, booking_settings, booking_tokens, booking_holds, notifications, emails, public_mail_spends, rate_limits cascade`,
  );
  await ensureAdmin(database.db, 'owner@example.com', 'owner-password');
  const t = appWith(MAIL_ON);
  ownerCookie = await signIn(t.json, 'owner@example.com', 'owner-password');
  expect((await call(t, 'PUT', '/api/booking-settings', OPEN_EVERY_DAY, { cookie: ownerCookie })).status).toBe(200);
  expect((await call(t, 'PUT', '/api/account/availability', WORKS_EVERY_DAY, { cookie: ownerCookie })).status).toBe(200);
});

describe('whether the visitor was emailed', () => {
  it('with email off (no SMTP_URL), booking, moving and cancelling each answer emailed: false', async () => {
    const t = appWith();
    const token = await newToken(t);
    const [first, , later] = await slotsOn(t, 2);
    const booked = await book(t, token, first!);
    expect(booked.status).toBe(201);
    expect(booked.body.emailed).toBe(false);
    const moved = await move(t, token, later!);
    expect(moved.status).toBe(200);
    expect(moved.body.emailed).toBe(false);
    const cancelled = await cancel(t, token);
    expect(cancelled.status).toBe(200);
    expect(cancelled.body.emailed).toBe(false);
    expect((await leadMails()).map((m) => m.status)).toEqual(['not_sent', 'not_sent', 'not_sent']);
  });

  it('with email on, each answers emailed: true, and the lead’s messages are queued', async () => {
    const t = appWith(MAIL_ON);
    const token = await newToken(t);
    const [first, , later] = await slotsOn(t, 2);
    expect((await book(t, token, first!)).body.emailed).toBe(true);
    expect((await move(t, token, later!)).body.emailed).toBe(true);
    expect((await cancel(t, token)).body.emailed).toBe(true);
    expect((await leadMails()).map((m) => m.status)).toEqual(['queued', 'queued', 'queued']);
    // Reading the link is not a change: it says nothing about email.
    expect((await call<PublicBooking>(t, 'GET', `/api/public/bookings/${token}`)).body).not.toHaveProperty('emailed');
  });

  it('says false when the address had all the mail visitors may cause it today, though email is on', async () => {
    const t = appWith({ ...MAIL_ON, PUBLIC_MAIL_PER_ADDRESS_PER_DAY: '1' });
    const token = await newToken(t); // its acknowledgement spends the one
    const booked = await book(t, token, (await slotsOn(t, 2))[0]!);
    expect(booked.status).toBe(201);
    expect(booked.body.emailed).toBe(false);
    expect((await leadMails()).map((m) => m.status)).toEqual(['not_sent']);
  });
});

describe('the visitor’s time zone', () => {
  it('refuses a name that is not an IANA time zone, with a clear message on the field', async () => {
    const t = appWith(MAIL_ON);
    const token = await newToken(t);
    const slot = (await slotsOn(t, 2))[0]!;
    for (const time_zone of ['Mars/Olympus_Mons', '+05:00', 'PST8PDT; drop table leads', '', 42]) {
      const res = await book<ErrorResponse>(t, token, slot, { time_zone });
      expect(res.status).toBe(400);
      expect(res.body.error.fields).toMatchObject({ time_zone: TIME_ZONE_MESSAGE });
    }
    const moved = await call<ErrorResponse>(t, 'PATCH', `/api/public/bookings/${token}`, {
      start: slot,
      type: 'Zoom',
      time_zone: 'Nowhere/Land',
    });
    expect(moved.status).toBe(400);
    expect(moved.body.error.fields).toMatchObject({ time_zone: TIME_ZONE_MESSAGE });
  });

  it('is kept with the call (in the zone’s own spelling) and shown first in the lead’s mails; a move from the page updates it', async () => {
    const t = appWith(MAIL_ON);
    const token = await newToken(t);
    const slots = await slotsOn(t, 2);
    const tenAm = slots.find((s) => s.includes('T10:00:'))!;
    expect((await book(t, token, tenAm, { time_zone: 'america/los_angeles' })).status).toBe(201);
    const zones = () => rowsOf<{ visitor_time_zone: string | null }>(database.db, sql`select visitor_time_zone from appointments`);
    expect(await zones()).toEqual([{ visitor_time_zone: LA }]);

    const ctx = mailContext(t.config);
    const [confirmation] = await leadMails();
    expect(confirmation!.data.visitor_time_zone).toBe(LA);
    const mail = composeEmail('appointment', confirmation!.data, ctx);
    expect(mail.text).toMatch(/is booked for \w+day, \w+ \d{1,2}, \d{4} at 7:00 AM P[SD]T \(10:00 AM E[SD]T\)\./);
    expect(mail.subject).toMatch(
      /^Confirmed: your Zoom call with Keystone Due Diligence, \w{3}, \w{3} \d{1,2}, 7:00 AM P[SD]T \(10:00 AM E[SD]T\)$/,
    );
    // Staff read their own clock.
    const staff = composeEmail('appointment', { ...confirmation!.data, audience: 'staff' }, ctx);
    expect(staff.text).not.toMatch(/P[SD]T/);

    // Moved from the page, in another zone; then moved without one, which keeps it.
    const elevenAm = slots.find((s) => s.includes('T11:00:'))!;
    expect((await move(t, token, elevenAm, { time_zone: 'Europe/London' })).status).toBe(200);
    expect(await zones()).toEqual([{ visitor_time_zone: 'Europe/London' }]);
    const moved = composeEmail('appointment', (await leadMails())[1]!.data, ctx);
    expect(moved.text).toMatch(/it is now on \w+day, \w+ \d{1,2}, \d{4} at 4:00 PM GMT(\+1)? \(11:00 AM E[SD]T\)\./);
    expect((await move(t, token, tenAm)).status).toBe(200);
    expect(await zones()).toEqual([{ visitor_time_zone: 'Europe/London' }]);

    // The cancellation and a booking without a zone: the firm's clock alone, as before.
    expect((await cancel(t, token)).status).toBe(200);
    const cancelled = composeEmail('appointment', (await leadMails()).at(-1)!.data, ctx);
    expect(cancelled.text).toMatch(/on \w+day, \w+ \d{1,2}, \d{4} at 3:00 PM GMT(\+1)? \(10:00 AM E[SD]T\) is cancelled\./);
    const other = await newToken(t);
    expect((await book(t, other, slots.find((s) => s.includes('T13:00:'))!)).status).toBe(201);
    const plain = composeEmail('appointment', (await leadMails()).at(-1)!.data, ctx);
    expect(plain.text).toMatch(/is booked for \w+day, \w+ \d{1,2}, \d{4} at 1:00 PM E[SD]T\./);
  });

  it('is the person’s own data: in their export, and gone when they are erased', async () => {
    const t = appWith(MAIL_ON);
    const token = await newToken(t);
    expect((await book(t, token, (await slotsOn(t, 2))[0]!, { time_zone: LA })).status).toBe(201);
    const [{ lead_id, id }] = (await rowsOf<{ lead_id: string; id: string }>(database.db, sql`select lead_id, id from appointments`)) as [
      { lead_id: string; id: string },
    ];
    const exported = await call<{ appointments: { id: string; visitor_time_zone: string | null }[] }>(
      t,
      'GET',
      `/api/leads/${lead_id}/export`,
      undefined,
      { cookie: ownerCookie },
    );
    expect(exported.body.appointments).toEqual([expect.objectContaining({ id, visitor_time_zone: LA })]);
    expect((await call(t, 'POST', `/api/leads/${lead_id}/erase`, undefined, { cookie: ownerCookie })).status).toBe(200);
    expect(await rowsOf(database.db, sql`select lead_id, visitor_time_zone from appointments`)).toEqual([
      { lead_id: null, visitor_time_zone: null },
    ]);
  });

  it('is kept with a held booking and passed to the call its confirmation books', async () => {
    const t = appWith(MAIL_ON);
    expect(
      (await call(t, 'PUT', '/api/booking-settings', { ...OPEN_EVERY_DAY, require_email_confirmation: true }, { cookie: ownerCookie }))
        .status,
    ).toBe(200);
    const token = await newToken(t);
    const tenAm = (await slotsOn(t, 2)).find((s) => s.includes('T10:00:'))!;
    const held = await book<PendingBooking>(t, token, tenAm, { time_zone: LA });
    expect(held.status).toBe(202);
    expect(held.body.emailed).toBe(true);
    expect(await rowsOf(database.db, sql`select visitor_time_zone from booking_holds`)).toEqual([{ visitor_time_zone: LA }]);
    const [request] = await rowsOf<{ data: Record<string, unknown> }>(
      database.db,
      sql`select data from emails where kind = 'booking-confirmation'`,
    );
    const asked = composeEmail('booking-confirmation', request!.data, mailContext(t.config));
    expect(asked.text).toMatch(/on \w+day, \w+ \d{1,2}, \d{4} at 7:00 AM P[SD]T \(10:00 AM E[SD]T\)\./);
    expect(asked.text).toMatch(/until \d{1,2}:\d{2} [AP]M P[SD]T \(\d{1,2}:\d{2} [AP]M E[SD]T\)\./);

    const code = String(request!.data.link).split('/').at(-1)!;
    const confirmed = await call<PublicBooking>(t, 'POST', `/api/public/bookings/${token}/confirm`, { code });
    expect(confirmed.status).toBe(200);
    expect(confirmed.body.emailed).toBe(true);
    expect(await rowsOf(database.db, sql`select visitor_time_zone from appointments`)).toEqual([{ visitor_time_zone: LA }]);
    expect((await leadMails())[0]!.data.visitor_time_zone).toBe(LA);
  });
});

describe('Add to calendar', () => {
  it('serves the call as an .ics with the invitation’s UID and SEQUENCE, to the link alone, and links Google Calendar and Outlook', async () => {
    const t = appWith(MAIL_ON);
    const token = await newToken(t);
    const slots = await slotsOn(t, 2);
    const booked = await book(t, token, slots[2]!);
    const { start, end } = booked.body.booking!;
    const utc = (iso: string) =>
      new Date(iso)
        .toISOString()
        .replace(/[-:]/g, '')
        .replace(/\.\d{3}/, '');
    expect(booked.body.calendar).toEqual({
      ics_path: `/api/public/bookings/${token}/calendar.ics`,
      google_url: expect.stringMatching(/^https:\/\/calendar\.google\.com\/calendar\/render\?action=TEMPLATE&/),
      outlook_url: expect.stringMatching(/^https:\/\/outlook\.live\.com\/calendar\/0\/deeplink\/compose\?/),
    });
    const google = new URL(booked.body.calendar!.google_url).searchParams;
    expect(google.get('text')).toBe('Zoom with Keystone Due Diligence');
    expect(google.get('dates')).toBe(`${utc(start)}/${utc(end)}`);
    expect(google.get('details')).toMatch(/^Your Zoom call with Keystone Due Diligence\. Questions: /);
    const outlook = new URL(booked.body.calendar!.outlook_url).searchParams;
    expect(Object.fromEntries(outlook)).toMatchObject({
      path: '/calendar/action/compose',
      rru: 'addevent',
      subject: 'Zoom with Keystone Due Diligence',
      startdt: new Date(start).toISOString().replace(/\.\d{3}Z$/, 'Z'),
      enddt: new Date(end).toISOString().replace(/\.\d{3}Z$/, 'Z'),
      body: google.get('details'),
    });

    const ics = await call<string>(t, 'GET', booked.body.calendar!.ics_path);
    expect(ics.status).toBe(200);
    expect(ics.headers.get('content-type')).toBe('text/calendar; charset=utf-8');
    expect(ics.headers.get('content-disposition')).toBe('attachment; filename="free-call.ics"');
    expect(ics.body).toMatch(/^BEGIN:VCALENDAR\r\nVERSION:2\.0\r\n/);
    expect(ics.body).toContain('METHOD:PUBLISH\r\n');
    expect(ics.body).toContain(`DTSTART:${utc(start)}\r\n`);
    expect(ics.body).toContain('DURATION:PT30M\r\n');
    expect(ics.body).toContain('STATUS:CONFIRMED\r\n');
    expect(ics.body).not.toContain('ATTENDEE');
    // The invitation email's UID and SEQUENCE: adding the file updates that event.
    const invitation = composeEmail('appointment', (await leadMails())[0]!.data, mailContext(t.config)).icalEvent!.content;
    const line = (text: string, name: string) => text.split('\r\n').find((l) => l.startsWith(`${name}:`));
    expect(line(ics.body, 'UID')).toBe(line(invitation, 'UID'));
    expect(line(ics.body, 'UID')).toMatch(/^UID:[0-9a-f-]{36}@keystone\.test$/);
    expect(line(ics.body, 'SEQUENCE')).toBe('SEQUENCE:0');

    // Moved: the new time, one SEQUENCE on, as the update email says. Cancelled: STATUS:CANCELLED, and no links.
    const moved = await move(t, token, slots[6]!);
    const movedIcs = (await call<string>(t, 'GET', `/api/public/bookings/${token}/calendar.ics`)).body;
    expect(movedIcs).toContain(`DTSTART:${utc(moved.body.booking!.start)}\r\n`);
    expect(line(movedIcs, 'SEQUENCE')).toBe(
      line(composeEmail('appointment', (await leadMails())[1]!.data, mailContext(t.config)).icalEvent!.content, 'SEQUENCE'),
    );
    expect(line(movedIcs, 'SEQUENCE')).toBe('SEQUENCE:1');
    const cancelled = await cancel(t, token);
    expect(cancelled.body.calendar).toBeNull();
    expect((await call<string>(t, 'GET', `/api/public/bookings/${token}/calendar.ics`)).body).toContain('STATUS:CANCELLED\r\n');
  });

  it('answers 404 for a link that booked nothing, or that nobody was given', async () => {
    const t = appWith();
    const token = await newToken(t);
    expect((await call<PublicBooking>(t, 'GET', `/api/public/bookings/${token}`)).body.calendar).toBeNull();
    const none = await call<ErrorResponse>(t, 'GET', `/api/public/bookings/${token}/calendar.ics`);
    expect(none.status).toBe(404);
    expect(none.body.error.message).toBe('There is no call booked through this link.');
    expect((await call<ErrorResponse>(t, 'GET', `/api/public/bookings/${'A'.repeat(43)}/calendar.ics`)).status).toBe(404);
    expect((await call<ErrorResponse>(t, 'GET', `/api/public/bookings/short/calendar.ics`)).status).toBe(400);
  });
});
