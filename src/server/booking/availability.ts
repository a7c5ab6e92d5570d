import type { BookingSettings } from '#shared/schemas/booking';
import { addDays, clockMinutes, isoWeekday, zonedInstant, zonedParts } from '#shared/zoned-time';

/** Time already taken: an appointment from `start` to `end` (instants, ms). */
export type Busy = { start: number; end: number };

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

/**
 * Busy times widened by the buffer on both sides, merged, sorted: a slot is free when it
 * overlaps none of them.
 */
function blockedRanges(busy: Busy[], bufferMinutes: number): Busy[] {
  const pad = bufferMinutes * MINUTE;
  const sorted = busy.map((b) => ({ start: b.start - pad, end: b.end + pad })).sort((a, b) => a.start - b.start);
  const merged: Busy[] = [];
  for (const b of sorted) {
    const last = merged.at(-1);
    if (last && b.start <= last.end) last.end = Math.max(last.end, b.end);
    else merged.push({ ...b });
  }
  return merged;
}

/**
 * The open start times between `from` and `to`, as instants, soonest first: inside the
 * weekday's open hours (start and end, read on the business clock, so a slot never crosses a
 * daylight-saving change out of hours), not on a day off, at least `min_notice_hours` from
 * now, within `horizon_days`, and clear of every busy time by `buffer_minutes`.
 */
export function openSlots(q: SlotQuery): number[] {
  const { settings, timeZone } = q;
  if (!settings.enabled) return [];
  const window = bookableDates(settings, timeZone, q.now);
  const first = q.from > window.first ? q.from : window.first;
  const last = q.to < window.last ? q.to : window.last;
  const earliest = q.now + settings.min_notice_hours * 60 * MINUTE;
  const daysOff = new Set(settings.days_off);
  const length = settings.slot_minutes * MINUTE;
  const blocked = blockedRanges(q.busy, settings.buffer_minutes);
  const slots: number[] = [];
  let b = 0;
  for (let date = first; date <= last; date = addDays(date, 1)) {
    const hours = settings.hours[isoWeekday(date) - 1];
    if (!hours || daysOff.has(date)) continue;
    const open = clockMinutes(hours.start);
    const close = clockMinutes(hours.end);
    // Most days the clocks do not change between opening and closing: then every start is the
    // opening instant plus whole minutes, without asking Intl for each.
    const opening = zonedInstant(date, open, timeZone);
    const closing = zonedInstant(date, close, timeZone);
    const steady = opening !== undefined && closing !== undefined && closing - opening === (close - open) * MINUTE;
    for (let m = open; m + settings.slot_minutes <= close; m += settings.slot_minutes) {
      const start = steady ? opening + (m - open) * MINUTE : zonedInstant(date, m, timeZone);
      if (start === undefined || start < earliest) continue;
      const end = start + length;
      if (!steady) {
        // On the business clock the slot must end on its day by closing time (a DST change
        // inside the open hours lengthens or shortens the wall-clock span).
        const endsAt = zonedParts(end, timeZone);
        if (endsAt.date !== date || endsAt.minutes > close) continue;
      }
      while (b < blocked.length && blocked[b]!.end <= start) b++;
      // Blocked ranges are sorted and disjoint: only the first one not yet over can overlap.
      const clash = b < blocked.length && blocked[b]!.start < end;
      if (!clash) slots.push(start);
    }
  }
  return slots;
}
