import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DEFAULT_BOOKING_SETTINGS, type BookingSettings } from '#shared/schemas/booking';
import { addDays, clockText, isoInZone, zonedInstant, zonedParts } from '#shared/zoned-time';
import { blockedRanges, type Busy } from '../lib/busy-times.ts';
import { openSlots, openTimesOfDay } from './open-times.ts';

const NY = 'America/New_York';
const MINUTE = 60_000;

describe('zoned time', () => {
  it('reads and names instants across both daylight-saving changes', () => {
    expect(isoInZone(Date.parse('2026-11-24T15:00:00Z'), NY)).toBe('2026-11-24T10:00:00-05:00');
    expect(isoInZone(Date.parse('2026-07-01T13:30:00Z'), NY)).toBe('2026-07-01T09:30:00-04:00');
    // 2026-03-08 02:30 does not exist in New York; 2026-11-01 01:30 happens twice (first is EDT).
    expect(zonedInstant('2026-03-08', 150, NY)).toBeUndefined();
    expect(new Date(zonedInstant('2026-11-01', 90, NY)!).toISOString()).toBe('2026-11-01T05:30:00.000Z');
    expect(new Date(zonedInstant('2026-03-08', 180, NY)!).toISOString()).toBe('2026-03-08T07:00:00.000Z');
    expect(isoInZone(Date.parse('2026-11-24T15:00:00Z'), 'Asia/Kolkata')).toBe('2026-11-24T20:30:00+05:30');
  });
});

describe('openSlots', () => {
  const now = Date.parse('2026-11-23T12:00:00Z'); // Monday 7:00 in New York

  it('offers the default hours: weekdays 9 to 5 in 30-minute slots, 4 hours ahead at the earliest', () => {
    const slots = openSlots({ settings: DEFAULT_BOOKING_SETTINGS, timeZone: NY, from: '2026-11-23', to: '2026-11-29', now, busy: [] });
    const iso = slots.map((s) => isoInZone(s, NY));
    expect(iso[0]).toBe('2026-11-23T11:00:00-05:00');
    expect(iso).toContain('2026-11-27T16:30:00-05:00');
    expect(iso).not.toContain('2026-11-27T17:00:00-05:00');
    expect(iso.some((s) => s.startsWith('2026-11-28') || s.startsWith('2026-11-29'))).toBe(false);
    expect(slots).toHaveLength(12 + 4 * 16);
  });

  it('keeps clear of appointments by the buffer, and skips days off and days past the window', () => {
    const settings: BookingSettings = { ...DEFAULT_BOOKING_SETTINGS, buffer_minutes: 15, days_off: ['2026-11-26'], horizon_days: 3 };
    const busy = [{ start: Date.parse('2026-11-24T15:00:00Z'), end: Date.parse('2026-11-24T15:30:00Z') }]; // 10:00–10:30
    const iso = openSlots({ settings, timeZone: NY, from: '2026-11-24', to: '2026-12-31', now, busy }).map((s) => isoInZone(s, NY));
    expect(iso).toContain('2026-11-24T09:00:00-05:00');
    expect(iso).not.toContain('2026-11-24T09:30:00-05:00');
    expect(iso).not.toContain('2026-11-24T10:00:00-05:00');
    expect(iso).not.toContain('2026-11-24T10:30:00-05:00');
    expect(iso).toContain('2026-11-24T11:00:00-05:00');
    expect(iso.some((s) => s.startsWith('2026-11-26'))).toBe(false);
    expect(iso.some((s) => s.startsWith('2026-11-27'))).toBe(false);
    expect(iso.some((s) => s.startsWith('2026-11-25'))).toBe(true);
  });

  it('offers nothing when booking is off', () => {
    expect(
      openSlots({
        settings: { ...DEFAULT_BOOKING_SETTINGS, enabled: false },
        timeZone: NY,
        from: '2026-11-23',
        to: '2026-12-01',
        now,
        busy: [],
      }),
    ).toEqual([]);
  });

  // Random settings and appointments around both 2026 changes in three zones.
  const zones = fc.constantFrom(NY, 'Europe/London', 'Australia/Sydney', 'America/Phoenix');
  const hours = fc
    .tuple(fc.integer({ min: 0, max: 24 * 60 - 1 }), fc.integer({ min: 0, max: 24 * 60 - 1 }))
    .filter(([a, b]) => a !== b)
    .map(([a, b]) => ({ start: clockText(Math.min(a, b)), end: clockText(Math.max(a, b)) }));
  const settings = fc.record({
    enabled: fc.constant(true),
    hours: fc.array(fc.option(hours, { nil: null }), { minLength: 7, maxLength: 7 }),
    slot_minutes: fc.integer({ min: 10, max: 240 }),
    buffer_minutes: fc.integer({ min: 0, max: 120 }),
    min_notice_hours: fc.integer({ min: 0, max: 72 }),
    horizon_days: fc.integer({ min: 1, max: 20 }),
    types: fc.constant<BookingSettings['types']>(['Call']),
    days_off: fc.uniqueArray(fc.integer({ min: 0, max: 20 }), { maxLength: 5 }),
  });
  // Just before the changes: Mar 8 (US), Mar 29 (EU), Apr 5 (AU), Oct 4 (AU), Oct 25 (EU), Nov 1 (US).
  const starts = fc.constantFrom('2026-03-05', '2026-03-26', '2026-04-02', '2026-10-01', '2026-10-22', '2026-10-29');

  it('never offers a slot outside open hours, on a day off, too soon, or over an appointment and its buffer', () => {
    fc.assert(
      fc.property(
        zones,
        starts,
        settings,
        fc.integer({ min: 0, max: 23 * 60 }),
        fc.array(fc.tuple(fc.integer({ min: 0, max: 20 * 24 * 60 }), fc.integer({ min: 5, max: 240 })), { maxLength: 30 }),
        (timeZone, day, s, minuteOfDay, appointments) => {
          const start = zonedInstant(day, 0, timeZone)!;
          const now = start + minuteOfDay * MINUTE;
          const cfg: BookingSettings = {
            ...DEFAULT_BOOKING_SETTINGS,
            ...s,
            require_email_confirmation: false,
            days_off: s.days_off.map((n) => addDays(day, n)),
          };
          const busy: Busy[] = appointments.map(([at, length]) => ({ start: start + at * MINUTE, end: start + (at + length) * MINUTE }));
          const slots = openSlots({ settings: cfg, timeZone, from: day, to: addDays(day, 25), now, busy });
          const today = zonedParts(now, timeZone).date;
          let previous = -Infinity;
          for (const slot of slots) {
            const end = slot + cfg.slot_minutes * MINUTE;
            const a = zonedParts(slot, timeZone);
            const b = zonedParts(end, timeZone);
            const open = cfg.hours[new Date(`${a.date}T00:00:00Z`).getUTCDay() === 0 ? 6 : new Date(`${a.date}T00:00:00Z`).getUTCDay() - 1];
            expect(open).not.toBeNull();
            const [o, c] = [open!.start, open!.end].map((t) => Number(t.slice(0, 2)) * 60 + Number(t.slice(3)));
            expect(a.minutes).toBeGreaterThanOrEqual(o!);
            expect(b.date).toBe(a.date);
            expect(b.minutes).toBeLessThanOrEqual(c!);
            expect(cfg.days_off).not.toContain(a.date);
            expect(slot).toBeGreaterThanOrEqual(now + cfg.min_notice_hours * 3_600_000);
            expect(a.date <= addDays(today, cfg.horizon_days)).toBe(true);
            for (const x of busy) {
              const pad = cfg.buffer_minutes * MINUTE;
              expect(slot < x.end + pad && x.start - pad < end).toBe(false);
            }
            expect(slot).toBeGreaterThan(previous);
            previous = slot;
          }
        },
      ),
      { numRuns: 300 },
    );
  });

  it('offers every slot that is free (none is left out)', () => {
    fc.assert(
      fc.property(zones, starts, fc.integer({ min: 10, max: 120 }), (timeZone, day, slotMinutes) => {
        const cfg: BookingSettings = {
          ...DEFAULT_BOOKING_SETTINGS,
          hours: Array(7).fill({ start: '00:00', end: '23:59' }),
          slot_minutes: slotMinutes,
          min_notice_hours: 0,
        };
        const now = zonedInstant(day, 0, timeZone)!;
        const slots = openSlots({ settings: cfg, timeZone, from: day, to: addDays(day, 6), now, busy: [] });
        // Each day: every multiple of the slot length from midnight whose time exists and that ends by 23:59.
        let expected = 0;
        for (let d = 0; d <= 6; d++) {
          const date = addDays(day, d);
          for (let m = 0; m + slotMinutes <= 23 * 60 + 59; m += slotMinutes) {
            const at = zonedInstant(date, m, timeZone);
            if (at === undefined) continue;
            const end = zonedParts(at + slotMinutes * MINUTE, timeZone);
            if (end.date === date && end.minutes <= 23 * 60 + 59) expected++;
          }
        }
        expect(slots).toHaveLength(expected);
      }),
      { numRuns: 60 },
    );
  });

  it('writes each open time as isoInZone would, without asking Intl for each (half-hour and 45-minute offsets, both changes)', () => {
    const anyZone = fc.constantFrom(
      NY,
      'Europe/London',
      'Australia/Adelaide',
      'Asia/Kolkata',
      'Asia/Kathmandu',
      'America/St_Johns',
      'Pacific/Chatham',
    );
    fc.assert(
      fc.property(
        anyZone,
        starts,
        fc.integer({ min: 0, max: 6 }),
        fc.integer({ min: 10, max: 90 }),
        (timeZone, first, offset, slotMinutes) => {
          const date = addDays(first, offset);
          const cfg: BookingSettings = {
            ...DEFAULT_BOOKING_SETTINGS,
            hours: Array(7).fill({ start: '00:00', end: '23:59' }),
            slot_minutes: slotMinutes,
          };
          const busy = [{ start: zonedInstant(date, 12 * 60, timeZone)!, end: zonedInstant(date, 12 * 60, timeZone)! + 45 * MINUTE }];
          const day = openTimesOfDay(cfg, timeZone, date, blockedRanges(busy, 0));
          expect(day.iso).toEqual(day.starts.map((s) => isoInZone(s, timeZone)));
          expect(day.starts.length).toBeGreaterThan(0);
        },
      ),
      { numRuns: 80 },
    );
  });
});
