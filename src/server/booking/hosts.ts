import { firmStretches, memberAvailabilitySchema } from '#shared/schemas/availability';
import type { BookingSettings, OpenHours } from '#shared/schemas/booking';
import { addDays, isoWeekday, zonedParts } from '#shared/zoned-time';
import { blockedRanges, type Busy } from '../lib/busy-times.ts';
import { openTimesInStretches, unionOfTimes, type DayTimes } from './open-times.ts';
import { isFederalHoliday } from './holidays.ts';

/** A bookable team member as the database keeps them (db/queries/availability-versions-queries.ts reads them). */
export type StoredHost = {
  id: string;
  hours: unknown;
  days_off: unknown;
  holidays_off: boolean;
  /** Their scheduled calls around the dates asked for. */
  busy: Busy[];
  /** Busy times from their outside calendars around those dates (blocking as calls do, buffer included). */
  outside?: Busy[];
};

/** A bookable team member, ready for the slot arithmetic. */
export type Host = {
  id: string;
  /** Seven lists of stretches, Monday first. */
  week: readonly (readonly OpenHours[])[];
  daysOff: ReadonlySet<string>;
  holidaysOff: boolean;
  /** Their busy times widened by the buffer, merged, sorted (blockedRanges). */
  blocked: Busy[];
};

/**
 * A stored host with what the database holds checked again (it was checked when saved; a row
 * written by hand or an older version falls back to the firm's hours and no days off).
 */
export function toHost(stored: StoredHost, settings: BookingSettings): Host {
  return {
    id: stored.id,
    week: ownWeek(stored.hours) ?? firmStretches(settings),
    daysOff: new Set(daysOffOf(stored.days_off)),
    holidaysOff: stored.holidays_off,
    blocked: blockedRanges(stored.outside?.length ? [...stored.busy, ...stored.outside] : stored.busy, settings.buffer_minutes),
  };
}

// The firm's hours (null) and no days off are what most people keep: read without zod, which
// each booking request would otherwise run on each of them.

/** A person's own stretches a day, if they keep their own hours and they check. */
function ownWeek(hours: unknown): OpenHours[][] | null {
  if (hours === null || hours === undefined) return null;
  const parsed = memberAvailabilitySchema.shape.hours.safeParse(hours);
  return parsed.success ? parsed.data : null;
}

/** A person's days off, if they check (none otherwise). */
function daysOffOf(daysOff: unknown): string[] {
  if (Array.isArray(daysOff) && daysOff.length === 0) return [];
  const parsed = memberAvailabilitySchema.shape.days_off.safeParse(daysOff);
  return parsed.success ? parsed.data : [];
}

/** Whether `host` works on business date `date` at all (the firm's days off are everyone's). */
function works(settings: BookingSettings, host: Host, date: string): boolean {
  return !settings.days_off.includes(date) && !host.daysOff.has(date) && !(host.holidaysOff && isFederalHoliday(date));
}

/** One person's open start times on `date`, before the window and the minimum notice. */
export function hostTimesOfDay(settings: BookingSettings, timeZone: string, date: string, host: Host): DayTimes {
  if (!works(settings, host, date)) return { starts: [], iso: [] };
  return openTimesInStretches(settings, timeZone, date, host.week[isoWeekday(date) - 1] ?? [], host.blocked);
}

/** The times anyone of `hosts` is free on `date`: what the website offers. */
export function teamTimesOfDay(settings: BookingSettings, timeZone: string, date: string, hosts: readonly Host[]): DayTimes {
  return unionOfTimes(hosts.map((h) => hostTimesOfDay(settings, timeZone, date, h)));
}

/**
 * The open start times between `from` and `to` (business dates) of anyone in `hosts`, as
 * instants, soonest first: at least `min_notice_hours` from now, within `horizon_days`.
 */
export function teamOpenSlots(
  settings: BookingSettings,
  timeZone: string,
  hosts: readonly Host[],
  from: string,
  to: string,
  now: number,
): number[] {
  if (!settings.enabled) return [];
  const today = zonedParts(now, timeZone).date;
  const first = from > today ? from : today;
  const lastDate = addDays(today, settings.horizon_days);
  const last = to < lastDate ? to : lastDate;
  const earliest = now + settings.min_notice_hours * 3_600_000;
  const slots: number[] = [];
  for (let date = first; date <= last; date = addDays(date, 1)) {
    for (const start of teamTimesOfDay(settings, timeZone, date, hosts).starts) if (start >= earliest) slots.push(start);
  }
  return slots;
}

/**
 * The people of `hosts` for whom `start` is an open time (their hours, days off, calls, the
 * notice and window): for whom teamOpenSlots of its date, of them alone, holds it.
 */
export function hostsFreeAt(settings: BookingSettings, timeZone: string, hosts: readonly Host[], start: number, now: number): Host[] {
  if (!settings.enabled) return [];
  const { date } = zonedParts(start, timeZone);
  const today = zonedParts(now, timeZone).date;
  const inWindow = date >= today && date <= addDays(today, settings.horizon_days);
  if (!inWindow || start < now + settings.min_notice_hours * 3_600_000) return [];
  return hosts.filter((h) => hostTimesOfDay(settings, timeZone, date, h).starts.includes(start));
}
