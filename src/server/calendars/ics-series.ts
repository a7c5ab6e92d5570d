/**
 * The busy time of one event near the window: each instance of a repeating one (DTSTART, its
 * rules' instances and its added dates, RDATE, less its removed dates, EXDATE, and the instances
 * changed on their own, RECURRENCE-ID), or one changed instance in its new place.
 *
 * Instances are matched by instant, not as written: Google writes an EXDATE in UTC for a series
 * in America/New_York, which names the same instance as its wall-clock time does. Only times
 * near the window are read on their clocks; the rest cannot name an instance there.
 */
import ICAL from 'ical.js';
import type { Busy } from '../lib/busy-times.ts';
import { type CalendarEvent, type Stamp, wallOfTime } from './ics-event.ts';
import { walkRule } from './ics-rule.ts';
import { DAY, HOUR } from './ics-zones.ts';

/**
 * Candidates one rule, and the whole calendar (ics-busy.ts), may take ical.js through, so that a
 * hostile rule ends within a bounded time (bench/ics-busy.ts, its "every second since 1900"
 * cases; docs/performance.md, "Measurements behind the code"). A rule
 * fast-forwarded to the window (ics-rule.ts) takes one a day of the window or fewer; one with a
 * COUNT from years back, a few thousand; every minute over the window, the instance cap first.
 */
export const MAX_RULE_STEPS = 60_000;
export const TOO_OFTEN = 'The calendar repeats too often to read in full; some of its busy times may be missing.';
/** A wall-clock time and the instant it names are less than a day apart (offsets run from -12 to +14 hours): two days is room enough. */
export const MARGIN = 2 * DAY;

export type Run = {
  window: Busy;
  budget: { steps: number };
  /** The day (days since 1970-01-01) on the firm's clock at an instant. */
  firmDay: (instant: number) => number;
  warn: (message: string) => void;
  /** Adds one instance's busy time; false once the instance cap is reached. */
  place: (start: number, end: number) => boolean;
  capped: () => boolean;
};

type Clocked = Pick<Stamp, 'wall' | 'clock'>;
/** How long an instance lasts: exactly (from a DTEND), or whole days on its clock and then exactly. */
type InstanceLength = { kind: 'exact'; ms: number } | { kind: 'span'; days: number; ms: number };

/** An instance changed on its own, in its new place; it lasts as long as its series unless it says otherwise. */
export function placeChange(change: CalendarEvent, master: CalendarEvent | undefined, run: Run): void {
  const length = instanceLength(change, master);
  if (!change.busy || !length) return;
  const { wall, clock } = change.start;
  if (wall > run.window.end + MARGIN || wall + longest(length) < run.window.start - MARGIN) return;
  const start = clock.instant(wall);
  run.place(start, endOf(length, change.start, start, run));
}

/** Each instance of `event` near the window, less those `replaced` names (changes' RECURRENCE-IDs) and its EXDATEs. */
export function expandSeries(event: CalendarEvent, replaced: Stamp[], run: Run): void {
  const first = event.start;
  // A single event far from the window, by its wall-clock times, is not read on its clocks at all.
  const lastWall =
    event.length?.kind === 'end' ? event.length.end.wall : first.wall + (event.length?.days ?? 1) * (DAY + HOUR) + (event.length?.ms ?? 0);
  const single = event.rules.length === 0 && event.rdates.length === 0;
  if (single && (first.wall > run.window.end + MARGIN || lastWall < run.window.start - MARGIN)) return;
  const length = instanceLength(event);
  if (!event.busy || !length) return;
  const from = run.window.start - longest(length) - MARGIN;
  const to = run.window.end + MARGIN;
  const left = { days: new Set<number>(), instants: new Set<number>() };
  for (const stamp of [...replaced, ...event.exdates]) {
    if (stamp.wall < from - MARGIN || stamp.wall > to + MARGIN) continue;
    if (stamp.isDate) left.days.add(Math.floor(stamp.wall / DAY));
    else if (first.isDate) left.days.add(run.firmDay(stamp.clock.instant(stamp.wall)));
    else left.instants.add(stamp.clock.instant(stamp.wall));
  }
  const seen = new Set<number>();
  /** One instance (at `at` when already read, until `end` when it has its own); false to stop. */
  const consider = (time: Clocked, at?: number, end?: number): boolean => {
    const start = at ?? time.clock.instant(time.wall);
    const day = Math.floor(time.wall / DAY);
    const key = first.isDate ? day : start;
    if (seen.has(key) || left.days.has(day) || left.instants.has(start)) return true;
    seen.add(key);
    return run.place(start, end ?? endOf(length, time, start, run));
  };
  // DTSTART is the first instance, whether or not the rule gives it (RFC 5545, 3.8.5.3).
  if (first.wall >= from && first.wall <= to && !consider(first)) return;
  for (const rdate of event.rdates) {
    if (--run.budget.steps < 0) return run.warn(TOO_OFTEN);
    const { start, end } = rdate;
    if (start.wall < from - DAY || start.wall > to + DAY) continue;
    let more: boolean;
    if (start.isDate) {
      // A date among a timed event's instances takes the first instance's time of day.
      more = consider({
        wall: first.isDate ? start.wall : start.wall + (first.wall - Math.floor(first.wall / DAY) * DAY),
        clock: first.clock,
      });
    } else if (first.isDate) {
      more = consider({ wall: run.firmDay(start.clock.instant(start.wall)) * DAY, clock: first.clock });
    } else {
      const at = start.clock.instant(start.wall);
      const until = !end ? undefined : 'wall' in end ? reach(end, run) : end.kind === 'span' ? endOf(end, start, at, run) : undefined;
      more = consider(start, at, until);
    }
    if (!more) return;
  }
  for (const rule of event.rules) {
    const within = untilOf(rule, first);
    const maxSteps = Math.min(MAX_RULE_STEPS, run.budget.steps);
    if (maxSteps <= 0) return run.warn(TOO_OFTEN);
    const { end, steps } = within
      ? walkRule({
          rule,
          start: first,
          from,
          to,
          maxSteps,
          visit: (wall) => within(wall) && (wall < from || consider({ wall, clock: first.clock })),
        })
      : { end: 'unreadable', steps: 1 };
    run.budget.steps -= steps;
    if (run.capped()) return;
    if (end === 'steps')
      run.warn(
        run.budget.steps <= 0
          ? TOO_OFTEN
          : `The event ${event.where()} repeats too often to read in full; some of its instances may be missing.`,
      );
    else if (end === 'unreadable')
      run.warn(`The repeat rule of the event ${event.where()} could not be read; only its first instance was counted.`);
    else if (end === 'broken')
      run.warn(`The repeat rule of the event ${event.where()} could not be followed to its end; some of its instances may be missing.`);
  }
}

/**
 * Whether an instance at `wall` is within the rule's UNTIL: a date includes its whole day; a
 * UTC time is an instant, compared on the series' clock; a floating one, on the wall clock.
 * Null when UNTIL cannot be read.
 */
function untilOf(rule: ICAL.Recur, series: Stamp): ((wall: number) => boolean) | null {
  const { until } = rule;
  if (!until) return () => true;
  const limit = wallOfTime(until);
  if (limit === undefined) return null;
  if (until.isDate) return (wall) => wall < limit + DAY;
  if (until.zone !== ICAL.Timezone.utcTimezone) return (wall) => wall <= limit;
  return (wall) => wall < limit - DAY || (wall <= limit + DAY && series.clock.instant(wall) <= limit);
}

function instanceLength(event: CalendarEvent, master?: CalendarEvent): InstanceLength | undefined {
  const owner = event.length ? event : master?.length ? master : undefined;
  let length: InstanceLength;
  if (!owner?.length) {
    if (!event.start.isDate) return undefined;
    length = { kind: 'span', days: 1, ms: 0 };
  } else if (owner.length.kind === 'span') length = owner.length;
  else {
    const { start } = owner;
    const { end } = owner.length;
    // Centuries apart (a hostile end), offsets do not matter, and a far date is costly to read in a file's zone.
    const ms =
      Math.abs(end.wall - start.wall) > 400 * DAY ? end.wall - start.wall : end.clock.instant(end.wall) - start.clock.instant(start.wall);
    length = { kind: 'exact', ms };
  }
  const empty = length.kind === 'exact' ? length.ms <= 0 : length.days <= 0 && length.ms <= 0;
  return empty ? undefined : length;
}

/** The most an instance may last, on the wall clock (a day is 25 hours when the clocks go back). */
const longest = (length: InstanceLength) => (length.kind === 'exact' ? length.ms : length.days * (DAY + HOUR) + length.ms);

/** The end of an instance starting at `time` (the instant `start`). */
function endOf(length: InstanceLength, time: Clocked, start: number, run: Run): number {
  if (length.kind === 'exact' || length.days === 0) return start + length.ms;
  return reach({ wall: time.wall + length.days * DAY, clock: time.clock }, run) + length.ms;
}

/** The instant of a time, or a little after the window for one far after it (clipped away all the same). */
function reach(time: Clocked, run: Run): number {
  const far = run.window.end + MARGIN;
  return time.wall > far ? far : time.clock.instant(time.wall);
}
