/**
 * A VEVENT, as ical.js read it, turned into what its busy time needs: when it starts and on
 * which clock, how long it lasts, whether it blocks time at all, and how it repeats. ical.js
 * reads a value when it is first asked for, and throws for one it cannot read: an event without
 * a readable start is skipped with a warning; another unreadable part is dropped with one,
 * keeping the rest of the event.
 */
import ICAL from 'ical.js';
import { attempt, UNREADABLE } from './ics-parse.ts';
import { type Clock, DAY, SECOND, UTC_CLOCK, wallOf, wallText } from './ics-zones.ts';

/** A time as written (see ics-zones.ts for `wall`) and the clock that reads it. */
export type Stamp = { wall: number; isDate: boolean; clock: Clock };

/**
 * How long each instance lasts: until the written end (DTEND), or whole days on the wall clock
 * and then exact milliseconds (DURATION, or an all-day event's DTEND in days): P1D is a day of
 * the calendar, 23 or 25 hours long when the clocks change (RFC 5545, 3.3.6).
 */
export type Length = { kind: 'end'; end: Stamp } | { kind: 'span'; days: number; ms: number };

export const NO_LENGTH: Length = { kind: 'span', days: 0, ms: 0 };

export type CalendarEvent = {
  uid: string | undefined;
  start: Stamp;
  /** Undefined when the event gives none: a changed instance then keeps its series' length. */
  length: Length | undefined;
  /** False for a cancelled event and one marked as not blocking time (TRANSP:TRANSPARENT). */
  busy: boolean;
  rules: ICAL.Recur[];
  /** Extra instances (RDATE), some with their own end (a PERIOD value). */
  rdates: { start: Stamp; end: Stamp | Length | undefined }[];
  exdates: Stamp[];
  /** Set on an instance of a repeating event that was changed or cancelled on its own. */
  recurrenceId: Stamp | undefined;
  /** How warnings name the event: "starting 2026-06-16 09:00". */
  where: () => string;
};

export type EventReading = {
  firm: Clock;
  zoneOf: (tzid: string) => Clock;
  warn: (message: string) => void;
};

export function readEvent(component: ICAL.Component, reading: EventReading): CalendarEvent | undefined {
  const { warn } = reading;
  const lost = new Set(component.getAllProperties(UNREADABLE).map((p) => String(p.getFirstValue())));
  /** The stamps of every property of that name; null for one that could not be read. */
  const stampsOf = (name: string): (Stamp | null)[] => {
    const stamps: (Stamp | null)[] = lost.has(name.toUpperCase()) ? [null] : [];
    for (const property of component.getAllProperties(name)) {
      const values = attempt(() => valuesOf(property)) ?? [null];
      for (const value of values) stamps.push(stampOf(value, property, reading) ?? null);
    }
    return stamps;
  };
  const start = stampsOf('dtstart')[0];
  if (!start) {
    warn('An event without a readable start (DTSTART) was skipped.');
    return undefined;
  }
  const where = whereOf(start);

  let length: Length | undefined;
  const duration = component.getFirstProperty('duration');
  if (component.hasProperty('dtend') || lost.has('DTEND')) {
    const end = stampsOf('dtend')[0];
    if (end && start.isDate && end.isDate) length = { kind: 'span', days: Math.max(1, Math.round((end.wall - start.wall) / DAY)), ms: 0 };
    else if (end) length = { kind: 'end', end };
  } else if (duration || lost.has('DURATION')) {
    length = spanOf(attempt(() => duration?.getFirstValue()));
  } else if (start.isDate) {
    // An all-day event without an end lasts its one day (RFC 5545, 3.6.1).
    length = { kind: 'span', days: 1, ms: 0 };
  }
  if ((component.hasProperty('dtend') || duration || lost.has('DTEND') || lost.has('DURATION')) && !length) {
    warn(`The end of the event ${where()} could not be read; it was left out.`);
    length = NO_LENGTH;
  }

  const rules: ICAL.Recur[] = [];
  let ruleLost = lost.has('RRULE');
  for (const property of component.getAllProperties('rrule')) {
    const rule = attempt(() => property.getFirstValue());
    if (rule instanceof ICAL.Recur) rules.push(rule);
    else ruleLost = true;
  }
  if (ruleLost) warn(`The repeat rule of the event ${where()} could not be read; only its first instance was counted.`);

  const rdates: CalendarEvent['rdates'] = [];
  let rdateLost = lost.has('RDATE');
  for (const property of component.getAllProperties('rdate')) {
    for (const value of attempt(() => valuesOf(property)) ?? [null]) {
      const period = value instanceof ICAL.Period ? value : undefined;
      const at = stampOf(period ? period.start : value, property, reading);
      const end = period?.end ? stampOf(period.end, property, reading) : period?.duration ? spanOf(period.duration) : undefined;
      if (at && (end || !period)) rdates.push({ start: at, end });
      else rdateLost = true;
    }
  }
  if (rdateLost) warn(`An added date (RDATE) of the event ${where()} could not be read and was left out.`);

  const exdates = stampsOf('exdate');
  if (exdates.includes(null))
    warn(`A removed date (EXDATE) of the event ${where()} could not be read; that instance may be counted as busy.`);

  const recurrenceIds = stampsOf('recurrence-id');
  if (recurrenceIds[0] === null)
    warn(`The change to the event ${where()} does not say which instance it replaces; it was read as an event of its own.`);
  const range = component.getFirstProperty('recurrence-id')?.getParameter('range');
  if (recurrenceIds[0] && String(range).toUpperCase() === 'THISANDFUTURE')
    warn(`The change to the event ${where()} and its later instances was read as a change to that one instance.`);

  const text = (name: string) =>
    String(attempt(() => component.getFirstPropertyValue(name)) ?? '')
      .trim()
      .toUpperCase();
  const uid = attempt(() => component.getFirstPropertyValue('uid'));
  return {
    uid: typeof uid === 'string' && uid !== '' ? uid : undefined,
    start,
    length,
    busy: text('status') !== 'CANCELLED' && text('transp') !== 'TRANSPARENT',
    rules,
    rdates,
    exdates: exdates.filter((e) => e !== null),
    recurrenceId: recurrenceIds[0] ?? undefined,
    where,
  };
}

/**
 * Worked out for a warning only: most events never have one. Made here, not in readEvent, whose
 * closures share a context holding the component, which would keep the whole calendar alive.
 */
const whereOf = (start: Stamp) => () => `starting ${wallText(start.wall, start.isDate)}`;

const VALUE_TYPES = ICAL.design.icalendar.value as Record<string, { decorate?: (raw: unknown) => unknown } | undefined>;

/**
 * A property's values, decoded by ical.js as `getValues()` does but without the property: with
 * it, ical.js looks each time's TZID up among the calendar's VTIMEZONEs, going through every
 * component of the calendar each time for a zone the file does not define (Europe/London in
 * Google's files), which grows with the square of the calendar and dominated reading a large
 * one (docs/performance.md, "Measurements behind the code"). The zone is ours to decide anyway
 * (stampOf).
 */
function valuesOf(property: ICAL.Property): unknown[] {
  const decorate = VALUE_TYPES[property.type]?.decorate;
  return property.jCal.slice(3).map((raw) => (decorate ? decorate(raw) : raw));
}

/** A value ical.js read as a date or a date-time, on its clock; undefined for anything else or a date that does not exist. */
function stampOf(value: unknown, property: ICAL.Property, reading: EventReading): Stamp | undefined {
  if (!(value instanceof ICAL.Time)) return undefined;
  const wall = wallOfTime(value);
  if (wall === undefined) return undefined;
  const { isDate } = value;
  if (isDate) return { wall, isDate, clock: reading.firm };
  if (value.zone === ICAL.Timezone.utcTimezone) return { wall, isDate, clock: UTC_CLOCK };
  const tzid = property.getParameter('tzid');
  return { wall, isDate, clock: typeof tzid === 'string' && tzid !== '' ? reading.zoneOf(tzid) : reading.firm };
}

/** The wall-clock time of an ical.js time (midnight for a date); undefined for one that does not exist (30 February, 25:00). */
export function wallOfTime(time: ICAL.Time): number | undefined {
  const { year, month, day, isDate } = time;
  const [hour, minute, second] = isDate ? [0, 0, 0] : [time.hour, time.minute, time.second];
  if (![year, month, day, hour, minute, second].every(Number.isInteger)) return undefined;
  const daysInMonth = new Date(Date.UTC(2000, month, 0)).getUTCDate() - (month === 2 && !ICAL.Time.isLeapYear(year) ? 1 : 0);
  if (year < 1 || year > 9999 || month < 1 || month > 12 || day < 1 || day > daysInMonth) return undefined;
  if (hour < 0 || hour > 23 || minute < 0 || minute > 59 || second < 0 || second > 60) return undefined;
  // A leap second (60) is read as the last second of its minute.
  return wallOf({ year, month, day, hour, minute, second: Math.min(second, 59) });
}

/** A DURATION as whole days and exact milliseconds; NO_LENGTH for a negative one, undefined for anything else. */
function spanOf(value: unknown): Length | undefined {
  if (!(value instanceof ICAL.Duration)) return undefined;
  const { weeks, days, hours, minutes, seconds } = value;
  if (![weeks, days, hours, minutes, seconds].every((n) => Number.isFinite(n) && n >= 0)) return undefined;
  if (value.isNegative) return NO_LENGTH;
  return { kind: 'span', days: weeks * 7 + days, ms: ((hours * 60 + minutes) * 60 + seconds) * SECOND };
}
