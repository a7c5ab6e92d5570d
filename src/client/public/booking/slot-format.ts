/**
 * How the picker shows open times: grouped by the business date (the date in each ISO time,
 * which carries the business time zone's offset), labelled on the business clock, with the
 * visitor's own clock beside it when the two differ.
 */
import { AVAILABILITY_MAX_DAYS } from '#shared/constants';
import { bothClocks, LONG_DAY } from '#shared/visitor-clock';
import { addDays } from '#shared/zoned-time';

/** yyyy-mm-dd of an ISO time with offset, on the clock of that offset. */
export const businessDate = (iso: string) => iso.slice(0, 10);

export function groupByDay(slots: string[]): Map<string, string[]> {
  const days = new Map<string, string[]>();
  for (const slot of slots) {
    const day = businessDate(slot);
    const list = days.get(day);
    if (list) list.push(slot);
    else days.set(day, [slot]);
  }
  return days;
}

const cache = new Map<string, Intl.DateTimeFormat>();
function format(options: Intl.DateTimeFormatOptions): Intl.DateTimeFormat {
  const key = JSON.stringify(options);
  let f = cache.get(key);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', options);
    cache.set(key, f);
  }
  return f;
}

/** "Tue, Nov 24" for a business date. */
export const dayLabel = (date: string) =>
  format({ timeZone: 'UTC', weekday: 'short', month: 'short', day: 'numeric' }).format(new Date(`${date}T12:00:00Z`));

/** "Tuesday, November 24" for a business date. */
export const longDayLabel = (date: string) =>
  format({ timeZone: 'UTC', weekday: 'long', month: 'long', day: 'numeric' }).format(new Date(`${date}T12:00:00Z`));

/** "10:00 AM" on the business clock. */
export const businessTime = (iso: string, timeZone: string) =>
  format({ timeZone, hour: 'numeric', minute: '2-digit' }).format(new Date(iso));

/** "EST" / "EDT": the business zone's short name at that moment. */
export function zoneName(iso: string, timeZone: string): string {
  const part = format({ timeZone, timeZoneName: 'short', hour: 'numeric' })
    .formatToParts(new Date(iso))
    .find((p) => p.type === 'timeZoneName');
  return part?.value ?? timeZone;
}

/**
 * The time on the visitor's own clock when it reads differently from the business clock
 * ("9:00 AM your time", with the day when it differs too); undefined when they agree.
 */
export function localTime(iso: string, timeZone: string, visitorZone?: string): string | undefined {
  const date = new Date(iso);
  const here = format({ timeZone: visitorZone, weekday: 'short', hour: 'numeric', minute: '2-digit' }).format(date);
  const there = format({ timeZone, weekday: 'short', hour: 'numeric', minute: '2-digit' }).format(date);
  if (here === there) return undefined;
  const sameDay = here.slice(0, 3) === there.slice(0, 3);
  return `${sameDay ? here.slice(here.indexOf(' ') + 1) : here} your time`;
}

/** This device's time zone. */
const deviceZone = () => Intl.DateTimeFormat().resolvedOptions().timeZone;

/**
 * A booked time as the visitor reads it: "Tuesday, November 24 at 7:00 AM PST (10:00 AM EST)",
 * their clock first and the firm's beside it, or "Tuesday, November 24 at 10:00 AM EST" when the
 * two agree (docs/product-rules.md, "Booking").
 */
export const whenLabel = (iso: string, timeZone: string, visitorZone: string = deviceZone()) =>
  bothClocks(iso, timeZone, visitorZone, { day: LONG_DAY });

/** A time alone, the same way: "7:30 AM PST (10:30 AM EST)". */
export const clockLabel = (iso: string, timeZone: string, visitorZone: string = deviceZone()) => bothClocks(iso, timeZone, visitorZone);

/**
 * The dates of one request for open times, from `from` (yyyy-mm-dd): as many as the server
 * answers at once. The first page starts yesterday on this device, which may be a day behind
 * the business (the server keeps to its own window); each next one the day after the last.
 */
export function availabilityPage(from: string): { from: string; to: string } {
  return { from, to: addDays(from, AVAILABILITY_MAX_DAYS - 1) };
}

export const firstAvailabilityPage = (now = new Date()) =>
  availabilityPage(new Date(now.getTime() - 86_400_000).toISOString().slice(0, 10));
