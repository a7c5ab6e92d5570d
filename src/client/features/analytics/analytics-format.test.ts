import { describe, expect, it } from 'vitest';
import { formatChange, formatHour, formatMinutesSeconds, periodBoundsText } from './analytics-format.ts';

describe('analytics formats', () => {
  it('shows times as minutes and zero-padded seconds', () => {
    expect(formatMinutesSeconds(125)).toBe('2m 05s');
    expect(formatMinutesSeconds(45)).toBe('0m 45s');
    expect(formatMinutesSeconds(200.4)).toBe('3m 20s');
    expect(formatMinutesSeconds(0)).toBe('0m 00s');
    expect(formatMinutesSeconds(Number.NaN)).toBe('0m 00s');
  });

  it('labels the 24 hours from 12am to 11pm', () => {
    expect([0, 1, 11, 12, 13, 23].map(formatHour)).toEqual(['12am', '1am', '11am', '12pm', '1pm', '11pm']);
  });

  it('signs the percent change', () => {
    expect(formatChange(12.5)).toBe('+12.5%');
    expect(formatChange(-40)).toBe('-40%');
    expect(formatChange(0)).toBe('0%');
    expect(formatChange(1250)).toBe('+1,250%');
  });

  it("says a period's bounds on the business clock, with the zone's name", () => {
    const now = Date.parse('2026-11-07T21:14:00Z');
    const week = { start: '2026-11-01T00:00:00-05:00', end: '2026-11-08T00:00:00-06:00', hours: null, time_zone: 'America/Chicago' };
    // Daylight saving ended on Nov 1: the period still starts at midnight there.
    expect(periodBoundsText(week, now)).toBe('Nov 1, 2026, 12:00 AM – now, Central Time');
    expect(periodBoundsText({ ...week, start: '2026-10-01T00:00:00-05:00', end: '2026-11-01T00:00:00-05:00' }, now)).toBe(
      'Oct 1, 2026, 12:00 AM – Oct 31, 2026, 11:59 PM, Central Time',
    );
    expect(
      periodBoundsText(
        { start: '2026-11-06T16:00:00-06:00', end: '2026-11-07T16:00:00-06:00', hours: 24, time_zone: 'America/Chicago' },
        now,
      ),
    ).toBe('Nov 6, 2026, 4:00 PM – now, Central Time (the current hour and the 23 before it)');
    expect(periodBoundsText({ ...week, start: '2026-11-01T00:00:00+00:00', time_zone: 'UTC' }, now)).toMatch(
      /^Nov 1, 2026, 12:00 AM – now, (Coordinated Universal Time|UTC)$/,
    );
  });
});
