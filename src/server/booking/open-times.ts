import type { BookingSettings, OpenHours } from '#shared/schemas/booking';
import { blockedRanges, type Busy } from '../lib/busy-times.ts';
import { addDays, clockMinutes, clockText, isoInZone, isoWeekday, utcDay, zonedInstant, zonedParts } from '#shared/zoned-time';

export type SlotQuery = {
  settings: BookingSettings;
  timeZone: string;
  /** Both ends included, business-time-zone dates. */
  from: string;
  to: string;
  now: number;
  busy: Busy[];
};

const MINUTE = 60_000;

/**
 * The business dates a visitor may book on at `now`: from today to `horizon_days` ahead.
 * (The minimum notice trims the first of them further, slot by slot.)
 */
export function bookableDates(settings: BookingSettings, timeZone: string, now: number): { first: string; last: string } {
  const today = zonedParts(now, timeZone).date;
  return { first: today, last: addDays(today, settings.horizon_days) };
}

/** One business date's open times before the minimum notice: each start (an instant) and the same as ISO 8601 with the zone's offset. */
export type DayTimes = { starts: number[]; iso: string[] };

const NO_TIMES: DayTimes = Object.freeze({ starts: [], iso: [] }) as DayTimes;

/** "00:00" to "23:59", by minute of the day: the clock part of every start's text. */
const CLOCK = Array.from({ length: 24 * 60 }, (_, m) => clockText(m));

/** "+05:30" / "-05:00" for an offset in minutes. */
function offsetText(offsetMinutes: number): string {
  const abs = Math.abs(offsetMinutes);
  return `${offsetMinutes < 0 ? '-' : '+'}${clockText(abs)}`;
}

/** The index of the first of `blocked` (sorted, disjoint) that ends after `instant`. */
function firstEndingAfter(blocked: Busy[], instant: number): number {
  let lo = 0;
  let hi = blocked.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (blocked[mid]!.end <= instant) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * The open start times of one business date, soonest first, whatever the time now, on the
 * firm's booking hours: openTimesInStretches of that weekday's hours, unless it is a firm day off.
 */
export function openTimesOfDay(settings: BookingSettings, timeZone: string, date: string, blocked: Busy[]): DayTimes {
  const hours = settings.hours[isoWeekday(date) - 1];
  if (!hours || settings.days_off.includes(date)) return NO_TIMES;
  return openTimesInStretches(settings, timeZone, date, [hours], blocked);
}

/**
 * The open start times of one business date inside `stretches` (that day's working time, in
 * order, not overlapping), soonest first: in each stretch a slot starts at its start and every
 * `slot_minutes` after, ending by its end (read on the business clock, so a slot never crosses
 * a daylight-saving change out of hours), clear of `blocked` (blockedRanges of the busy times
 * around that date). The window and the minimum notice, which move with the clock, are the
 * caller's to apply.
 */
export function openTimesInStretches(
  settings: BookingSettings,
  timeZone: string,
  date: string,
  stretches: readonly OpenHours[],
  blocked: Busy[],
): DayTimes {
  if (stretches.length === 0) return NO_TIMES;
  const times: DayTimes = { starts: [], iso: [] };
  for (const stretch of stretches) addStretch(times, settings, timeZone, date, stretch, blocked);
  return times;
}

function addStretch(times: DayTimes, settings: BookingSettings, timeZone: string, date: string, hours: OpenHours, blocked: Busy[]) {
  const open = clockMinutes(hours.start);
  const close = clockMinutes(hours.end);
  const length = settings.slot_minutes * MINUTE;
  // Most days the clocks do not change between opening and closing: then every start is the
  // opening instant plus whole minutes, and its text the date, the clock and one offset,
  // without asking Intl for each, which would dominate a month of short slots
  // (docs/performance.md, "Measurements behind the code").
  const opening = zonedInstant(date, open, timeZone);
  const closing = zonedInstant(date, close, timeZone);
  const steady = opening !== undefined && closing !== undefined && closing - opening === (close - open) * MINUTE;
  const offset = steady ? offsetText(Math.round((utcDay(date) + open * MINUTE - opening) / MINUTE)) : '';
  let b = -1;
  for (let m = open; m + settings.slot_minutes <= close; m += settings.slot_minutes) {
    const start = steady ? opening + (m - open) * MINUTE : zonedInstant(date, m, timeZone);
    if (start === undefined) continue;
    const end = start + length;
    if (!steady) {
      // On the business clock the slot must end on its day by closing time (a DST change
      // inside the open hours lengthens or shortens the wall-clock span).
      const endsAt = zonedParts(end, timeZone);
      if (endsAt.date !== date || endsAt.minutes > close) continue;
    }
    if (b < 0) b = firstEndingAfter(blocked, start);
    while (b < blocked.length && blocked[b]!.end <= start) b++;
    // Blocked ranges are sorted and disjoint: only the first one not yet over can overlap.
    if (b < blocked.length && blocked[b]!.start < end) continue;
    times.starts.push(start);
    times.iso.push(steady ? `${date}T${CLOCK[m]}:00${offset}` : isoInZone(start, timeZone));
  }
}

/** The times open to anyone among `days` (each sorted): sorted, each start once. */
export function unionOfTimes(days: readonly DayTimes[]): DayTimes {
  const nonEmpty = days.filter((d) => d.starts.length > 0);
  if (nonEmpty.length === 0) return NO_TIMES;
  if (nonEmpty.length === 1) return nonEmpty[0]!;
  const byStart = new Map<number, string>();
  for (const d of nonEmpty) for (let i = 0; i < d.starts.length; i++) byStart.set(d.starts[i]!, d.iso[i]!);
  const starts = [...byStart.keys()].sort((a, b) => a - b);
  return { starts, iso: starts.map((s) => byStart.get(s)!) };
}

/**
 * The open start times between `from` and `to`, as instants, soonest first: openTimesOfDay
 * of each date, at least `min_notice_hours` from now, within `horizon_days`.
 */
export function openSlots(q: SlotQuery): number[] {
  const { settings, timeZone } = q;
  if (!settings.enabled) return [];
  const window = bookableDates(settings, timeZone, q.now);
  const first = q.from > window.first ? q.from : window.first;
  const last = q.to < window.last ? q.to : window.last;
  const earliest = q.now + settings.min_notice_hours * 60 * MINUTE;
  const blocked = blockedRanges(q.busy, settings.buffer_minutes);
  const slots: number[] = [];
  for (let date = first; date <= last; date = addDays(date, 1)) {
    for (const start of openTimesOfDay(settings, timeZone, date, blocked).starts) if (start >= earliest) slots.push(start);
  }
  return slots;
}
