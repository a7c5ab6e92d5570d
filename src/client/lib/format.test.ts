import { describe, expect, it } from 'vitest';
import { formatAppointmentTime, formatDate, formatDuration, formatPropertyType, formatZonedDateTime } from './format.ts';

describe('format', () => {
  it('formats dates as MMM d, yyyy and anything invalid as N/A', () => {
    expect(formatDate('2025-01-05T14:30:00.000Z')).toBe('Jan 5, 2025');
    expect(formatDate('not a date')).toBe('N/A');
    expect(formatDate(null)).toBe('N/A');
    expect(formatDate('')).toBe('N/A');
  });

  it("formats an appointment's wall-clock date and time", () => {
    expect(formatAppointmentTime('2025-03-04', '14:30')).toBe('Mar 4, 2:30 PM');
    expect(formatAppointmentTime('2025-03-04', '09:05')).toBe('Mar 4, 9:05 AM');
    expect(formatAppointmentTime('2025-02-30', '09:05')).toBe('N/A');
    expect(formatAppointmentTime('soon', '09:05')).toBe('N/A');
  });

  it('formats a moment on the clock of the time zone given, naming the zone', () => {
    // 15:05 UTC: 10:05 in New York (EST), 11:05 the next summer (EDT), 7:05 in Los Angeles.
    expect(formatZonedDateTime('2026-11-23T15:05:00.000Z', 'America/New_York')).toBe('Nov 23, 10:05 AM EST');
    expect(formatZonedDateTime('2027-06-23T15:05:00.000Z', 'America/New_York')).toBe('Jun 23, 11:05 AM EDT');
    expect(formatZonedDateTime('2026-11-23T15:05:00.000Z', 'America/Los_Angeles')).toBe('Nov 23, 7:05 AM PST');
    // The day too is the zone's: 03:30 UTC on Mar 1 is still Feb 28 in New York.
    expect(formatZonedDateTime('2026-03-01T03:30:00Z', 'America/New_York')).toBe('Feb 28, 10:30 PM EST');
    expect(formatZonedDateTime('2026-11-23T00:00:00Z', 'UTC')).toBe('Nov 23, 12:00 AM UTC');
    expect(formatZonedDateTime('not a date', 'America/New_York')).toBe('N/A');
    expect(formatZonedDateTime(null)).toBe('N/A');
    // An unknown zone: the viewer's clock, still named.
    expect(formatZonedDateTime('2026-11-23T15:05:00.000Z', 'Mars/Olympus_Mons')).toMatch(/^Nov 2[34], \d{1,2}:05 [AP]M \S+$/);
  });

  it('shows the first property type by its one label', () => {
    expect(formatPropertyType(['single-family', 'land'])).toBe('Single family');
    expect(formatPropertyType(['multifamily'])).toBe('Multifamily');
    expect(formatPropertyType(['castle'])).toBe('castle');
    expect(formatPropertyType([])).toBe('—');
  });

  it('formats durations', () => {
    expect(formatDuration(null)).toBe('—');
    expect(formatDuration(42)).toBe('42s');
    expect(formatDuration(12 * 60 + 5)).toBe('12m');
    expect(formatDuration(2 * 3600 + 15 * 60)).toBe('2h 15m');
    expect(formatDuration(3 * 86400 + 4 * 3600)).toBe('3d 4h');
  });
});
