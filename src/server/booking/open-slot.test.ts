import { describe, expect, it } from 'vitest';
import { DEFAULT_BOOKING_SETTINGS } from '#shared/schemas/booking';
import type { StoredHostRow } from '../db/queries/hosts-queries.ts';
import { AppError } from '../http/errors.ts';
import { assignmentOrder, hostsOf, requireOpenSlot, SLOT_TAKEN, slotTaken } from './open-slot.ts';

const NY = 'America/New_York';
const now = Date.parse('2026-11-23T12:00:00Z'); // Monday 7:00 in New York
const at10 = Date.parse('2026-11-24T15:00:00Z'); // Tuesday 10:00 in New York
const A = '00000000-0000-4000-8000-00000000000a';
const B = '00000000-0000-4000-8000-00000000000b';
const C = '00000000-0000-4000-8000-00000000000c';
const busyAt10 = [{ start: at10, end: at10 + 30 * 60_000 }];
const host = (id: string, busy = [] as { start: number; end: number }[], extra: Partial<StoredHostRow> = {}): StoredHostRow => ({
  id,
  hours: null,
  days_off: [],
  holidays_off: true,
  busy,
  outside: [],
  ...extra,
});
const hosts = (...stored: StoredHostRow[]) => hostsOf(DEFAULT_BOOKING_SETTINGS, stored);

function thrown(f: () => unknown): AppError {
  try {
    f();
  } catch (error) {
    if (error instanceof AppError) return error;
    throw error;
  }
  throw new Error('did not throw');
}

describe('hostsOf', () => {
  it('leaves the call being moved out of its own host’s calls only', () => {
    const other = { start: at10 + 3_600_000, end: at10 + 5_400_000 };
    const call = { start: at10, duration_minutes: 30, host_id: A };
    const [a, b] = hostsOf(DEFAULT_BOOKING_SETTINGS, [host(A, [...busyAt10, other]), host(B, busyAt10)], call);
    expect(a!.blocked).toEqual([other]);
    expect(b!.blocked).toEqual(busyAt10);
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
  it('answers the business date, clock time and who is free then', () => {
    const at = requireOpenSlot(DEFAULT_BOOKING_SETTINGS, NY, '2026-11-24T10:00:00-05:00', hosts(host(A), host(B, busyAt10)), now);
    expect({ date: at.date, time: at.time, free: at.free.map((h) => h.id) }).toEqual({ date: '2026-11-24', time: '10:00', free: [A] });
  });

  it('refuses a time when everyone is busy, with that day’s other open times', () => {
    const error = thrown(() =>
      requireOpenSlot(DEFAULT_BOOKING_SETTINGS, NY, '2026-11-24T10:00:00-05:00', hosts(host(A, busyAt10), host(B, busyAt10)), now),
    );
    expect(error.status).toBe(409);
    expect(error.extra?.slots).toContain('2026-11-24T09:00:00-05:00');
    expect(error.extra?.slots).not.toContain('2026-11-24T10:00:00-05:00');
    expect(error.extra?.slots?.every((s) => s.startsWith('2026-11-24'))).toBe(true);
  });

  it('refuses every time when nobody takes calls', () => {
    const error = thrown(() => requireOpenSlot(DEFAULT_BOOKING_SETTINGS, NY, '2026-11-24T10:00:00-05:00', [], now));
    expect(error.extra?.slots).toEqual([]);
  });

  it('lets a call being moved keep (or overlap) its own time', () => {
    const call = { start: at10, duration_minutes: 30, host_id: A };
    const at = requireOpenSlot(
      DEFAULT_BOOKING_SETTINGS,
      NY,
      '2026-11-24T10:00:00-05:00',
      hostsOf(DEFAULT_BOOKING_SETTINGS, [host(A, busyAt10)], call),
      now,
    );
    expect(at.free.map((h) => h.id)).toEqual([A]);
  });

  it('refuses a start off the grid, inside the notice, or on a federal holiday of someone who takes them off', () => {
    const h = hosts(host(A));
    expect(thrown(() => requireOpenSlot(DEFAULT_BOOKING_SETTINGS, NY, '2026-11-24T10:10:00-05:00', h, now)).status).toBe(409);
    expect(thrown(() => requireOpenSlot(DEFAULT_BOOKING_SETTINGS, NY, '2026-11-23T09:00:00-05:00', h, now)).status).toBe(409);
    // Thanksgiving 2026 is Thursday Nov 26.
    expect(thrown(() => requireOpenSlot(DEFAULT_BOOKING_SETTINGS, NY, '2026-11-26T10:00:00-05:00', h, now)).status).toBe(409);
    const works = hosts(host(A, [], { holidays_off: false }));
    expect(requireOpenSlot(DEFAULT_BOOKING_SETTINGS, NY, '2026-11-26T10:00:00-05:00', works, now).free).toHaveLength(1);
  });
});

describe('assignmentOrder', () => {
  const stored = [
    host(A, [], { last_booked_at: '2026-11-20T10:00:00+00:00', upcoming: 1 }),
    host(B, [], { last_booked_at: '2026-11-19T10:00:00+00:00', upcoming: 5 }),
    host(C, [], { last_booked_at: '2026-11-20T10:00:00+00:00', upcoming: 0 }),
  ];
  const free = hosts(...stored);

  it('puts the lead’s owner first, then the least recently booked, then the fewest calls to come', () => {
    expect(assignmentOrder(free, stored, C)).toEqual([C, B, A]);
    expect(assignmentOrder(free, stored, null)).toEqual([B, C, A]);
  });

  it('keeps a moving call with its host before anyone', () => {
    expect(assignmentOrder(free, stored, C, A)).toEqual([A, C, B]);
  });

  it('puts someone never booked before anyone booked', () => {
    const fresh = [...stored, host('00000000-0000-4000-8000-00000000000d', [], { last_booked_at: null, upcoming: 9 })];
    expect(assignmentOrder(hosts(...fresh), fresh, null)[0]).toBe('00000000-0000-4000-8000-00000000000d');
  });

  it('leaves out an owner who is not free', () => {
    expect(assignmentOrder(hosts(stored[0]!), stored, C)).toEqual([A]);
  });
});
