import { sql, type SQL } from 'drizzle-orm';
import { PERIOD_HOURS, type AnalyticsPeriod } from '#shared/constants';
import { daysInRange } from '#shared/rules/calendar';
import { addDays, isoInZone, zonedInstant, zonedParts } from '#shared/zoned-time';

/**
 * The period of every figure on the Analytics page: whole days in the business time zone
 * (`from` to `to`, both included), or, with `hours`, whole hours (the last 24 hours). The
 * summary cards, the trend, the funnel and the sources all cut their period with `bounds`
 * below, against the rollups' hours, so no two of them can count a period differently
 * (docs/product-rules.md, "Analytics").
 */
export type AnalyticsWindow = {
  /** The first and last day, in `timeZone`, the period touches. */
  from: string;
  to: string;
  timeZone: string;
  /** Whole hours instead of whole days: the first hour (epoch ms, on the hour) and how many. */
  hours?: { start: number; count: number };
};
/** A period of whole days (the weekly report's week, a custom range). */
export type DayRange = AnalyticsWindow;

const HOUR_MS = 3_600_000;

/** `count` whole hours from `start` (epoch ms on the hour). */
export function hoursWindow(start: number, count: number, timeZone: string): AnalyticsWindow {
  const end = start + count * HOUR_MS;
  return { from: zonedParts(start, timeZone).date, to: zonedParts(end - 1, timeZone).date, timeZone, hours: { start, count } };
}

/**
 * A preset at `now`: the last N days, today included (so "Last 7 days" is today and the 6
 * days before it, from midnight in the business time zone), or, for the last 24 hours, the
 * current hour and the 23 before it.
 */
export function presetWindow(period: AnalyticsPeriod, now: number, timeZone: string): AnalyticsWindow {
  const hours = PERIOD_HOURS[period];
  if (period === '24h') return hoursWindow(Math.floor(now / HOUR_MS) * HOUR_MS - (hours - 1) * HOUR_MS, hours, timeZone);
  const today = zonedParts(now, timeZone).date;
  return { from: addDays(today, -(hours / 24 - 1)), to: today, timeZone };
}

/** What a report or sources query asks for: `from`/`to`, else a preset `period`, else the last `days` (today included). */
export function resolveWindow(
  query: { from?: string | undefined; to?: string | undefined; period?: AnalyticsPeriod | undefined; days?: number | undefined },
  now: number,
  timeZone: string,
): AnalyticsWindow {
  if (query.from && query.to) return { from: query.from, to: query.to, timeZone };
  if (query.period) return presetWindow(query.period, now, timeZone);
  const today = zonedParts(now, timeZone).date;
  return { from: addDays(today, -((query.days ?? 1) - 1)), to: today, timeZone };
}

/** The period of the same length that ends where `window` starts. */
export function previousRange(window: AnalyticsWindow): AnalyticsWindow {
  if (window.hours) return hoursWindow(window.hours.start - window.hours.count * HOUR_MS, window.hours.count, window.timeZone);
  const days = daysInRange(window.from, window.to);
  return { from: addDays(window.from, -days), to: addDays(window.from, -1), timeZone: window.timeZone };
}

const midnight = (day: string, timeZone: string): SQL => sql`((${day}::date)::timestamp at time zone ${timeZone})`;
const instant = (ms: number): SQL => sql`${new Date(ms).toISOString()}::timestamptz`;

/**
 * The period as [start, end) for SQL. Rollups are kept by UTC hour, and a row counts when its
 * hour starts inside: in a time zone whose offset is not whole hours, a day's first minutes
 * count on the day before, everywhere alike.
 */
export function bounds(window: AnalyticsWindow): { start: SQL; end: SQL } {
  if (window.hours) return { start: instant(window.hours.start), end: instant(window.hours.start + window.hours.count * HOUR_MS) };
  return { start: midnight(window.from, window.timeZone), end: midnight(addDays(window.to, 1), window.timeZone) };
}

/** A day's first instant (its first minute after a clock change that skips midnight). */
const dayStart = (day: string, timeZone: string) =>
  zonedInstant(day, 0, timeZone) ?? zonedInstant(day, 60, timeZone) ?? Date.parse(`${day}T00:00:00Z`);

/** The period's start and end (not included), as ISO 8601 in the business time zone, for the page to say. */
export function boundsText(window: AnalyticsWindow): { start: string; end: string } {
  const [start, end] = window.hours
    ? [window.hours.start, window.hours.start + window.hours.count * HOUR_MS]
    : [dayStart(window.from, window.timeZone), dayStart(addDays(window.to, 1), window.timeZone)];
  return { start: isoInZone(start, window.timeZone), end: isoInZone(end, window.timeZone) };
}
