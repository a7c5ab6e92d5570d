import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { exactParts, zonedInstant, zonedParts } from './zoned-time.ts';

// Zones with daylight saving at different hours, half- and quarter-hour offsets, a 30-minute
// DST shift (Lord Howe), a southern-hemisphere DST, and a zone that changed its base offset.
const ZONES = [
  'America/New_York',
  'America/Los_Angeles',
  'America/St_Johns',
  'Europe/London',
  'Asia/Kolkata',
  'Asia/Kathmandu',
  'Australia/Lord_Howe',
  'Pacific/Chatham',
  'America/Santiago',
  'Pacific/Apia',
  'UTC',
];

const viaIntl = (instant: number, zone: string) => {
  const { date, minutes, offsetMs } = exactParts(instant, zone);
  return { date, minutes, offsetMinutes: Math.round(offsetMs / 60_000) };
};

describe('zonedParts', () => {
  it('answers as Intl does, for any instant from 1850 to 2150 in zones with odd offsets and changes', () => {
    fc.assert(
      fc.property(fc.integer({ min: Date.UTC(1850, 0, 1), max: Date.UTC(2150, 0, 1) }), fc.constantFrom(...ZONES), (instant, zone) => {
        expect(zonedParts(instant, zone)).toEqual(viaIntl(instant, zone));
      }),
      { numRuns: 20_000 },
    );
  });

  it('answers as Intl does minute by minute around every clock change of 2026 and 2027', () => {
    for (const zone of ZONES)
      for (let t = Date.UTC(2026, 0, 1); t < Date.UTC(2028, 0, 1); t += 6 * 3_600_000) {
        // A change within these six hours: every minute of them (and a second before each).
        if (exactParts(t, zone).offsetMs === exactParts(t + 6 * 3_600_000, zone).offsetMs) continue;
        for (let m = t; m <= t + 6 * 3_600_000; m += 60_000)
          for (const instant of [m, m - 1000, m + 59_999]) expect(zonedParts(instant, zone)).toEqual(viaIntl(instant, zone));
      }
  });

  it('still turns a wall clock back into its instant', () => {
    expect(zonedParts(zonedInstant('2026-03-08', 3 * 60, 'America/New_York')!, 'America/New_York')).toEqual({
      date: '2026-03-08',
      minutes: 180,
      offsetMinutes: -240,
    });
  });
});
