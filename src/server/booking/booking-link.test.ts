import { describe, expect, it } from 'vitest';
import { DEFAULT_BOOKING_SETTINGS } from '#shared/schemas/booking';
import type { BookingRow } from '../db/queries/bookings-queries.ts';
import { AppError } from '../http/errors.ts';
import {
  ALREADY_BOOKED,
  BOOKING_CLOSED,
  requireBookableType,
  requireBookingOpen,
  requireChangeable,
  requireNoCallBooked,
  TOO_LATE,
  visitorZoneOf,
} from './booking-link.ts';

const now = Date.parse('2026-11-23T12:00:00Z');
const HOUR = 3_600_000;
const rowWith = (appointment: BookingRow['appointment']): BookingRow => ({
  lead_id: 'lead-1',
  full_name: 'Jane Doe',
  expired: false,
  owner_id: null,
  appointment,
});
const scheduledIn = (hours: number, status: 'scheduled' | 'cancelled' = 'scheduled') =>
  rowWith({ id: 'appt-7', start: now + hours * HOUR, duration_minutes: 30, type: 'Call', status, sequence: 0, host_id: null });

function refusal(f: () => unknown): { status: number; message: string } {
  try {
    f();
  } catch (error) {
    if (error instanceof AppError) return { status: error.status, message: error.message };
    throw error;
  }
  throw new Error('did not throw');
}

describe('the booking link rules', () => {
  it('requireBookingOpen: 409 with no times while the owners have closed online booking', () => {
    expect(() => requireBookingOpen(DEFAULT_BOOKING_SETTINGS)).not.toThrow();
    expect(refusal(() => requireBookingOpen({ ...DEFAULT_BOOKING_SETTINGS, enabled: false }))).toEqual({
      status: 409,
      message: BOOKING_CLOSED,
    });
  });

  it('requireNoCallBooked: a link books one call; a cancelled one may be booked again', () => {
    expect(() => requireNoCallBooked(rowWith(null))).not.toThrow();
    expect(() => requireNoCallBooked(scheduledIn(48, 'cancelled'))).not.toThrow();
    expect(refusal(() => requireNoCallBooked(scheduledIn(48)))).toEqual({ status: 409, message: ALREADY_BOOKED });
  });

  it('requireBookableType: only the kinds the owners offer', () => {
    expect(() => requireBookableType({ ...DEFAULT_BOOKING_SETTINGS, types: ['Call'] }, 'Call')).not.toThrow();
    expect(refusal(() => requireBookableType({ ...DEFAULT_BOOKING_SETTINGS, types: ['Call'] }, 'Zoom')).status).toBe(400);
  });

  it('requireChangeable: a scheduled call, at least the minimum notice away', () => {
    const settings = { ...DEFAULT_BOOKING_SETTINGS, min_notice_hours: 4 };
    expect(requireChangeable(scheduledIn(4), settings, now).id).toBe('appt-7');
    expect(refusal(() => requireChangeable(scheduledIn(3.9), settings, now))).toEqual({ status: 422, message: TOO_LATE(4) });
    expect(refusal(() => requireChangeable(scheduledIn(48, 'cancelled'), settings, now)).status).toBe(422);
    expect(refusal(() => requireChangeable(rowWith(null), settings, now)).status).toBe(422);
  });

  it('visitorZoneOf: the runtime’s spelling of the zone sent, null when none', () => {
    expect(visitorZoneOf(undefined)).toBeNull();
    expect(visitorZoneOf('America/New_York')).toBe('America/New_York');
  });
});
