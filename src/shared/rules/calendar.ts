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
