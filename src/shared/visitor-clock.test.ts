import { describe, expect, it } from 'vitest';
import { bothClocks, LONG_DAY } from './visitor-clock.ts';
import { canonicalTimeZone, isTimeZone } from './zoned-time.ts';

const NY = 'America/New_York';
// Tuesday, November 24, 2026, 10:00 AM in New York (EST, UTC-5).
const TEN_AM = '2026-11-24T10:00:00-05:00';

describe('bothClocks', () => {
  it('puts the visitor’s clock first and the firm’s beside it', () => {
    expect(bothClocks(TEN_AM, NY, 'America/Los_Angeles', { day: LONG_DAY })).toBe('Tuesday, November 24 at 7:00 AM PST (10:00 AM EST)');
    expect(bothClocks(TEN_AM, NY, 'America/Los_Angeles')).toBe('7:00 AM PST (10:00 AM EST)');
  });

  it('shows one time when the clocks agree, or no visitor zone is known', () => {
    expect(bothClocks(TEN_AM, NY, NY, { day: LONG_DAY })).toBe('Tuesday, November 24 at 10:00 AM EST');
    // Another zone name on the same clock is the same time to the visitor.
    expect(bothClocks(TEN_AM, NY, 'America/Detroit', { day: LONG_DAY })).toBe('Tuesday, November 24 at 10:00 AM EST');
    expect(bothClocks(TEN_AM, NY, undefined, { day: LONG_DAY })).toBe('Tuesday, November 24 at 10:00 AM EST');
    expect(
      bothClocks(TEN_AM, NY, null, { day: { weekday: 'short', month: 'short', day: 'numeric' }, joiner: ', ', zoneWhenAlone: false }),
    ).toBe('Tue, Nov 24, 10:00 AM');
  });

  it('gives the firm’s day too when the visitor’s date is another', () => {
    expect(bothClocks(TEN_AM, NY, 'Asia/Tokyo', { day: { ...LONG_DAY, year: 'numeric' } })).toBe(
      'Wednesday, November 25, 2026 at 12:00 AM GMT+9 (Tuesday, November 24, 2026 at 10:00 AM EST)',
    );
  });

  it('follows daylight saving on each side', () => {
    // July: New York on EDT, London on BST.
    expect(bothClocks('2026-07-14T10:00:00-04:00', NY, 'Europe/London')).toBe('3:00 PM GMT+1 (10:00 AM EDT)');
  });
});

describe('isTimeZone', () => {
  it('takes IANA names in any case, and refuses offsets, made-up names and junk', () => {
    for (const zone of ['America/Los_Angeles', 'UTC', 'Etc/GMT+5', 'america/los_angeles', 'America/Argentina/Buenos_Aires'])
      expect(isTimeZone(zone)).toBe(true);
    for (const zone of ['', '+05:00', 'Mars/Olympus_Mons', 'America/Nowhere', 'America/Los_Angeles\n', '../../etc/passwd', 'x'.repeat(65)])
      expect(isTimeZone(zone)).toBe(false);
    expect(canonicalTimeZone('america/los_angeles')).toBe('America/Los_Angeles');
  });
});
