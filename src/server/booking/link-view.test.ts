import { describe, expect, it } from 'vitest';
import { DEFAULT_BOOKING_SETTINGS } from '#shared/schemas/booking';
import type { Booked, BookingRow } from '../db/queries/bookings-queries.ts';
import { bookedRow, bookedView } from './link-view.ts';

const NY = 'America/New_York';
// A week from now, on a half hour: always changeable, whatever the day the test runs.
const start = Math.ceil((Date.now() + 7 * 86_400_000) / 1_800_000) * 1_800_000;
const site = { name: 'Acme Due Diligence', phone: '+1 555 0100', email: 'hello@example.com' };
const link = { token: 'tok', settings: { ...DEFAULT_BOOKING_SETTINGS, slot_minutes: 45 }, timeZone: NY };
const row: BookingRow = { lead_id: 'lead-1', full_name: 'Jane Doe', expired: true, owner_id: null, appointment: null };
const made: Booked = { id: 'appt-9', emailed: true, host_id: 'host-1', location: 'https://meet.jit.si/abc', website: null };

describe('bookedRow', () => {
  it('puts the call just booked in the link’s row: scheduled, first sequence, one slot long, with its host and place', () => {
    expect(bookedRow(row, made, { start, type: 'Zoom' }, link.settings)).toEqual({
      ...row,
      expired: false,
      appointment: {
        id: 'appt-9',
        start,
        duration_minutes: 45,
        type: 'Zoom',
        status: 'scheduled',
        sequence: 0,
        host_id: 'host-1',
        location: 'https://meet.jit.si/abc',
      },
    });
  });
});

describe('bookedView', () => {
  it('shows the call booked, says whether the visitor was emailed, and names the firm as the environment does when nothing was saved', async () => {
    const view = await bookedView(site, row, link, made, { start, type: 'Zoom' });
    expect(view).toMatchObject({
      first_name: 'Jane',
      booking: { type: 'Zoom', status: 'scheduled', join_url: 'https://meet.jit.si/abc' },
      can_book: false,
      can_change: true,
      manage_path: '/booking/tok',
      emailed: true,
    });
    expect(Object.keys(view).at(-1)).toBe('emailed');
    expect(decodeURIComponent(view.calendar!.google_url)).toContain('Acme Due Diligence');
    expect((await bookedView(site, row, link, { ...made, emailed: false }, { start, type: 'Zoom' })).emailed).toBe(false);
  });

  it('names the firm with the words the booking statement read from the website settings', async () => {
    const saved = { ...made, website: { content: { site_name: 'Birch Advisory' }, updated_at: '2026-01-01 00:00:00+00' } };
    const view = await bookedView(site, row, link, saved, { start, type: 'Call' });
    expect(decodeURIComponent(view.calendar!.google_url.replaceAll('+', ' '))).toContain('Birch Advisory');
  });
});
