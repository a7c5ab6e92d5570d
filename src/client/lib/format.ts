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

/** An appointment's wall-clock date ('yyyy-mm-dd') and time ('HH:MM') as "MMM d, h:mm a". */
export function formatAppointmentTime(date: string, time: string): string {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(date) || !/^\d{2}:\d{2}/.test(time)) return 'N/A';
  return formatDate(`${date}T${time}`, DATE_TIME_FORMAT);
}

/** A lead's first property type by its label ("Single-family"); "—" without one. */
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
