/**
 * The instants a calendar's wall-clock times name. A wall-clock time is held as the milliseconds
 * Date.UTC gives its fields (`wall`): for arithmetic on the clock (a day later is + DAY), never
 * an instant itself. Each time is read on a `Clock`:
 * - a time written in UTC (20260616T090000Z) is that instant;
 * - a TZID that is an IANA name (what Google and iCloud write: America/New_York) is read with
 *   Intl, the runtime's time zone database, even when the file defines it too: some exporters'
 *   VTIMEZONE covers only the years of the events they wrote, and Intl has every year;
 * - any other TZID (Outlook's "Eastern Standard Time", a custom zone) is read by ical.js from
 *   the file's VTIMEZONE of that name (ics-vtimezone.ts says which ones it may read);
 * - a TZID neither knows is read on the firm's clock, with a warning, as are floating times and
 *   all-day dates, which belong to no zone (RFC 5545, 3.3.4 and 3.3.5).
 */
import ICAL from 'ical.js';
import { canonicalTimeZone, isTimeZone, zonedInstant, zonedParts } from '#shared/zoned-time';
import { readableTimezones } from './ics-vtimezone.ts';

export const SECOND = 1_000;
export const MINUTE = 60 * SECOND;
export const HOUR = 60 * MINUTE;
export const DAY = 24 * HOUR;

/** Reads wall-clock times (see above) as instants, ms. */
export type Clock = { instant: (wall: number) => number };

export const UTC_CLOCK: Clock = { instant: (wall) => wall };

export type WallParts = { year: number; month: number; day: number; hour: number; minute: number; second: number };

/** The wall of those fields; years before 100 too, which Date.UTC would read as 19xx. */
export function wallOf({ year, month, day, hour, minute, second }: WallParts): number {
  if (year >= 100) return Date.UTC(year, month - 1, day, hour, minute, second);
  const date = new Date(0);
  date.setUTCFullYear(year, month - 1, day);
  date.setUTCHours(hour, minute, second, 0);
  return date.getTime();
}

export function partsOf(wall: number): WallParts {
  const d = new Date(wall);
  return {
    year: d.getUTCFullYear(),
    month: d.getUTCMonth() + 1,
    day: d.getUTCDate(),
    hour: d.getUTCHours(),
    minute: d.getUTCMinutes(),
    second: d.getUTCSeconds(),
  };
}

/** "2026-06-16 09:00", or "2026-06-16" for a date: how warnings name an event (never by its title, which may be logged). */
export function wallText(wall: number, isDate: boolean): string {
  const text = new Date(wall).toISOString();
  return isDate ? text.slice(0, 10) : `${text.slice(0, 10)} ${text.slice(11, 16)}`;
}

/**
 * An IANA zone's clock. Most days the offset does not change, and each day's is asked of Intl
 * once (two lookups), so an instance costs a subtraction; on a day it changes, `zonedInstant`
 * reads the time: of a time that happens twice (fall back), the first; a time the clocks skip
 * (spring forward) with the offset before the change, an hour later.
 */
export function ianaClock(timeZone: string): Clock {
  const offsetAt = (instant: number) => zonedParts(instant, timeZone).offsetMinutes * MINUTE;
  const steady = new Map<number, number | null>();
  return {
    instant(wall) {
      const day = Math.floor(wall / DAY);
      let offset = steady.get(day);
      if (offset === undefined) {
        // Offsets run from -12 to +14 hours: every instant a wall time of this day may name lies between these two.
        const before = offsetAt(day * DAY - 15 * HOUR);
        offset = before === offsetAt((day + 1) * DAY + 15 * HOUR) ? before : null;
        steady.set(day, offset);
      }
      if (offset !== null) return wall - offset;
      const seconds = wall - Math.floor(wall / MINUTE) * MINUTE;
      const date = new Date(wall).toISOString().slice(0, 10);
      const found = zonedInstant(date, Math.floor((wall - day * DAY) / MINUTE), timeZone);
      return (found ?? wall - seconds - offsetAt(wall - 15 * HOUR)) + seconds;
    },
  };
}

/**
 * A zone the file defines, read by ical.js. ical.js works out the zone's changes up to five
 * years after the latest year it is asked about, from the start of each definition (1601 in
 * Outlook's) and again for each later year: a time after `lastYear` is given the offset of the
 * same day in `lastYear`, so a hostile far-future date cannot make it expand for ever.
 */
export function fileClock(zone: ICAL.Timezone, lastYear: number): Clock {
  const read = (wall: number) => new ICAL.Time({ ...partsOf(wall), isDate: false }, zone).toUnixTime() * SECOND;
  return {
    instant(wall) {
      const parts = partsOf(wall);
      if (parts.year <= lastYear) return read(wall);
      const sameDay = wallOf({ ...parts, year: lastYear });
      return wall - (sameDay - read(sameDay));
    },
  };
}

/** The IANA name of a TZID, also behind an exporter's path (/mozilla.org/20050126_1/America/New_York). */
export function ianaName(tzid: string): string | undefined {
  if (isTimeZone(tzid)) return canonicalTimeZone(tzid);
  const parts = tzid.split('/').filter(Boolean);
  for (const take of [3, 2]) {
    const tail = parts.slice(-take).join('/');
    if (parts.length > take && isTimeZone(tail)) return canonicalTimeZone(tail);
  }
  return undefined;
}

export type ZoneContext = {
  firm: Clock;
  firmName: string;
  /** The last year ical.js works a file's zone out for (see fileClock). */
  lastYear: number;
  /** IANA clocks, shared by the file's calendars. */
  ianaClocks: Map<string, Clock>;
  warn: (message: string) => void;
};

/**
 * The clock of each TZID one calendar names, each looked up once. The calendar's VTIMEZONEs
 * ical.js may not read are taken out of it here (ics-vtimezone.ts).
 */
export function zoneBook(calendar: ICAL.Component, context: ZoneContext): (tzid: string) => Clock {
  const { readable, unreadable } = readableTimezones(calendar, context.lastYear);
  const intl = (name: string) => {
    let clock = context.ianaClocks.get(name);
    if (!clock) context.ianaClocks.set(name, (clock = ianaClock(name)));
    return clock;
  };
  const lookUp = (tzid: string): Clock => {
    const iana = ianaName(tzid);
    // A name without a slash that Intl knows may still be an abbreviation the file defines
    // otherwise (to Intl, "EST" is UTC-5 all year): the definition wins for those.
    if (iana && (tzid.includes('/') || !readable.has(tzid))) return intl(iana);
    const zone = readable.has(tzid) ? calendar.getTimeZoneByID(tzid) : null;
    if (zone) return fileClock(zone, context.lastYear);
    const shown = tzid.length > 60 ? `${tzid.slice(0, 60)}…` : tzid;
    context.warn(
      unreadable.has(tzid)
        ? `The time zone "${shown}" defined in the calendar could not be read; its times were read in ${context.firmName}.`
        : `The time zone "${shown}" is unknown; its times were read in ${context.firmName}.`,
    );
    return context.firm;
  };
  const clocks = new Map<string, Clock>();
  return (tzid) => {
    let clock = clocks.get(tzid);
    if (!clock) clocks.set(tzid, (clock = lookUp(tzid)));
    return clock;
  };
}
