import { format } from 'date-fns';
import { describe, expect, it } from 'vitest';
import { ISO_DAY } from './calendar-month.ts';
import { daysOf, defaultView, parseView, parseViewDate, shiftDate, timeSpan, viewRange, viewTitle } from './calendar-views.ts';

const day = (value: string) => parseViewDate(value, null)!;
const iso = (date: Date) => format(date, ISO_DAY);

describe('calendar views', () => {
  it('reads the view and the date from the URL, and nothing it does not know', () => {
    expect(parseView('week')).toBe('week');
    expect(parseView('agenda')).toBe('agenda');
    expect(parseView('year')).toBeUndefined();
    expect(parseView(null)).toBeUndefined();
    expect(defaultView(true)).toBe('agenda');
    expect(defaultView(false)).toBe('month');

    expect(iso(day('2026-11-26'))).toBe('2026-11-26');
    for (const bad of ['2026-02-30', '2026-13-01', '26-11-26', 'today', '1899-12-31', '2201-01-01', ''])
      expect(parseViewDate(bad, null)).toBeUndefined();
    // An older link's month opens on its 1st; a valid date wins over it.
    expect(iso(parseViewDate(null, '2026-04')!)).toBe('2026-04-01');
    expect(iso(parseViewDate('nope', '2026-04')!)).toBe('2026-04-01');
    expect(iso(parseViewDate('2026-11-26', '2026-04')!)).toBe('2026-11-26');
  });

  it('fetches what each view shows: the month grid, the week from Sunday, seven days, the month', () => {
    const thanksgiving = day('2026-11-26'); // a Thursday
    expect(viewRange('month', thanksgiving)).toEqual({ from: '2026-11-01', to: '2026-12-05' });
    expect(viewRange('week', thanksgiving)).toEqual({ from: '2026-11-22', to: '2026-11-28' });
    expect(viewRange('agenda', thanksgiving)).toEqual({ from: '2026-11-26', to: '2026-12-02' });
    expect(viewRange('list', thanksgiving)).toEqual({ from: '2026-11-01', to: '2026-11-30' });
    // A Sunday starts its own week; a week can span two years.
    expect(viewRange('week', day('2026-11-22'))).toEqual({ from: '2026-11-22', to: '2026-11-28' });
    expect(viewRange('week', day('2027-01-01'))).toEqual({ from: '2026-12-27', to: '2027-01-02' });
    expect(daysOf(viewRange('week', thanksgiving)).map(iso)).toEqual([
      '2026-11-22',
      '2026-11-23',
      '2026-11-24',
      '2026-11-25',
      '2026-11-26',
      '2026-11-27',
      '2026-11-28',
    ]);
  });

  it('steps by a month, a week, or the Agenda’s seven days', () => {
    expect(iso(shiftDate('month', day('2026-01-31'), 1))).toBe('2026-02-28');
    expect(iso(shiftDate('list', day('2026-03-15'), -1))).toBe('2026-02-15');
    expect(iso(shiftDate('week', day('2026-11-26'), 1))).toBe('2026-12-03');
    expect(iso(shiftDate('agenda', day('2026-11-26'), -1))).toBe('2026-11-19');
    // Across the spring-forward night the days stay whole.
    expect(iso(shiftDate('week', day('2026-03-05'), 1))).toBe('2026-03-12');
  });

  it('titles a month by name and a span of days compactly', () => {
    expect(viewTitle('month', day('2026-11-26'))).toBe('November 2026');
    expect(viewTitle('week', day('2026-11-26'))).toBe('Nov 22 – 28, 2026');
    expect(viewTitle('week', day('2026-12-01'))).toBe('Nov 29 – Dec 5, 2026');
    expect(viewTitle('week', day('2027-01-01'))).toBe('Dec 27, 2026 – Jan 2, 2027');
    expect(viewTitle('agenda', day('2026-11-26'))).toBe('Nov 26 – Dec 2, 2026');
  });

  it('gives an appointment’s start and end on the wall clock', () => {
    expect(timeSpan({ time: '09:00', duration_minutes: 30 })).toBe('9:00 AM – 9:30 AM');
    expect(timeSpan({ time: '11:45', duration_minutes: 90 })).toBe('11:45 AM – 1:15 PM');
    expect(timeSpan({ time: '23:30', duration_minutes: 60 })).toBe('11:30 PM – 12:30 AM');
    expect(timeSpan({ time: 'soon', duration_minutes: 30 })).toBe('N/A');
  });
});
