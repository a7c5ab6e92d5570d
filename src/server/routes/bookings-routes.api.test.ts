import { sql } from 'drizzle-orm';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Appointment, AppointmentListResponse } from '#shared/schemas/appointment';
import type { Availability, BookingSettings, PublicBooking } from '#shared/schemas/booking';
import type { ErrorResponse } from '#shared/schemas/error';
import type { Notification } from '#shared/schemas/notification';
import { addDays, clockText, zonedParts } from '#shared/zoned-time';
import { ensureAdmin } from '../auth/accounts.ts';
import { appointmentMailOf } from '../db/queries/appointments-queries.ts';
import { bookSlot } from '../db/queries/bookings-queries.ts';
import { execute } from '../db/sql.ts';
import { hashToken } from '../lib/secret-token.ts';
import { createTestApp, signIn, validLead } from '../test/test-app.ts';
import { OPEN_EVERY_DAY, WORKS_EVERY_DAY } from '../test/open-every-day.ts';
import { rowsOf, useTestDatabase } from '../test/database.ts';

const TZ = 'America/New_York';
const database = useTestDatabase();
let t: ReturnType<typeof createTestApp>;
let cookie: string;

const OPEN_ALL_WEEK = OPEN_EVERY_DAY;
/** Business dates: the day after tomorrow (always fully open, whatever the hour now). */
const today = () => zonedParts(Date.now(), TZ).date;
const day = (n: number) => addDays(today(), n);

beforeAll(() => {
  t = createTestApp(database, { BUSINESS_TIME_ZONE: TZ });
});
beforeEach(async () => {
  await execute(
    database.db,
    sql`truncate users, sessions, leads, appointments, booking_settings, booking_tokens, notifications, emails, rate_limits cascade`,
  );
  await ensureAdmin(database.db, 'desk@example.com', 'desk-password');
  cookie = await signIn(t.json, 'desk@example.com', 'desk-password');
  await admin('PUT', '/api/booking-settings', OPEN_ALL_WEEK);
  await admin('PUT', '/api/account/availability', WORKS_EVERY_DAY);
});

async function call<T>(method: string, path: string, body?: unknown, headers: Record<string, string> = {}) {
  const res = await t.json(method, path, body, headers);
  const text = await res.text();
  return { status: res.status, body: (text ? JSON.parse(text) : undefined) as T };
}
const admin = <T>(method: string, path: string, body?: unknown) => call<T>(method, path, body, { cookie });

async function newToken(overrides: Record<string, unknown> = {}): Promise<string> {
  const res = await call<{ booking_token: string }>('POST', '/api/public/leads', validLead(overrides));
  expect(res.status).toBe(201);
  return res.body.booking_token;
}
const availability = (from: string, to: string) => call<Availability>('GET', `/api/public/availability?from=${from}&to=${to}`);
const book = (token: string, start: string, type = 'Call') =>
  call<PublicBooking>('POST', '/api/public/bookings', { booking_token: token, start, type });

describe('booking a call', () => {
  it('books an open time for the lead: gone from availability, on the calendar, notified, mailed with the private link', async () => {
    const token = await newToken({ full_name: 'Jane Doe', email: 'jane@example.com' });
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const open = await availability(day(2), day(2));
    expect(open.status).toBe(200);
    expect(open.body).toMatchObject({ enabled: true, time_zone: TZ, slot_minutes: 30, types: ['Call', 'Zoom'] });
    expect(open.body.slots).toHaveLength(16);
    const slot = open.body.slots[2]!; // 10:00
    expect(slot).toMatch(new RegExp(`^${day(2)}T10:00:00-0[45]:00$`));

    const booked = await book(token, slot, 'Zoom');
    expect(booked.status).toBe(201);
    expect(booked.body).toMatchObject({
      first_name: 'Jane',
      booking: { start: slot, type: 'Zoom', status: 'scheduled' },
      can_book: false,
      can_change: true,
      manage_path: `/booking/${token}`,
    });
    expect((await availability(day(2), day(2))).body.slots).not.toContain(slot);

    const list = await admin<AppointmentListResponse>('GET', `/api/appointments?from=${day(2)}&to=${day(2)}`);
    expect(list.body.appointments).toEqual([
      expect.objectContaining({
        time: '10:00',
        type: 'Zoom',
        source: 'booking',
        status: 'scheduled',
        duration_minutes: 30,
        lead: expect.objectContaining({ full_name: 'Jane Doe' }),
      }),
    ]);
    const notes = await admin<{ notifications: Notification[] }>('GET', '/api/notifications');
    expect(notes.body.notifications.map((n) => n.message)).toContainEqual(
      expect.stringMatching(/^New booking: Jane Doe, \w{3} \w{3} \d{1,2}, 10:00 AM$/),
    );
    // It names the lead, so a click opens the lead's page.
    const leadId = list.body.appointments[0]!.lead_id;
    expect(notes.body.notifications.find((n) => n.message.startsWith('New booking: Jane Doe'))?.lead_id).toBe(leadId);
    const mails = await rowsOf<{ to_address: string; data: { manage_path?: string; change: string } }>(
      database.db,
      sql`select to_address, data from emails where kind = 'appointment'`,
    );
    expect(mails).toEqual([{ to_address: 'jane@example.com', data: expect.objectContaining({ change: 'scheduled' }) }]);
    // Email is off here, so the message is recorded not sent, and keeps no private link
    // (src/server/mail/visitor-mail.api.test.ts follows one that is queued, then sent).
    expect(mails[0]!.data.manage_path).toBeUndefined();

    // The link shows the booking, and books nothing twice.
    expect((await call<PublicBooking>('GET', `/api/public/bookings/${token}`)).body.booking).toMatchObject({
      start: slot,
      status: 'scheduled',
    });
    const again = await book(token, open.body.slots[5]!);
    expect(again.status).toBe(409);
  });

  it('gives one of 20 people confirming the same time at once the slot; the others 409 with the open times left', async () => {
    const tokens = await Promise.all(Array.from({ length: 20 }, (_, i) => newToken({ email: `race${i}@example.com` })));
    const slot = (await availability(day(3), day(3))).body.slots[4]!;
    const answers = await Promise.all(tokens.map((token) => book(token, slot)));
    expect(answers.filter((a) => a.status === 201)).toHaveLength(1);
    const refused = answers.filter((a) => a.status !== 201) as unknown as { status: number; body: ErrorResponse }[];
    expect(refused.map((a) => a.status)).toEqual(Array(19).fill(409));
    for (const r of refused) {
      expect(r.body.error.message).toBe('Sorry, that time was just taken. Please pick another time.');
      expect(r.body.error.slots).toHaveLength(15);
      expect(r.body.error.slots).not.toContain(slot);
    }
    const counted = await rowsOf<{ n: number }>(database.db, sql`select count(*)::int as n from appointments`);
    expect(counted[0]?.n).toBe(1);
  });

  it('refuses a time booked before the attempt began without trying the insert, with that day as read then', async () => {
    const [first, other, late] = await Promise.all(['first', 'other', 'late'].map((who) => newToken({ email: `${who}@example.com` })));
    const [slot, later] = (await availability(day(3), day(3))).body.slots;
    expect((await book(first!, slot!)).status).toBe(201);
    expect((await book(other!, later!)).status).toBe(201);
    const [host] = await rowsOf<{ id: string }>(database.db, sql`select id from users where email = 'desk@example.com'`);
    const { date, minutes } = zonedParts(Date.parse(slot!), TZ);
    // As a request that read the day before `first` booked would try it.
    const made = await bookSlot(
      database.db,
      {
        hash: hashToken(late!),
        token: late!,
        date,
        time: clockText(minutes),
        type: 'Call',
        durationMinutes: 30,
        bufferMinutes: 0,
        hostId: host!.id,
      },
      appointmentMailOf(t.config),
    );
    expect(made).toMatchObject({ overlapped: true, day: [{ id: host!.id }] });
    const busy = made && typeof made === 'object' && 'day' in made ? made.day[0]!.busy.map((b) => b.start) : [];
    expect(busy).toEqual([Date.parse(slot!), Date.parse(later!)]);
    const counted = await rowsOf<{ n: number; linked: number }>(
      database.db,
      sql`select (select count(*)::int from appointments) as n, (select count(*)::int from booking_tokens where appointment_id is not null) as linked`,
    );
    expect(counted[0]).toEqual({ n: 2, linked: 2 });
  });

  it('refuses unknown and expired links, kinds not offered, and times that are not open', async () => {
    const token = await newToken();
    const slot = (await availability(day(2), day(2))).body.slots[0]!;
    expect((await book('A'.repeat(43), slot)).status).toBe(404);
    expect((await book('short', slot)).status).toBe(400);
    expect((await book(token, slot, 'On-site')).status).toBe(400);
    const offGrid = slot.replace('T09:00', 'T09:10');
    const notOpen = (await book(token, offGrid)) as unknown as { status: number; body: ErrorResponse };
    expect(notOpen.status).toBe(409);
    expect(notOpen.body.error.slots?.[0]).toBe(slot);
    expect((await book(token, slot.replace(day(2), day(45)))).status).toBe(409); // past the window
    await execute(database.db, sql`update booking_tokens set expires_at = now() - interval '1 minute'`);
    expect((await book(token, slot)).status).toBe(404);
    expect((await call('GET', `/api/public/bookings/${token}`)).status).toBe(200);
  });

  it('lets the link move the call to another open time, then cancel it; staff are told of each; then it can book again', async () => {
    const token = await newToken({ full_name: 'Mo Ved' });
    const slots = (await availability(day(4), day(4))).body.slots;
    expect((await book(token, slots[0]!)).status).toBe(201);
    const moved = await call<PublicBooking>('PATCH', `/api/public/bookings/${token}`, { start: slots[6], type: 'Zoom' });
    expect(moved.status).toBe(200);
    expect(moved.body.booking).toMatchObject({ start: slots[6], type: 'Zoom', status: 'scheduled' });
    expect((await availability(day(4), day(4))).body.slots).toContain(slots[0]);

    const cancelled = await call<PublicBooking>('DELETE', `/api/public/bookings/${token}`);
    expect(cancelled.body).toMatchObject({ booking: { status: 'cancelled' }, can_book: true, can_change: false });
    const [appointment] = (await admin<AppointmentListResponse>('GET', `/api/appointments?from=${day(4)}&to=${day(4)}`)).body.appointments;
    expect(appointment).toMatchObject({ status: 'cancelled', cancelled_by: 'lead' });
    expect((await availability(day(4), day(4))).body.slots).toContain(slots[6]);

    const notified = (await admin<{ notifications: Notification[] }>('GET', '/api/notifications')).body.notifications;
    const messages = notified.map((n) => n.message);
    expect(new Set(notified.filter((n) => n.message.includes('Mo Ved')).map((n) => n.lead_id))).toEqual(new Set([appointment!.lead_id]));
    expect(messages.filter((m) => m.startsWith('Booking moved: Mo Ved, '))).toHaveLength(1);
    expect(messages.filter((m) => m.startsWith('Booking cancelled: Mo Ved, '))).toHaveLength(1);
    const changes = await rowsOf<{ change: string }>(
      database.db,
      sql`select data->>'change' as change from emails where kind = 'appointment' order by created_at`,
    );
    expect(changes.map((c) => c.change)).toEqual(['scheduled', 'updated', 'cancelled']);

    expect((await book(token, slots[8]!)).status).toBe(201);
  });

  it('refuses changes within the minimum notice', async () => {
    const token = await newToken();
    const slot = (await availability(day(2), day(2))).body.slots[0]!;
    expect((await book(token, slot)).status).toBe(201);
    await admin('PUT', '/api/booking-settings', { ...OPEN_ALL_WEEK, min_notice_hours: 24 * 5 });
    const late = (await call<ErrorResponse>('DELETE', `/api/public/bookings/${token}`)) as { status: number; body: ErrorResponse };
    expect(late.status).toBe(422);
    expect(late.body.error.message).toBe('This call can no longer be changed online (less than 120 hours before it). Please call us.');
  });

  it('offers nothing when booking is off, and only free times: never who booked', async () => {
    const token = await newToken({ full_name: 'Secret Person', email: 'secret@example.com' });
    const slot = (await availability(day(2), day(2))).body.slots[0]!;
    await book(token, slot);
    const res = await t.json('GET', `/api/public/availability?from=${day(2)}&to=${day(2)}`);
    const text = await res.text();
    expect(text).not.toMatch(/Secret|secret@|booking/i);
    await admin('PUT', '/api/booking-settings', { ...OPEN_ALL_WEEK, enabled: false });
    expect((await availability(day(2), day(9))).body).toMatchObject({ enabled: false, slots: [] });
  });

  it('checks the availability range', async () => {
    expect((await availability(day(5), day(2))).status).toBe(400);
    expect((await availability(day(0), day(31))).status).toBe(400);
    expect((await availability(day(0), day(30))).status).toBe(200);
    expect((await availability('2026-02-30', day(1))).status).toBe(400);
  });
});

describe('staff appointments against bookings', () => {
  it('warns before scheduling over a booking, lists it, and schedules anyway when told to', async () => {
    const token = await newToken({ full_name: 'Booked First' });
    const slot = (await availability(day(2), day(2))).body.slots[2]!; // 10:00
    await book(token, slot);
    const lead = (
      await admin<{ id: string }>('POST', '/api/leads', {
        full_name: 'Walk In',
        email: 'walk@example.com',
        phone: '555',
        property_types: ['land'],
      })
    ).body;
    const input = { lead_id: lead.id, date: day(2), time: '10:15', type: 'Call' };
    const warned = (await admin<ErrorResponse>('POST', '/api/appointments', input)) as { status: number; body: ErrorResponse };
    expect(warned.status).toBe(409);
    expect(warned.body.error).toMatchObject({
      message: 'This time overlaps another appointment.',
      conflicts: [expect.objectContaining({ time: '10:00', lead_name: 'Booked First' })],
    });
    const anyway = await admin<Appointment>('POST', '/api/appointments', { ...input, allow_overlap: true });
    expect(anyway.status).toBe(201);
    // Staff appointments block those times for visitors too.
    const open = (await availability(day(2), day(2))).body.slots;
    expect(open.some((s) => s.includes('T10:30'))).toBe(false);
    expect(open.some((s) => s.includes('T11:00'))).toBe(true);
  });

  it('refuses an appointment in the past and a length out of bounds', async () => {
    const lead = (
      await admin<{ id: string }>('POST', '/api/leads', { full_name: 'P', email: 'p@example.com', phone: '555', property_types: ['land'] })
    ).body;
    const past = (await admin<ErrorResponse>('POST', '/api/appointments', {
      lead_id: lead.id,
      date: day(-1),
      time: '10:00',
      type: 'Call',
    })) as { status: number; body: ErrorResponse };
    expect(past.status).toBe(400);
    expect(past.body.error.fields).toEqual({ time: 'Appointment must be in the future' });
    const short = (await admin<ErrorResponse>('POST', '/api/appointments', {
      lead_id: lead.id,
      date: day(2),
      time: '10:00',
      type: 'Call',
      duration_minutes: 0,
    })) as { status: number; body: ErrorResponse };
    expect(short.body.error.fields).toEqual({ duration_minutes: 'Duration must be at least 5 minutes' });
  });
});

describe('booking settings', () => {
  it('answers the defaults before any are saved, and refuses bad settings with their messages', async () => {
    await execute(database.db, sql`truncate booking_settings`);
    const defaults = await admin<BookingSettings & { time_zone: string }>('GET', '/api/booking-settings');
    expect(defaults.body).toMatchObject({
      enabled: true,
      slot_minutes: 30,
      min_notice_hours: 4,
      horizon_days: 30,
      types: ['Call', 'Zoom'],
      time_zone: TZ,
    });
    expect(defaults.body.hours.slice(5)).toEqual([null, null]);
    const bad = (await admin<ErrorResponse>('PUT', '/api/booking-settings', {
      ...OPEN_ALL_WEEK,
      hours: [{ start: '17:00', end: '09:00' }, ...OPEN_ALL_WEEK.hours.slice(1)],
      types: [],
    })) as {
      status: number;
      body: ErrorResponse;
    };
    expect(bad.status).toBe(400);
    expect(bad.body.error.fields).toMatchObject({ types: 'Choose at least one appointment type' });
    expect((await admin('PUT', '/api/booking-settings', { ...OPEN_ALL_WEEK, days_off: [day(2)] })).status).toBe(200);
    expect((await availability(day(2), day(2))).body.slots).toEqual([]);
  });
});
