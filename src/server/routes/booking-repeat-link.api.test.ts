import { readdirSync, readFileSync } from 'node:fs';
import { sql } from 'drizzle-orm';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { AppointmentListResponse } from '#shared/schemas/appointment';
import type { Availability, PublicBooking } from '#shared/schemas/booking';
import type { TimelineEntry } from '#shared/schemas/lead-workspace';
import type { Notification } from '#shared/schemas/notification';
import { addDays, zonedParts } from '#shared/zoned-time';
import { ensureAdmin } from '../auth/accounts.ts';
import { mintToken } from '../lib/secret-token.ts';
import { sendDueReminders } from '../db/queries/reminders-queries.ts';
import { execute } from '../db/sql.ts';
import { createTestApp, signIn, validLead } from '../test/test-app.ts';
import { OPEN_EVERY_DAY, WORKS_EVERY_DAY } from '../test/open-every-day.ts';
import { rowsOf, useTestDatabase } from '../test/database.ts';

/**
 * A booking link belongs to the form that made it (docs/product-rules.md, "Booking"): someone
 * who types a known person's email gets a link that shows and books only as what they typed,
 * while the person's own link keeps working and stays out of their reach.
 */

const TZ = 'America/New_York';
const database = useTestDatabase();
let t: ReturnType<typeof createTestApp>;
let cookie: string;

const today = () => zonedParts(Date.now(), TZ).date;
const day = (n: number) => addDays(today(), n);

const KNOWN = { full_name: 'Jane Doe', email: 'jane@example.com', phone: '(301) 555-0142' }; // not the firm's own number (SITE_PHONE's default), which the answer's calendar links carry
const STRANGER = { full_name: 'Mallory Stranger', email: 'jane@example.com', phone: '(202) 555-0199' };

beforeAll(() => {
  t = createTestApp(database, { BUSINESS_TIME_ZONE: TZ });
});
beforeEach(async () => {
  await execute(
    database.db,
    sql`truncate users, sessions, leads, appointments, booking_settings, booking_tokens, notifications, emails, rate_limits cascade`,
  );
  await ensureAdmin(database.db, 'desk@example.com', 'desk-password');
  await execute(database.db, sql`update users set email_appointments = true`);
  cookie = await signIn(t.json, 'desk@example.com', 'desk-password');
  await admin('PUT', '/api/booking-settings', OPEN_EVERY_DAY);
  await admin('PUT', '/api/account/availability', WORKS_EVERY_DAY);
});

async function call<T>(method: string, path: string, body?: unknown, headers: Record<string, string> = {}) {
  const res = await t.json(method, path, body, headers);
  const text = await res.text();
  return { status: res.status, text, body: (text ? JSON.parse(text) : undefined) as T };
}
const admin = <T>(method: string, path: string, body?: unknown) => call<T>(method, path, body, { cookie });
const slotsOn = async (date: string) => (await call<Availability>('GET', `/api/public/availability?from=${date}&to=${date}`)).body.slots;
const link = (token: string) => call<PublicBooking>('GET', `/api/public/bookings/${token}`);
const book = (token: string, start: string) =>
  call<PublicBooking>('POST', '/api/public/bookings', { booking_token: token, start, type: 'Call' });
const move = (token: string, start: string) => call<PublicBooking>('PATCH', `/api/public/bookings/${token}`, { start, type: 'Zoom' });
const cancel = (token: string) => call<PublicBooking>('DELETE', `/api/public/bookings/${token}`);

async function form(fields: Record<string, unknown>): Promise<string> {
  const res = await call<{ booking_token: string }>('POST', '/api/public/leads', validLead(fields));
  expect(res.status).toBe(201);
  return res.body.booking_token;
}
const messages = async () =>
  (await admin<{ notifications: Notification[] }>('GET', '/api/notifications')).body.notifications.map((n) => n.message);

describe('a stranger’s link to a known person', () => {
  it('shows only what the stranger typed, books for their inquiry, and never sees or changes the person’s own call', async () => {
    const own = await form(KNOWN);
    const slots = await slotsOn(day(2));
    expect((await book(own, slots[0]!)).status).toBe(201);

    const stranger = await form(STRANGER);
    const seen = await link(stranger);
    expect(seen.status).toBe(200);
    expect(seen.body).toMatchObject({ first_name: 'Mallory', booking: null, can_book: true, can_change: false });
    // Nothing the firm holds about Jane (name, phone, her call's time) is in the answer.
    for (const secret of ['Jane', 'Doe', '555-0142', slots[0]!]) expect(seen.text).not.toContain(secret);

    // The person's call is not this link's to move or cancel.
    expect((await move(stranger, slots[4]!)).status).toBe(422);
    expect((await cancel(stranger)).status).toBe(422);
    expect((await link(own)).body.booking).toMatchObject({ start: slots[0], status: 'scheduled' });

    // It books its own call (not "You already have a call booked": that would tell of hers).
    const booked = await book(stranger, slots[2]!);
    expect(booked.status).toBe(201);
    expect(booked.body).toMatchObject({ first_name: 'Mallory', booking: { start: slots[2], status: 'scheduled' } });
    for (const secret of ['Jane', 'Doe', '555-0142', slots[0]!]) expect(booked.text).not.toContain(secret);

    // On the person's lead, recorded as that inquiry; the lead's details untouched.
    const [lead] = await rowsOf<{ id: string; full_name: string; phone: string }>(database.db, sql`select id, full_name, phone from leads`);
    expect(lead).toMatchObject({ full_name: 'Jane Doe', phone: '(301) 555-0142' });
    const [inquiry] = await rowsOf<{ id: string; name: string }>(
      database.db,
      sql`select id, data->>'full_name' as name from lead_events where kind = 'inquiry'`,
    );
    expect(inquiry?.name).toBe('Mallory Stranger');
    const stored = await rowsOf<{ time: string; lead_id: string; inquiry_id: string | null }>(
      database.db,
      sql`select to_char(time, 'HH24:MI') as time, lead_id, inquiry_id from appointments order by time`,
    );
    expect(stored).toEqual([
      { time: '09:00', lead_id: lead!.id, inquiry_id: null },
      { time: '10:00', lead_id: lead!.id, inquiry_id: inquiry!.id },
    ]);
    const listed = (await admin<AppointmentListResponse>('GET', `/api/appointments?from=${day(2)}&to=${day(2)}`)).body.appointments;
    expect(listed.map((a) => [a.time, a.lead?.full_name, a.booked_as])).toEqual([
      ['09:00', 'Jane Doe', null],
      ['10:00', 'Jane Doe', { full_name: 'Mallory Stranger', phone: '(202) 555-0199', at: expect.any(String) }],
    ]);

    // So does the call's calendar event.
    const ics = await (await t.app.request(`/api/appointments/${listed[1]!.id}/ics`, { headers: { cookie } })).text();
    const lines = ics.replace(/\r\n[ \t]/g, '').split('\r\n');
    expect(lines).toContain('SUMMARY:Call with Mallory Stranger');
    expect(lines).toContain(
      'DESCRIPTION:Booked through a repeat form with the email of Jane Doe\\nEmail: jane@example.com\\nPhone: (202) 555-0199',
    );

    // The lead's timeline says who booked each call.
    const timeline = (await admin<{ entries: TimelineEntry[] }>('GET', `/api/leads/${lead!.id}/timeline`)).body.entries;
    expect(timeline.flatMap((e) => (e.kind === 'appointment' ? [[e.time, e.by, e.booked_as]] : []))).toEqual([
      ['10:00', 'lead', 'Mallory Stranger'],
      ['09:00', 'lead', null],
    ]);

    // Staff notifications and mail name the person as typed on the inquiry.
    expect((await messages()).filter((m) => m.startsWith('New booking: '))).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^New booking: Jane Doe, /),
        expect.stringMatching(/^New booking: Mallory Stranger, /),
      ]),
    );
    const mails = await rowsOf<{ to_name: string | null; audience: string; lead_name: string; lead_phone: string }>(
      database.db,
      sql`select to_name, data->>'audience' as audience, data->>'lead_name' as lead_name, data->>'lead_phone' as lead_phone
          from emails where kind = 'appointment' and data->>'time' = '10:00' order by audience`,
    );
    expect(mails).toEqual([
      // Mail a visitor caused goes to the bare address (no display name they typed).
      { to_name: null, audience: 'lead', lead_name: 'Mallory Stranger', lead_phone: '(202) 555-0199' },
      { to_name: null, audience: 'staff', lead_name: 'Mallory Stranger', lead_phone: '(202) 555-0199' },
    ]);
  });

  it('leaves the person’s first link working: it reads and moves their own call, and each link changes only its own', async () => {
    const own = await form(KNOWN);
    const slots = await slotsOn(day(3));
    expect((await book(own, slots[0]!)).status).toBe(201);
    const stranger = await form(STRANGER);
    expect((await book(stranger, slots[2]!)).status).toBe(201);

    const mine = await link(own);
    expect(mine.body).toMatchObject({ first_name: 'Jane', booking: { start: slots[0], status: 'scheduled' }, can_change: true });
    expect((await move(own, slots[6]!)).body).toMatchObject({
      first_name: 'Jane',
      booking: { start: slots[6], type: 'Zoom', status: 'scheduled' },
    });
    expect((await link(stranger)).body.booking).toMatchObject({ start: slots[2], type: 'Call', status: 'scheduled' });

    expect((await move(stranger, slots[8]!)).body.booking).toMatchObject({ start: slots[8] });
    expect((await cancel(stranger)).body.booking).toMatchObject({ status: 'cancelled' });
    expect((await link(own)).body.booking).toMatchObject({ start: slots[6], status: 'scheduled' });
    const left = await rowsOf<{ time: string; status: string }>(
      database.db,
      sql`select to_char(time, 'HH24:MI') as time, status from appointments order by time`,
    );
    expect(left).toEqual([
      { time: '12:00', status: 'scheduled' },
      { time: '13:00', status: 'cancelled' },
    ]);
    const said = await messages();
    expect(said.filter((m) => m.startsWith('Booking moved: '))).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^Booking moved: Jane Doe, /),
        expect.stringMatching(/^Booking moved: Mallory Stranger, /),
      ]),
    );
    expect(said.filter((m) => m.startsWith('Booking cancelled: '))).toEqual([
      expect.stringMatching(/^Booking cancelled: Mallory Stranger, /),
    ]);
  });

  it('gives a retried repeat form a link of the same inquiry, and the staff reminder names who booked', async () => {
    await form(KNOWN);
    const submission_id = crypto.randomUUID();
    const first = await form({ ...STRANGER, submission_id });
    const retried = await form({ ...STRANGER, submission_id });
    expect(retried).not.toBe(first);
    expect((await link(retried)).body).toMatchObject({ first_name: 'Mallory', booking: null, can_book: true });
    // One inquiry, and both links are of it.
    const links = await rowsOf<{ n: number; inquiries: number }>(
      database.db,
      sql`select count(*)::int as n, count(distinct inquiry_id)::int as inquiries from booking_tokens where inquiry_id is not null`,
    );
    expect(links).toEqual([{ n: 2, inquiries: 1 }]);

    const slot = (await slotsOn(day(2)))[1]!;
    expect((await book(retried, slot)).status).toBe(201);
    // A reminder window wide enough to reach the call.
    expect(await sendDueReminders(database.db, TZ, 4 * 24 * 60)).toBe(1);
    expect(await messages()).toContainEqual(expect.stringMatching(/^Upcoming Call with Mallory Stranger at 9:30 AM$/));
  });

  it('keeps a merged duplicate’s link showing its own form, not the lead it joined', async () => {
    // Two leads of one email from before forms joined known people: the later one with a link.
    const own = await form(KNOWN);
    const { token, hash } = mintToken();
    await execute(
      database.db,
      sql`
      with dup as (
        insert into leads (full_name, email, phone, property_types, status, submission_id)
        values ('Mallory Stranger', 'jane@example.com', '(202) 555-0199', '{multifamily}', 'New', gen_random_uuid()) returning id
      )
      insert into booking_tokens (token_hash, lead_id, expires_at) select ${hash}, id, now() + interval '1 day' from dup`,
    );
    const slot = (await slotsOn(day(2)))[3]!;
    expect((await book(token, slot)).status).toBe(201);
    const [kept] = await rowsOf<{ id: string }>(database.db, sql`select id from leads where full_name = 'Jane Doe'`);
    const [other] = await rowsOf<{ id: string }>(database.db, sql`select id from leads where full_name = 'Mallory Stranger'`);

    const merged = await admin('POST', `/api/leads/${kept!.id}/merge`, { other_id: other!.id, keep: {} });
    expect(merged.status).toBe(200);
    expect((await link(token)).body).toMatchObject({ first_name: 'Mallory', booking: { start: slot, status: 'scheduled' } });
    expect((await link(own)).body).toMatchObject({ first_name: 'Jane', booking: null });
    const [appointment] = (await admin<AppointmentListResponse>('GET', `/api/appointments?from=${day(2)}&to=${day(2)}`)).body.appointments;
    expect(appointment).toMatchObject({ lead: { full_name: 'Jane Doe' }, booked_as: { full_name: 'Mallory Stranger' } });
  });

  it('upgrades links that repeat forms made before: they show and book as their inquiry, the lead’s own link as before', async () => {
    const own = await form(KNOWN);
    const stranger = await form(STRANGER);
    const slot = (await slotsOn(day(2)))[5]!;
    expect((await book(stranger, slot)).status).toBe(201);
    // As an older version stored them: no link or call knew its inquiry.
    await execute(database.db, sql`update booking_tokens set inquiry_id = null`);
    await execute(database.db, sql`update appointments set inquiry_id = null`);
    expect((await link(stranger)).body.first_name).toBe('Jane');

    // The data moves at the end of the migration that added the columns.
    const dir = new URL('../../../drizzle/', import.meta.url);
    const file = readdirSync(dir).find((f) => f.endsWith('_booking_link_inquiry.sql'));
    const statements = readFileSync(new URL(file!, dir), 'utf8')
      .split('--> statement-breakpoint')
      .filter((s) => /^\s*(--.*\n\s*)*UPDATE/i.test(s));
    expect(statements).toHaveLength(2);
    for (const statement of statements) await execute(database.db, sql.raw(statement));

    expect((await link(stranger)).body).toMatchObject({ first_name: 'Mallory', booking: { start: slot } });
    expect((await link(own)).body.first_name).toBe('Jane');
    const [appointment] = (await admin<AppointmentListResponse>('GET', `/api/appointments?from=${day(2)}&to=${day(2)}`)).body.appointments;
    expect(appointment?.booked_as).toMatchObject({ full_name: 'Mallory Stranger' });
  });
});
