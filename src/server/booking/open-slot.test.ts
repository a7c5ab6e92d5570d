import { describe, expect, it } from 'vitest';
import { DEFAULT_BOOKING_SETTINGS } from '#shared/schemas/booking';
import { AppError } from '../http/errors.ts';
import { requireOpenSlot, SLOT_TAKEN, slotTaken, withoutCall } from './open-slot.ts';

const NY = 'America/New_York';
const now = Date.parse('2026-11-23T12:00:00Z'); // Monday 7:00 in New York
const at10 = Date.parse('2026-11-24T15:00:00Z'); // Tuesday 10:00 in New York
const call = { start: at10, duration_minutes: 30 };
const busyAt10 = [{ start: at10, end: at10 + 30 * 60_000 }];

function thrown(f: () => unknown): AppError {
  try {
    f();
  } catch (error) {
    if (error instanceof AppError) return error;
    throw error;
  }
  throw new Error('did not throw');
}

describe('withoutCall', () => {
  it('drops the busy time of the call being moved, and only that one', () => {
    const other = { start: at10 + 3_600_000, end: at10 + 5_400_000 };
    expect(withoutCall([...busyAt10, other], call)).toEqual([other]);
    expect(withoutCall([...busyAt10, other])).toEqual([...busyAt10, other]);
    expect(withoutCall([...busyAt10, ...busyAt10], call)).toEqual(busyAt10);
    expect(withoutCall(busyAt10, { start: at10, duration_minutes: 60 })).toEqual(busyAt10);
  });
});

describe('slotTaken', () => {
  it('is a 409 carrying the open times in the business zone', () => {
    const error = slotTaken([at10], NY);
    expect(error.status).toBe(409);
    expect(error.message).toBe(SLOT_TAKEN);
    expect(error.extra).toEqual({ slots: ['2026-11-24T10:00:00-05:00'] });
  });
});

describe('requireOpenSlot', () => {
  it('answers the business date and clock time of an open start', () => {
    expect(requireOpenSlot(DEFAULT_BOOKING_SETTINGS, NY, '2026-11-24T10:00:00-05:00', [], undefined, now)).toEqual({
      date: '2026-11-24',
      time: '10:00',
    });
  });

  it('refuses a busy start with that day’s other open times', () => {
    const error = thrown(() => requireOpenSlot(DEFAULT_BOOKING_SETTINGS, NY, '2026-11-24T10:00:00-05:00', busyAt10, undefined, now));
    expect(error.status).toBe(409);
    expect(error.extra?.slots).toContain('2026-11-24T09:00:00-05:00');
    expect(error.extra?.slots).not.toContain('2026-11-24T10:00:00-05:00');
    expect(error.extra?.slots?.every((s) => s.startsWith('2026-11-24'))).toBe(true);
  });

  it('lets a call being moved keep (or overlap) its own time', () => {
    expect(requireOpenSlot(DEFAULT_BOOKING_SETTINGS, NY, '2026-11-24T10:00:00-05:00', busyAt10, call, now)).toEqual({
      date: '2026-11-24',
      time: '10:00',
    });
  });

  it('refuses a start off the grid or inside the notice', () => {
    expect(thrown(() => requireOpenSlot(DEFAULT_BOOKING_SETTINGS, NY, '2026-11-24T10:10:00-05:00', [], undefined, now)).status).toBe(409);
    expect(thrown(() => requireOpenSlot(DEFAULT_BOOKING_SETTINGS, NY, '2026-11-23T09:00:00-05:00', [], undefined, now)).status).toBe(409);
  });
});
