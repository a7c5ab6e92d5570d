/**
 * Wall-clock time in a named time zone (IANA, like America/New_York), with Intl only: the
 * business time zone's dates and times, and the instants they name, across daylight saving.
 * Dates are yyyy-mm-dd, times are minutes after midnight, instants are epoch milliseconds.
 */

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatter(timeZone: string): Intl.DateTimeFormat {
  let f = formatters.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    });
    formatters.set(timeZone, f);
  }
  return f;
}

export type ZonedParts = { date: string; minutes: number; offsetMinutes: number };

/**
 * A zone's UTC offset (ms) over each quarter hour, when it is one offset all through (undefined
 * when the offset changes inside, or is not whole minutes, as local mean times were): Intl's
 * formatToParts is the slow part of zonedParts (~10 µs), and availability asks it for every
 * busy time's ends. Quarter hours, since zones change at :00, :30 or :45 past an hour.
 */
const QUARTER = 15 * 60_000;
const quarterOffsets = new Map<string, Map<number, number | undefined>>();
const QUARTERS_KEPT = 200_000;

function quarterOffset(instant: number, timeZone: string): number | undefined {
  let zone = quarterOffsets.get(timeZone);
  if (!zone) quarterOffsets.set(timeZone, (zone = new Map()));
  const quarter = Math.floor(instant / QUARTER);
  if (zone.has(quarter)) return zone.get(quarter);
  if (zone.size >= QUARTERS_KEPT) zone.clear();
  const start = exactParts(quarter * QUARTER, timeZone).offsetMs;
  const end = exactParts((quarter + 1) * QUARTER - 1000, timeZone).offsetMs;
  const offset = start === end && start % 60_000 === 0 ? start : undefined;
  zone.set(quarter, offset);
  return offset;
}

const pad2 = (n: number) => (n < 10 ? `0${n}` : String(n));

/** The wall-clock date, minute of the day and UTC offset of `instant` in `timeZone`. */
export function zonedParts(instant: number, timeZone: string): ZonedParts {
  const offset = quarterOffset(instant, timeZone);
  if (offset === undefined) {
    const { date, minutes, offsetMs } = exactParts(instant, timeZone);
    return { date, minutes, offsetMinutes: Math.round(offsetMs / 60_000) };
  }
  // One offset all through the quarter hour: the wall clock is the instant shifted by it.
  const wall = new Date(Math.floor(instant / 1000) * 1000 + offset);
  const y = wall.getUTCFullYear();
  return {
    date: `${y < 1000 ? String(y).padStart(4, '0') : y}-${pad2(wall.getUTCMonth() + 1)}-${pad2(wall.getUTCDate())}`,
    minutes: wall.getUTCHours() * 60 + wall.getUTCMinutes(),
    offsetMinutes: offset / 60_000,
  };
}

/** zonedParts through Intl, with the offset in ms (seconds and all). */
export function exactParts(instant: number, timeZone: string): { date: string; minutes: number; offsetMs: number } {
  const parts: Record<string, string> = {};
  for (const p of formatter(timeZone).formatToParts(new Date(instant))) parts[p.type] = p.value;
  const [y, mo, d, h, mi, s] = [parts.year, parts.month, parts.day, parts.hour, parts.minute, parts.second].map(Number) as [
    number,
    number,
    number,
    number,
    number,
    number,
  ];
  const asUtc = Date.UTC(y, mo - 1, d, h, mi, s);
  const wholeSeconds = Math.floor(instant / 1000) * 1000;
  return {
    date: `${String(y).padStart(4, '0')}-${String(mo).padStart(2, '0')}-${String(d).padStart(2, '0')}`,
    minutes: h * 60 + mi,
    offsetMs: asUtc - wholeSeconds,
  };
}

/** Midnight UTC of a yyyy-mm-dd date: for date arithmetic, not an instant in any zone. */
export function utcDay(date: string): number {
  const [y, m, d] = date.split('-').map(Number) as [number, number, number];
  return Date.UTC(y, m - 1, d);
}

export function addDays(date: string, days: number): string {
  return new Date(utcDay(date) + days * 86_400_000).toISOString().slice(0, 10);
}

/** 1 = Monday … 7 = Sunday (ISO 8601). */
export function isoWeekday(date: string): number {
  const day = new Date(utcDay(date)).getUTCDay();
  return day === 0 ? 7 : day;
}

/**
 * The instant a wall-clock date and minute name in `timeZone`. Undefined for a time the
 * clocks skip (the spring-forward gap); of a time that happens twice (fall back), the first.
 */
export function zonedInstant(date: string, minutes: number, timeZone: string): number | undefined {
  const wall = utcDay(date) + minutes * 60_000;
  let found: number | undefined;
  // The offset a few hours either side covers both readings of an ambiguous time.
  for (const probe of [wall - 12 * 3_600_000, wall + 12 * 3_600_000]) {
    const candidate = wall - zonedParts(probe, timeZone).offsetMinutes * 60_000;
    const back = zonedParts(candidate, timeZone);
    if (back.date === date && back.minutes === minutes && (found === undefined || candidate < found)) found = candidate;
  }
  return found;
}

/** `instant` as ISO 8601 with the zone's offset at that moment: 2026-11-24T10:00:00-05:00. */
export function isoInZone(instant: number, timeZone: string): string {
  const { date, minutes, offsetMinutes } = zonedParts(instant, timeZone);
  const sign = offsetMinutes < 0 ? '-' : '+';
  const abs = Math.abs(offsetMinutes);
  const hhmm = (m: number) => `${String(Math.floor(m / 60)).padStart(2, '0')}:${String(m % 60).padStart(2, '0')}`;
  return `${date}T${hhmm(minutes)}:00${sign}${hhmm(abs)}`;
}

/** "09:30" → 570. */
export const clockMinutes = (time: string) => Number(time.slice(0, 2)) * 60 + Number(time.slice(3, 5));
/** 570 → "09:30". */
export const clockText = (minutes: number) =>
  `${String(Math.floor(minutes / 60)).padStart(2, '0')}:${String(minutes % 60).padStart(2, '0')}`;

/** The longest IANA time zone name we take (the longest real one, America/Argentina/ComodRivadavia, has 32 characters). */
export const TIME_ZONE_MAX_LENGTH = 64;

/**
 * Whether `name` is an IANA time zone this runtime knows (America/Los_Angeles, UTC,
 * Etc/GMT+5), in any letter case. Offsets (+05:00) and abbreviations Intl might also take are
 * not names, so the pattern refuses them first.
 */
export function isTimeZone(name: string): boolean {
  if (name.length > TIME_ZONE_MAX_LENGTH || !/^[A-Za-z][A-Za-z0-9_+-]*(?:\/[A-Za-z0-9_+-]+){0,2}$/.test(name)) return false;
  return canonicalTimeZone(name) !== undefined;
}

/** The runtime's own spelling of a time zone name (america/new_york → America/New_York); undefined for none. */
export function canonicalTimeZone(name: string): string | undefined {
  try {
    return new Intl.DateTimeFormat('en-US', { timeZone: name }).resolvedOptions().timeZone;
  } catch {
    return undefined;
  }
}
