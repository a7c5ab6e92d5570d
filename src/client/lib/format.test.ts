import { describe, expect, it } from 'vitest';
import { formatAppointmentTime, formatDate, formatDuration, formatPropertyType } from './format.ts';

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

  it('shows the first property type by its one label', () => {
    expect(formatPropertyType(['single-family', 'land'])).toBe('Single-family');
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
