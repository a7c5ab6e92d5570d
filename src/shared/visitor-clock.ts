/**
 * A booked time as a visitor reads it: on their own clock first, the firm's beside it
 * ("Tuesday, November 24 at 7:00 AM PST (10:00 AM EST)"), or once when the two clocks read
 * the same (docs/product-rules.md, "Booking"). Intl only: the booking page and the emails
 * say it the same way.
 */
import { zonedParts } from './zoned-time.ts';

const formats = new Map<string, Intl.DateTimeFormat>();
function format(timeZone: string, options: Intl.DateTimeFormatOptions): Intl.DateTimeFormat {
  const key = `${timeZone}|${JSON.stringify(options)}`;
  let f = formats.get(key);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', { timeZone, ...options });
    formats.set(key, f);
  }
  return f;
}

// Recent ICU writes a narrow no-break space before AM/PM: a plain one reads the same everywhere (mail headers included).
const plain = (s: string) => s.replace(/[\u202f\u00a0]/g, ' ');

/** "Tuesday, November 24" (the year too with `year: 'numeric'`). */
export const LONG_DAY: Intl.DateTimeFormatOptions = { weekday: 'long', month: 'long', day: 'numeric' };

export type ClockOptions = {
  /** How the day is written; without it, the time alone. */
  day?: Intl.DateTimeFormatOptions;
  /** Between the day and the time: " at " (the default) or ", ". */
  joiner?: string;
  /** Whether a time shown once (the clocks agree) carries its zone's name ("EST"); both shown always do. */
  zoneWhenAlone?: boolean;
};

function reading(
  instant: Date,
  timeZone: string,
  { day, joiner = ' at ' }: ClockOptions,
  withZone: boolean,
): { day: string; time: string } {
  const time = plain(
    format(timeZone, { hour: 'numeric', minute: '2-digit', ...(withZone ? { timeZoneName: 'short' } : {}) }).format(instant),
  );
  return { day: day ? `${plain(format(timeZone, day).format(instant))}${joiner}` : '', time };
}

/**
 * `iso` on the visitor's clock with the firm's in brackets (the firm's day too when the two
 * dates differ), or on the firm's clock alone when no visitor zone is known or both clocks
 * read the same date and time.
 */
export function bothClocks(iso: string, businessZone: string, visitorZone: string | null | undefined, options: ClockOptions = {}): string {
  const instant = new Date(iso);
  const at = instant.getTime();
  const business = zonedParts(at, businessZone);
  const visitor = visitorZone ? zonedParts(at, visitorZone) : undefined;
  if (!visitorZone || !visitor || (visitor.date === business.date && visitor.minutes === business.minutes)) {
    const alone = reading(instant, businessZone, options, options.zoneWhenAlone ?? true);
    return `${alone.day}${alone.time}`;
  }
  const theirs = reading(instant, visitorZone, options, true);
  const firms = reading(instant, businessZone, options, true);
  return `${theirs.day}${theirs.time} (${visitor.date === business.date ? '' : firms.day}${firms.time})`;
}
