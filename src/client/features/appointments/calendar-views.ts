import { addDays, addMonths, addWeeks, eachDayOfInterval, endOfWeek, format, isSameMonth, isSameYear, startOfWeek } from 'date-fns';
import type { Appointment } from '#shared/schemas/appointment';
import { ISO_DAY, WEEK_STARTS_ON, formatClock, monthGrid, monthRange, parseDay, parseMonth } from './calendar-month.ts';

/*
 * The Appointments page's views (docs/product-rules.md, "Appointments"): Month, Week and Agenda
 * (the calendar) and List, each around one day, all in the URL: ?view=week&date=2026-11-26.
 */

export const APPOINTMENT_VIEWS = ['month', 'week', 'agenda', 'list'] as const;
export type AppointmentsView = (typeof APPOINTMENT_VIEWS)[number];

/** The Agenda lists this many days from its date. */
export const AGENDA_DAYS = 7;

/** Below this width (Tailwind's `sm`) a phone opens the Agenda; wider screens the Month. */
export const PHONE_QUERY = '(max-width: 639px)';

export const defaultView = (phone: boolean): AppointmentsView => (phone ? 'agenda' : 'month');

/** `?view=`, or undefined when missing or unknown (then the default for the screen). */
export function parseView(value: string | null): AppointmentsView | undefined {
  return APPOINTMENT_VIEWS.find((v) => v === value);
}

/**
 * The day the view is around: `?date=yyyy-mm-dd`, else the first of an older link's
 * `?month=yyyy-MM`, else undefined (today). A day that does not exist, or outside 1900..2200, is not one.
 */
export function parseViewDate(date: string | null, month: string | null): Date | undefined {
  const day = date ? parseDay(date) : undefined;
  if (day && day.getFullYear() >= 1900 && day.getFullYear() <= 2200) return day;
  return parseMonth(month);
}

/** The days a view shows and fetches, both ends included ('yyyy-mm-dd'). */
export function viewRange(view: AppointmentsView, date: Date): { from: string; to: string } {
  switch (view) {
    case 'month': {
      const { from, to } = monthGrid(date);
      return { from, to };
    }
    case 'week':
      return {
        from: format(startOfWeek(date, { weekStartsOn: WEEK_STARTS_ON }), ISO_DAY),
        to: format(endOfWeek(date, { weekStartsOn: WEEK_STARTS_ON }), ISO_DAY),
      };
    case 'agenda':
      return { from: format(date, ISO_DAY), to: format(addDays(date, AGENDA_DAYS - 1), ISO_DAY) };
    case 'list':
      return monthRange(date);
  }
}

/** Each day of a range, as local dates. */
export const daysOf = ({ from, to }: { from: string; to: string }): Date[] =>
  eachDayOfInterval({ start: parseDay(from)!, end: parseDay(to)! });

/** The date one step back (-1) or on (+1): a month, a week, or the Agenda's days. */
export function shiftDate(view: AppointmentsView, date: Date, step: 1 | -1): Date {
  if (view === 'month' || view === 'list') return addMonths(date, step);
  return addWeeks(date, step);
}

/** The view's title: "November 2026", or a span of days ("Nov 22 – 28, 2026", "Nov 29 – Dec 5, 2026", "Dec 27, 2026 – Jan 2, 2027"). */
export function viewTitle(view: AppointmentsView, date: Date): string {
  if (view === 'month' || view === 'list') return format(date, 'MMMM yyyy');
  const [first, last] = [viewRange(view, date).from, viewRange(view, date).to].map((d) => parseDay(d)!) as [Date, Date];
  if (isSameMonth(first, last)) return `${format(first, 'MMM d')} – ${format(last, 'd, yyyy')}`;
  if (isSameYear(first, last)) return `${format(first, 'MMM d')} – ${format(last, 'MMM d, yyyy')}`;
  return `${format(first, 'MMM d, yyyy')} – ${format(last, 'MMM d, yyyy')}`;
}

/** What the previous / next buttons say, for each view. */
export const STEP_LABELS: Record<AppointmentsView, { previous: string; next: string }> = {
  month: { previous: 'Previous month', next: 'Next month' },
  list: { previous: 'Previous month', next: 'Next month' },
  week: { previous: 'Previous week', next: 'Next week' },
  agenda: { previous: 'Previous 7 days', next: 'Next 7 days' },
};

/** "9:00 AM – 9:30 AM": the wall-clock start and end (its duration later; past midnight it reads the next day's clock). */
export function timeSpan(appointment: Pick<Appointment, 'time' | 'duration_minutes'>): string {
  const start = formatClock(appointment.time);
  const m = /^(\d{2}):(\d{2})/.exec(appointment.time);
  if (!m || start === 'N/A') return start;
  const end = (Number(m[1]) * 60 + Number(m[2]) + appointment.duration_minutes) % (24 * 60);
  const clock = `${String(Math.floor(end / 60)).padStart(2, '0')}:${String(end % 60).padStart(2, '0')}`;
  return `${start} – ${formatClock(clock)}`;
}
