/**
 * The busy times an external calendar holds within a window, from its iCalendar text (a
 * Google, Outlook or iCloud "secret iCal address"), as the booking's `Busy` intervals: every
 * event blocks its time unless it is cancelled or marked as not blocking (TRANSP:TRANSPARENT),
 * a repeating event at each of its instances (RRULE, RDATE, less EXDATE) with the instances
 * changed on their own (RECURRENCE-ID) in their new place and state.
 *
 * The calendar is read through ical.js (ics-parse.ts), which also follows the repeat rules
 * (ics-rule.ts) and reads the zones a file defines (ics-zones.ts); which instant a time names,
 * and which instances a series keeps, is decided here (ics-series.ts), on the instants, since
 * ical.js knows no IANA zone the file does not define and would match no EXDATE written in UTC.
 *
 * The text comes from outside, so it is held to budgets: a file that is not a calendar throws
 * IcsError; a rule is followed only up to the window's end, and the whole calendar to
 * `maxInstances` instances and a number of ical.js's steps, with a warning when a limit cut it
 * short. Anything else odd (one unreadable event, an unknown time zone) costs a warning, not the
 * calendar. What ical.js may still spend in its own loops is bounded by the worker's time
 * limit (read-ics.ts).
 */
import ICAL from 'ical.js';
import { canonicalTimeZone, isTimeZone, utcDay, zonedParts } from '#shared/zoned-time';
import type { Busy } from '../lib/busy-times.ts';
import { type CalendarEvent, readEvent, type Stamp } from './ics-event.ts';
import { parseIcs } from './ics-parse.ts';
import { expandSeries, placeChange, type Run } from './ics-series.ts';
import { type Clock, DAY, ianaClock, zoneBook, type ZoneContext } from './ics-zones.ts';

export { IcsError } from './ics-error.ts';

export type IcsBusyOptions = {
  /** The firm's IANA time zone: floating times and all-day dates are read on its clock. */
  defaultTimeZone: string;
  /** Instances placed at most, across the whole calendar (default 50,000). */
  maxInstances?: number;
  /** Events left out by UID: the booked calls this product wrote into the calendar itself. */
  skipUids?: readonly string[];
};

/** Sorted by start, overlapping and touching intervals merged, each clipped to the window. */
export type IcsBusy = { busy: Busy[]; warnings: string[] };

export const DEFAULT_MAX_INSTANCES = 50_000;
/** ical.js's steps the whole calendar may take (see MAX_RULE_STEPS in ics-series.ts). */
const MAX_STEPS = 300_000;
const MAX_WARNINGS = 20;

/**
 * The busy intervals `text` (an iCalendar document) holds within `window` (instants, ms), sorted
 * and merged, with plain-language warnings for what it skipped or cut short. Throws IcsError
 * when the text is not a calendar, RangeError for a bad zone, cap or window.
 */
export function busyFromIcs(text: string, window: Busy, options: IcsBusyOptions): IcsBusy {
  if (!isTimeZone(options.defaultTimeZone)) throw new RangeError(`Not an IANA time zone: ${options.defaultTimeZone}`);
  const maxInstances = options.maxInstances ?? DEFAULT_MAX_INSTANCES;
  if (!Number.isSafeInteger(maxInstances) || maxInstances < 1) throw new RangeError('maxInstances must be a positive integer.');
  if (!Number.isFinite(window.start) || !Number.isFinite(window.end)) throw new RangeError('The window must be two instants.');
  const firmName = canonicalTimeZone(options.defaultTimeZone)!;
  const warnings: string[] = [];
  let unsaid = 0;
  const warn = (message: string) => {
    if (warnings.includes(message)) return;
    if (warnings.length < MAX_WARNINGS) warnings.push(message);
    else unsaid++;
  };
  const firm: Clock = ianaClock(firmName);
  // ical.js reads a file's zones up to some years after the latest it is asked about (fileClock).
  const lastYear = Math.max(new Date(window.end).getUTCFullYear(), new Date().getUTCFullYear()) + 1;
  const context: ZoneContext = { firm, firmName, lastYear, ianaClocks: new Map([[firmName, firm]]), warn };
  const skip = new Set(options.skipUids ?? []);
  const events = readEvents(text, context, window.end > window.start).filter((e) => !e.uid || !skip.has(e.uid));
  if (!(window.end > window.start)) return { busy: [], warnings };

  const out: Busy[] = [];
  let instances = 0;
  let capped = false;
  const run: Run = {
    window,
    budget: { steps: MAX_STEPS },
    firmDay: (instant) => utcDay(zonedParts(instant, firmName).date) / DAY,
    warn,
    place(start, end) {
      if (end <= window.start || start >= window.end) return true;
      if (instances >= maxInstances) {
        if (!capped)
          warn(
            `The calendar has more than ${maxInstances.toLocaleString('en-US')} event instances near this period; the rest were not counted, so some busy times may be missing.`,
          );
        capped = true;
        return false;
      }
      instances++;
      out.push({ start: Math.max(start, window.start), end: Math.min(end, window.end) });
      return true;
    },
    capped: () => capped,
  };

  // An instance changed on its own replaces the one its repeating event would have had; a
  // file may hold several events of one UID (wrongly, but it happens): each loses that instance.
  const masters = new Map<string, CalendarEvent[]>();
  for (const event of events) {
    if (!event.uid || event.recurrenceId) continue;
    const series = masters.get(event.uid);
    if (series) series.push(event);
    else masters.set(event.uid, [event]);
  }
  const replaced = new Map<CalendarEvent, Stamp[]>();
  for (const change of events) {
    if (!change.uid || !change.recurrenceId) continue;
    for (const master of masters.get(change.uid) ?? []) {
      const ids = replaced.get(master);
      if (ids) ids.push(change.recurrenceId);
      else replaced.set(master, [change.recurrenceId]);
    }
  }
  for (const event of events) {
    if (capped) break;
    if (event.recurrenceId) placeChange(event, masters.get(event.uid ?? '')?.[0], run);
    else expandSeries(event, replaced.get(event) ?? [], run);
  }
  if (unsaid > 0) warnings.push(`…and ${count(unsaid, 'more warning')}.`);
  return { busy: merged(out), warnings };
}

/**
 * The events of every calendar in `text`, read (none when `read` is false: the warnings of the
 * text's lines only). ical.js's tree of the text, many times the text's size, is garbage once
 * this returns.
 */
function readEvents(text: string, context: ZoneContext, read: boolean): CalendarEvent[] {
  const { calendars, skippedLines } = parseIcs(text);
  if (skippedLines > 0)
    context.warn(`${count(skippedLines, 'line')} of the calendar could not be read and ${skippedLines === 1 ? 'was' : 'were'} skipped.`);
  const events: CalendarEvent[] = [];
  for (const calendar of read ? calendars : []) {
    const zoneOf = zoneBook(calendar, context);
    // Each event through a wrapper of its own, dropped once read: getAllSubcomponents keeps one
    // per event (and per property read) on the calendar, which would keep them all alive.
    for (const jcal of calendar.jCal[2] as unknown[][]) {
      if (jcal[0] !== 'vevent') continue;
      const event = readEvent(new ICAL.Component(jcal), { firm: context.firm, zoneOf, warn: context.warn });
      if (event) events.push(event);
    }
  }
  return events;
}

const count = (n: number, noun: string) => `${n.toLocaleString('en-US')} ${noun}${n === 1 ? '' : 's'}`;

/** Sorted by start, with overlapping and touching intervals joined. */
function merged(intervals: Busy[]): Busy[] {
  const out: Busy[] = [];
  for (const b of intervals.sort((x, y) => x.start - y.start)) {
    const last = out.at(-1);
    if (last && b.start <= last.end) last.end = Math.max(last.end, b.end);
    else out.push({ ...b });
  }
  return out;
}
