import { addDays, eachDayOfInterval, endOfMonth, endOfWeek, format, isValid, parse, startOfMonth, startOfWeek } from 'date-fns';
import type { Appointment } from '#shared/schemas/appointment';

/*
 * Appointment dates and times are wall-clock values in the business time zone. Days become
 * local Date objects only to lay out the grid and to format them with date-fns (no zone
 * conversion); times are formatted by hand. So they read the same on every viewer's machine.
 */

export const ISO_DAY = 'yyyy-MM-dd';
export const MONTH_PARAM = 'yyyy-MM';
export const WEEK_STARTS_ON = 0; // Sunday (docs/product-rules.md, "Appointments")

/** A 'yyyy-mm-dd' wall-clock day as a local Date (midnight), or undefined when it is not one. */
export function parseDay(value: string): Date | undefined {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(value)) return undefined;
  const date = parse(value, ISO_DAY, new Date(2000, 0, 1));
  return isValid(date) ? date : undefined;
}

/** A 'yyyy-MM' month as the local Date of its first day, or undefined. */
export function parseMonth(value: string | null): Date | undefined {
  if (!value || !/^\d{4}-\d{2}$/.test(value)) return undefined;
  const date = parse(value, MONTH_PARAM, new Date(2000, 0, 1));
  return isValid(date) && date.getFullYear() >= 1900 && date.getFullYear() <= 2200 ? date : undefined;
}

/** The month grid: whole weeks from the Sunday on or before the 1st to the Saturday on or after the last day. */
export function monthGrid(month: Date) {
  const first = startOfWeek(startOfMonth(month), { weekStartsOn: WEEK_STARTS_ON });
  const last = endOfWeek(endOfMonth(month), { weekStartsOn: WEEK_STARTS_ON });
  const days = eachDayOfInterval({ start: first, end: last });
  const weeks: Date[][] = [];
  for (let i = 0; i < days.length; i += 7) weeks.push(days.slice(i, i + 7));
  return { from: format(first, ISO_DAY), to: format(last, ISO_DAY), weeks };
}

/** The first and last day of the month, for the list view. */
export function monthRange(month: Date) {
  return { from: format(startOfMonth(month), ISO_DAY), to: format(endOfMonth(month), ISO_DAY) };
}

/** Sun..Sat, in grid order. */
export function weekdayNames(): { short: string; long: string }[] {
  const sunday = startOfWeek(new Date(2000, 0, 5), { weekStartsOn: WEEK_STARTS_ON });
  return Array.from({ length: 7 }, (_, i) => {
    const day = addDays(sunday, i);
    return { short: format(day, 'EEE'), long: format(day, 'EEEE') };
  });
}

/** 'HH:MM' as "h:mm a" ("2:05 PM"), or compact for a phone's month cell ("2:05p", "11:30a"); "N/A" when malformed. */
export function formatClock(time: string, compact = false): string {
  const m = /^([01]\d|2[0-3]):([0-5]\d)/.exec(time);
  if (!m) return 'N/A';
  const hours = Number(m[1]);
  const suffix = hours < 12 ? 'AM' : 'PM';
  const clock = `${hours % 12 || 12}:${m[2]}`;
  return compact ? `${clock}${suffix[0]!.toLowerCase()}` : `${clock} ${suffix}`;
}

/**
 * The appointment's date in a date-fns pattern ("MMM d, yyyy"); "N/A" when it does not parse.
 * The time is formatted separately (formatClock): a wall-clock time can fall in the viewer's
 * daylight-saving gap (02:30 on a spring-forward night), which a local Date would shift.
 */
export function formatAppointmentDate({ date }: Pick<Appointment, 'date'>, pattern: string): string {
  const day = parseDay(date);
  return day ? format(day, pattern) : 'N/A';
}

/** "h:mm a - Lead Name" as a calendar cell shows it (docs/product-rules.md, "Appointments"). */
export function calendarLabel(appointment: Appointment): string {
  const label = `${formatClock(appointment.time)} - ${appointment.lead?.full_name ?? 'Unknown'}`;
  return appointment.status === 'cancelled' ? `${label} (cancelled)` : label;
}

/** A cancelled appointment stays on the calendar and in the list, struck through. */
export const cancelledClass = (appointment: Appointment) => (appointment.status === 'cancelled' ? 'line-through opacity-70' : '');

/** Appointments by their 'yyyy-mm-dd' day, keeping the server's order (date, then time). */
export function groupByDay(appointments: readonly Appointment[]): Map<string, Appointment[]> {
  const days = new Map<string, Appointment[]>();
  for (const appointment of appointments) {
    const list = days.get(appointment.date);
    if (list) list.push(appointment);
    else days.set(appointment.date, [appointment]);
  }
  return days;
}

/** Today's 'yyyy-mm-dd' in a time zone (the business's, once the server has named it), else the viewer's. */
export function todayIn(timeZone: string | undefined, now: Date = new Date()): string {
  if (timeZone) {
    try {
      const parts = new Intl.DateTimeFormat('en-US', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }).formatToParts(now);
      const get = (type: string) => parts.find((p) => p.type === type)?.value ?? '';
      return `${get('year')}-${get('month')}-${get('day')}`;
    } catch {
      // An unknown zone falls back to the viewer's day.
    }
  }
  return format(now, ISO_DAY);
}
