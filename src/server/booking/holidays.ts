import { allForYear } from '@18f/us-federal-holidays';

export type Holiday = { date: string; name: string };

const byYear = new Map<number, Holiday[]>();

/**
 * The US federal holidays of `year` as observed (one on a Saturday is taken the Friday before,
 * one on a Sunday the Monday after), from 18F's library rather than a list kept by hand.
 */
export function federalHolidays(year: number): Holiday[] {
  let holidays = byYear.get(year);
  if (!holidays) {
    holidays = allForYear(year).map((h) => ({ date: h.dateString, name: h.name }));
    byYear.set(year, holidays);
  }
  return holidays;
}

/** The observed federal holidays from business date `from` to `to` (both included), in order. */
export function federalHolidaysBetween(from: string, to: string): Holiday[] {
  const out: Holiday[] = [];
  // A holiday observed on Dec 31 may belong to the next year (New Year's Day on a Saturday).
  for (let year = Number(from.slice(0, 4)) - 1; year <= Number(to.slice(0, 4)) + 1; year++) {
    for (const h of federalHolidays(year)) if (h.date >= from && h.date <= to) out.push(h);
  }
  return out.sort((a, b) => (a.date < b.date ? -1 : a.date > b.date ? 1 : 0));
}

const datesByYear = new Map<number, Set<string>>();

/** Whether business date `date` is an observed federal holiday (federalHolidaysBetween of that one day, cached per year). */
export function isFederalHoliday(date: string): boolean {
  const year = Number(date.slice(0, 4));
  let dates = datesByYear.get(year);
  if (!dates) {
    dates = new Set(federalHolidaysBetween(`${year}-01-01`, `${year}-12-31`).map((h) => h.date));
    datesByYear.set(year, dates);
  }
  return dates.has(date);
}
