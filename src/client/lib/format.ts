import { format, isValid, parseISO } from 'date-fns';
import { propertyTypeLabel } from '#shared/property-type-label';

// Display helpers the dashboard pages share (docs/product-rules.md, "Dates and numbers").
export const DATE_FORMAT = 'MMM d, yyyy';
export const DATE_TIME_FORMAT = 'MMM d, h:mm a';

/** An ISO date or timestamp in the given pattern; anything unparsable shows "N/A". */
export function formatDate(value: string | null | undefined, pattern: string = DATE_FORMAT): string {
  if (!value) return 'N/A';
  const date = parseISO(value);
  return isValid(date) ? format(date, pattern) : 'N/A';
}

/**
 * A moment (an ISO timestamp) as the clock of `timeZone` reads it, with that zone's name, so it
 * cannot be misread by someone elsewhere: "Nov 26, 10:00 AM EST" ("MMM d, h:mm a" and the zone).
 * The dashboard passes the business time zone, the one its appointments are in; without one, or
 * with a zone this browser does not know, the viewer's own, still named. "N/A" when unparsable.
 */
export function formatZonedDateTime(value: string | null | undefined, timeZone?: string): string {
  if (!value) return 'N/A';
  const date = parseISO(value);
  if (!isValid(date)) return 'N/A';
  const options: Intl.DateTimeFormatOptions = { month: 'short', day: 'numeric', hour: 'numeric', minute: '2-digit', timeZoneName: 'short' };
  let parts: Intl.DateTimeFormatPart[];
  try {
    parts = new Intl.DateTimeFormat('en-US', { ...options, timeZone }).formatToParts(date);
  } catch {
    parts = new Intl.DateTimeFormat('en-US', options).formatToParts(date);
  }
  const part = (type: Intl.DateTimeFormatPartTypes) => parts.find((p) => p.type === type)?.value ?? '';
  return `${part('month')} ${part('day')}, ${part('hour')}:${part('minute')} ${part('dayPeriod')} ${part('timeZoneName')}`;
}

/** An appointment's wall-clock date ('yyyy-mm-dd') and time ('HH:MM') as "MMM d, h:mm a". */
export function formatAppointmentTime(date: string, time: string): string {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(date) || !/^\d{2}:\d{2}/.test(time)) return 'N/A';
  return formatDate(`${date}T${time}`, DATE_TIME_FORMAT);
}

/** A lead's first property type by its label ("Single family"); "—" without one. */
export function formatPropertyType(types: readonly string[]): string {
  const first = types[0];
  return first ? propertyTypeLabel(first) : '—';
}

/** A duration such as "45s", "12m", "2h 15m" or "3d 4h"; "—" when there is none. */
export function formatDuration(seconds: number | null | undefined): string {
  if (seconds === null || seconds === undefined || !Number.isFinite(seconds) || seconds < 0) return '—';
  const s = Math.round(seconds);
  if (s < 60) return `${s}s`;
  const minutes = Math.floor(s / 60);
  if (minutes < 60) return `${minutes}m`;
  const hours = Math.floor(minutes / 60);
  if (hours < 24) return `${hours}h ${minutes % 60}m`;
  return `${Math.floor(hours / 24)}d ${hours % 24}h`;
}
