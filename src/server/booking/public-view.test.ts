import { describe, expect, it } from 'vitest';
import { DEFAULT_BOOKING_SETTINGS } from '#shared/schemas/booking';
import type { BookingRow } from '../db/queries/bookings-queries.ts';
import type { HoldRow } from '../db/queries/booking-holds-queries.ts';
import { publicView } from './public-view.ts';

const NY = 'America/New_York';
const now = Date.parse('2026-11-23T12:00:00Z');
const at10 = Date.parse('2026-11-24T15:00:00Z');
const site = { name: 'Acme Due Diligence', phone: '+1 555 0100', email: 'hello@example.com' };
const row = (appointment: BookingRow['appointment'], expired = false): BookingRow => ({
  lead_id: 'lead-1',
  full_name: 'Jane  Q Doe',
  expired,
  owner_id: null,
  appointment,
});

describe('publicView', () => {
  it('shows a link with no call: bookable, nothing to change, no calendar (and reads no site)', async () => {
    const view = await publicView(row(null), 'tok', DEFAULT_BOOKING_SETTINGS, NY, {
      now,
      site: () => Promise.reject(new Error('not read')),
    });
    expect(view).toMatchObject({
      first_name: 'Jane',
      booking: null,
      can_book: true,
      can_change: false,
      manage_path: '/booking/tok',
      pending: null,
      calendar: null,
    });
  });

  it('shows a scheduled call with its calendar links, changeable until the notice', async () => {
    const call = {
      id: 'appt-3',
      start: at10,
      duration_minutes: 30,
      type: 'Call',
      status: 'scheduled' as const,
      sequence: 0,
      host_id: null,
    };
    const view = await publicView(row(call), 'tok', DEFAULT_BOOKING_SETTINGS, NY, { now, site: async () => site });
    expect(view.booking).toEqual({
      start: '2026-11-24T10:00:00-05:00',
      end: '2026-11-24T10:30:00-05:00',
      type: 'Call',
      status: 'scheduled',
      join_url: null,
    });
    expect(view.can_book).toBe(false);
    expect(view.can_change).toBe(true);
    expect(view.calendar?.ics_path).toBe('/api/public/bookings/tok/calendar.ics');
    expect(view.calendar?.google_url).toContain('Acme');
    const late = await publicView(row(call), 'tok', DEFAULT_BOOKING_SETTINGS, NY, { now: at10 - 3_600_000, site: async () => site });
    expect(late.can_change).toBe(false);
  });

  it('shows a pending hold only while unconfirmed and unexpired; an expired link cannot book', async () => {
    const hold = { start: at10, type: 'Zoom', expires_at: '2026-11-23T12:30:00.000Z', confirmed: false, expired: false } as HoldRow;
    const view = await publicView(row(null, true), 'tok', DEFAULT_BOOKING_SETTINGS, NY, { now, hold, site: async () => site });
    expect(view.can_book).toBe(false);
    expect(view.pending).toEqual({
      start: '2026-11-24T10:00:00-05:00',
      end: '2026-11-24T10:30:00-05:00',
      type: 'Zoom',
      expires_at: hold.expires_at,
    });
    expect(
      (await publicView(row(null), 'tok', DEFAULT_BOOKING_SETTINGS, NY, { now, hold: { ...hold, expired: true }, site: async () => site }))
        .pending,
    ).toBeNull();
  });
});
