import { format, isValid, parseISO } from 'date-fns';

/** A next step's date ('yyyy-mm-dd') as "Nov 25", with the year when it is not this year's. */
export function formatFollowUpDate(on: string, today: Date = new Date()): string {
  const date = parseISO(on);
  if (!isValid(date)) return 'N/A';
  return format(date, date.getFullYear() === today.getFullYear() ? 'MMM d' : 'MMM d, yyyy');
}

/** "Follow up on Nov 25: send the zoning report" (or without the text when there is none). */
export function followUpText(on: string, note: string | null, today: Date = new Date()): string {
  const when = `Follow up on ${formatFollowUpDate(on, today)}`;
  return note ? `${when}: ${note}` : when;
}

/** Today's date on this computer as 'yyyy-mm-dd' (what a date input holds). */
export const localDate = (now: Date = new Date()) => format(now, 'yyyy-MM-dd');

/** Whether the next step's day has passed (dates compare as text in this format). */
export const isOverdue = (on: string, now: Date = new Date()) => on < localDate(now);
