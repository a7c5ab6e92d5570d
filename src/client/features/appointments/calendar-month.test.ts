import { describe, expect, it } from 'vitest';
import { calendarLabel, formatAppointmentDate, formatClock, groupByDay, monthRange, parseMonth, todayIn } from './calendar-month.ts';

const appointment = (date: string, time: string) => ({
  id: `${date}-${time}`,
  lead_id: null,
  date,
  time,
  type: 'Call' as const,
  notes: null,
  lead: null,
  duration_minutes: 30,
  location: null,
  status: 'scheduled' as const,
  cancelled_by: null,
  source: 'staff' as const,
  booked_as: null,
  host_id: null,
  host_name: null,
});

describe('calendar-month', () => {
  it("takes today in the business time zone, not the viewer's", () => {
    const now = new Date('2026-03-01T03:30:00Z'); // still Feb 28 in New York, already Mar 1 in Tokyo
    expect(todayIn('America/New_York', now)).toBe('2026-02-28');
    expect(todayIn('Asia/Tokyo', now)).toBe('2026-03-01');
  });

  it('formats wall-clock values as they are stored, whatever the machine zone', () => {
    expect(formatAppointmentDate(appointment('2026-11-01', '01:30'), 'MMMM d, yyyy')).toBe('November 1, 2026');
    expect(formatAppointmentDate(appointment('2026-02-30', '09:00'), 'MMM d, yyyy')).toBe('N/A');
    // 02:30 does not exist on a spring-forward night in many zones; it still reads 2:30 AM.
    expect(formatClock('02:30')).toBe('2:30 AM');
    expect(formatClock('00:00')).toBe('12:00 AM');
    expect(formatClock('12:00')).toBe('12:00 PM');
    expect(formatClock('23:59', true)).toBe('11:59p');
    expect(formatClock('09:30', true)).toBe('9:30a');
    expect(formatClock('7:00')).toBe('N/A');
    expect(calendarLabel(appointment('2026-04-01', '00:05'))).toBe('12:05 AM - Unknown');
  });

  it('reads the month from the URL and groups appointments by day in order', () => {
    expect(parseMonth('2026-13')).toBeUndefined();
    expect(parseMonth('nope')).toBeUndefined();
    expect(monthRange(parseMonth('2028-02')!)).toEqual({ from: '2028-02-01', to: '2028-02-29' });
    const days = groupByDay([appointment('2026-04-01', '08:00'), appointment('2026-04-01', '09:00'), appointment('2026-04-02', '08:00')]);
    expect([...days.keys()]).toEqual(['2026-04-01', '2026-04-02']);
    expect(days.get('2026-04-01')!.map((a) => a.time)).toEqual(['08:00', '09:00']);
  });
});
