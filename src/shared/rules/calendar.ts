import { utcDay } from '../zoned-time.ts';
import { storableTextError } from './text-checks.ts';

/** Dates and clock times as forms send them, checked without zod (the browser's forms use these too). */

/** A real calendar day as yyyy-mm-dd between 1900 and 2200 (2026-02-30 is not one). */
export function isCalendarDate(value: string): boolean {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  if (!m) return false;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const date = new Date(Date.UTC(y, mo - 1, d));
  return y >= 1900 && y <= 2200 && date.getUTCFullYear() === y && date.getUTCMonth() === mo - 1 && date.getUTCDate() === d;
}

/** A 24-hour clock time, HH:MM. */
export const isClockTime = (value: string) => /^([01]\d|2[0-3]):[0-5]\d$/.test(value);

/** A custom range's messages, as the analytics API gives them. */
export const DATE_RANGE_MESSAGES = {
  required: 'Date is required',
  invalid: 'Invalid date',
  missing: 'Choose the days: from and to, a period or a number of days',
  order: 'The start date must be on or before the end date',
  tooLong: 'Choose a range of at most 2 years',
} as const;

/**
 * A range of whole days, `from` to `to` (both included, at most `maxDays`), checked as the
 * analytics API checks its `from` and `to`: the cleaned days, or the first message per field.
 * As there, the range's own rules apply unless a day is missing its text altogether.
 */
export function checkDateRange(
  input: { from?: string; to?: string },
  maxDays: number,
): { ok: true; value: { from: string; to: string } } | { ok: false; errors: { from?: string; to?: string } } {
  const errors: { from?: string; to?: string } = {};
  let blank = false;
  const day = (key: 'from' | 'to'): string | undefined => {
    const value = input[key];
    if (value === undefined) return undefined;
    const text = value.trim();
    const unstorable = storableTextError(value);
    if (text.length === 0) blank = true;
    const error =
      unstorable ?? (text.length === 0 ? DATE_RANGE_MESSAGES.required : isCalendarDate(text) ? undefined : DATE_RANGE_MESSAGES.invalid);
    if (error) errors[key] = error;
    return text;
  };
  const from = day('from');
  const to = day('to');
  if (!blank) {
    if (from === undefined || to === undefined) errors.from ??= DATE_RANGE_MESSAGES.missing;
    else if (from > to) errors.to ??= DATE_RANGE_MESSAGES.order;
    // Not `> maxDays`: a day that is no date makes the count NaN, which the API refuses too.
    else if (!(daysInRange(from, to) <= maxDays)) errors.from ??= DATE_RANGE_MESSAGES.tooLong;
  }
  if (Object.keys(errors).length > 0 || from === undefined || to === undefined) return { ok: false, errors };
  return { ok: true, value: { from, to } };
}

/** Days from `from` to `to` (YYYY-MM-DD), both included. */
export const daysInRange = (from: string, to: string) => (utcDay(to) - utcDay(from)) / 86_400_000 + 1;
