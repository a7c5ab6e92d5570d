/**
 * The instances of one repeat rule (RRULE), through ical.js's own iterator, on the wall clock:
 * the iterator is handed a floating start, so it compares only wall-clock times and never asks
 * a zone (ics-series.ts reads each instance on the series' clock, and applies the rule's UNTIL
 * there: ical.js would compare a floating start with a UTC UNTIL as if both were UTC).
 *
 * A rule from outside may repeat every second, or search for a day that never comes, inside a
 * single call of ical.js's `next()`. Its search loop checks the rule's limiting parts once a
 * candidate (`check_contracting_rules`), so counting those calls counts its steps, and the walk
 * stops when a budget of them is spent.
 */
import ICAL from 'ical.js';
import { DAY, HOUR, MINUTE, partsOf, SECOND, wallOf } from './ics-zones.ts';

class OutOfSteps extends Error {}

/** ical.js's iterator, stopped after `stepsLeft` candidates. */
class CountedIterator extends ICAL.RecurIterator {
  stepsLeft = 0;
  override check_contracting_rules(): boolean {
    if (--this.stepsLeft < 0) throw new OutOfSteps();
    return super.check_contracting_rules();
  }
}

export type RuleWalk = {
  rule: ICAL.Recur;
  /** The series' first instance (DTSTART), as a wall-clock time. */
  start: { wall: number; isDate: boolean };
  /** Instances before this wall time may be skipped over; the walk ends after `to`. */
  from: number;
  to: number;
  maxSteps: number;
  /** Called with each instance's wall-clock time, in order; false ends the walk. */
  visit: (wall: number) => boolean;
};

/** How a walk ended: at the rule's end or `to`, by `visit`, out of steps, or because ical.js refused (`unreadable`) or failed (`broken`). */
export type RuleEnd = 'done' | 'stopped' | 'steps' | 'unreadable' | 'broken';

/** The length of one period of the rules whose candidates are a fixed grid on the wall clock. */
const PERIOD: Record<string, number> = { SECONDLY: SECOND, MINUTELY: MINUTE, HOURLY: HOUR, DAILY: DAY, WEEKLY: 7 * DAY };

export function walkRule(walk: RuleWalk): { end: RuleEnd; steps: number } {
  const { rule: written, start } = walk;
  if (neverMatches(written)) return { end: 'done', steps: 1 };
  const floating = (wall: number) => {
    const fields = start.isDate ? { ...partsOf(wall), hour: 0, minute: 0, second: 0 } : partsOf(wall);
    return new ICAL.Time({ ...fields, isDate: start.isDate }, ICAL.Timezone.localTimezone);
  };
  // ical.js's UNTIL is the walk's end: for a yearly rule, ical.js searches year by year up to
  // it (or to the year 20000 without one, seconds) for a first instance that may never come.
  const rule = written.clone();
  rule.until = floating(walk.to);
  let iterator: CountedIterator;
  try {
    iterator = new CountedIterator({ rule, dtstart: floating(fastForward(written, start.wall, walk.from)) });
  } catch {
    return { end: 'unreadable', steps: 1 };
  }
  iterator.stepsLeft = walk.maxSteps;
  let end: RuleEnd = 'done';
  // DTSTART counts as the first of COUNT instances even when the rule does not give it (RFC
  // 5545, 3.3.10); ical.js then gives COUNT others, as libical does.
  let left = Number.POSITIVE_INFINITY;
  try {
    for (let next = iterator.next(); next; next = iterator.next()) {
      const { year, month, day, isDate } = next;
      const wall = isDate ? wallOf({ year, month, day, hour: 0, minute: 0, second: 0 }) : wallOf(next);
      if (left === Number.POSITIVE_INFINITY && written.count) left = wall === start.wall ? written.count : written.count - 1;
      if (!(wall <= walk.to) || left-- <= 0) break;
      if (!walk.visit(wall)) {
        end = 'stopped';
        break;
      }
    }
  } catch (error) {
    end = error instanceof OutOfSteps ? 'steps' : 'broken';
  }
  return { end, steps: Math.max(1, walk.maxSteps - Math.max(0, iterator.stepsLeft)) };
}

/**
 * Where to start the iterator: a rule of a fixed period (DAILY, WEEKLY… with its INTERVAL) and
 * no COUNT has the same instances from any start a whole number of periods later, so a weekly
 * meeting since 2015 is walked from a period before `from`, not through ten years of Mondays.
 * (ics-series.ts counts DTSTART itself on its own.)
 */
function fastForward(rule: ICAL.Recur, start: number, from: number): number {
  const unit = rule.freq ? PERIOD[rule.freq] : undefined;
  if (!unit || rule.count) return start;
  const period = unit * Math.max(1, rule.interval ?? 1);
  const periods = Math.floor((from - start) / period) - 1;
  return periods > 0 ? start + periods * period : start;
}

/** The most days each month may have (a leap year's February). */
const LONGEST_MONTH = [31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

/**
 * Whether the rule asks for days of the month no month it names has (30 February): ical.js
 * would search for them for ever, or take the next day (1 March) instead.
 */
function neverMatches(rule: ICAL.Recur): boolean {
  const parts = rule.parts as Record<string, number[] | undefined>;
  const monthDays = parts.BYMONTHDAY;
  if (!monthDays?.length) return false;
  const months = parts.BYMONTH?.length ? parts.BYMONTH : [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12];
  return !months.some((m) => monthDays.some((d) => d !== 0 && Math.abs(d) <= (LONGEST_MONTH[m - 1] ?? 0)));
}
