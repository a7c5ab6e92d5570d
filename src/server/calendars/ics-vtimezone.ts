/**
 * Which of a calendar's VTIMEZONE definitions ical.js may read. ical.js works a zone's changes
 * out all at once, from the start of each of its observances (STANDARD, DAYLIGHT; Outlook's start
 * in 1601) to five years after the year asked, following whatever rule an observance gives: a
 * definition repeating every second would keep it busy for hours and fill the memory. A real
 * zone changes once or twice a year, by a yearly rule (RRULE:FREQ=YEARLY;BYMONTH=3;BYDAY=2SU)
 * or by listed dates (RDATE), so a definition unlike that, or one ical.js fails to read, is
 * taken out of the calendar before anything asks ical.js about it; its times are then read in
 * the firm's zone, with a warning (ics-zones.ts).
 */
import ICAL from 'ical.js';
import { attempt } from './ics-parse.ts';

/** Observances and changes a definition may hold: real ones hold two observances and a few hundred changes since 1601. */
const MAX_OBSERVANCES = 50;
const MAX_CHANGES = 10_000;
/** The parts a yearly rule of a zone may have; the last three, of one value, are Lotus Notes'. */
const ZONE_RULE_PARTS = new Set(['BYMONTH', 'BYDAY', 'BYMONTHDAY', 'BYHOUR', 'BYMINUTE', 'BYSECOND']);

/**
 * The TZIDs of the calendar's definitions ical.js may read, and of those it may not, which are
 * removed from the calendar (as is a second definition of one TZID: ical.js reads the first).
 * `lastYear` is the latest year the calendar's times will be read in (ics-zones.ts, fileClock).
 */
export function readableTimezones(calendar: ICAL.Component, lastYear: number): { readable: Set<string>; unreadable: Set<string> } {
  const readable = new Set<string>();
  const unreadable = new Set<string>();
  const zones = calendar.getAllSubcomponents('vtimezone');
  for (const zone of zones) {
    const tzid = attempt(() => zone.getFirstPropertyValue('tzid'));
    if (typeof tzid === 'string' && tzid !== '' && !readable.has(tzid) && changesWithin(zone, lastYear)) readable.add(tzid);
    else {
      calendar.removeSubcomponent(zone);
      if (typeof tzid === 'string' && !readable.has(tzid)) unreadable.add(tzid);
    }
  }
  // Only now, with every definition ical.js cannot look through gone, is one worked out (ical.js
  // keeps it, for the events' times); one it fails on goes too.
  for (const tzid of readable) {
    const works = attempt(() =>
      Number.isFinite(
        calendar
          .getTimeZoneByID(tzid)
          ?.utcOffset(new ICAL.Time({ year: lastYear, month: 1, day: 1, hour: 0 }, ICAL.Timezone.localTimezone)),
      ),
    );
    if (works) continue;
    readable.delete(tzid);
    unreadable.add(tzid);
    const zone = zones.find((z) => attempt(() => z.getFirstPropertyValue('tzid')) === tzid);
    if (zone) calendar.removeSubcomponent(zone);
  }
  return { readable, unreadable };
}

/** Whether the definition is like a real zone's, with at most MAX_CHANGES changes up to lastYear and the five years ical.js adds. */
function changesWithin(zone: ICAL.Component, lastYear: number): boolean {
  const observances = zone.getAllSubcomponents();
  if (observances.length === 0 || observances.length > MAX_OBSERVANCES) return false;
  let changes = 0;
  for (const observance of observances) {
    // ical.js works out any part with a start and offsets, STANDARD, DAYLIGHT or not.
    if (observance.name !== 'standard' && observance.name !== 'daylight') return false;
    const start = attempt(() => observance.getFirstPropertyValue('dtstart'));
    if (!(start instanceof ICAL.Time) || !(start.year >= 1 && start.year <= 9999)) return false;
    for (const name of ['tzoffsetfrom', 'tzoffsetto']) {
      const offset = attempt(() => observance.getFirstPropertyValue(name));
      if (!(offset instanceof ICAL.UtcOffset) || !(Math.abs(offset.toSeconds()) <= 24 * 3600)) return false;
    }
    // ical.js reads the first date of each RDATE line.
    for (const rdate of observance.getAllProperties('rdate')) {
      if (!(attempt(() => rdate.getFirstValue()) instanceof ICAL.Time)) return false;
      changes++;
    }
    const rule = attempt(() => observance.getFirstPropertyValue('rrule'));
    if (rule !== null && rule !== undefined) {
      if (!(rule instanceof ICAL.Recur)) return false;
      const perYear = yearlyChanges(rule);
      if (perYear === undefined) return false;
      const years = Math.max(1, lastYear + 5 - start.year + 1) / Math.max(1, rule.interval ?? 1);
      changes += rule.count ? Math.min(rule.count, perYear * years) : perYear * years;
    }
    if (!(changes <= MAX_CHANGES)) return false;
  }
  return true;
}

/** At most how many changes a zone's yearly rule makes a year; undefined for a rule no zone has. */
function yearlyChanges(rule: ICAL.Recur): number | undefined {
  if (rule.freq !== 'YEARLY') return undefined;
  const parts = rule.parts as Record<string, unknown[]>;
  if (!Object.keys(parts).every((p) => ZONE_RULE_PARTS.has(p))) return undefined;
  const { BYMONTH: months, BYDAY: weekdays, BYMONTHDAY: monthDays, BYHOUR: hours, BYMINUTE: minutes, BYSECOND: seconds } = parts;
  if ([hours, minutes, seconds].some((values) => values && values.length > 1)) return undefined;
  const byDay = weekdays || monthDays;
  // "2SU" is one day a month, "SU" up to five.
  const weekdayCount = weekdays ? weekdays.reduce<number>((n, d) => n + (/^[+-]?\d/.test(String(d)) ? 1 : 5), 0) : 31;
  const days = byDay ? Math.min(monthDays?.length ?? 31, weekdayCount) : 1;
  return (months?.length ?? (byDay ? 12 : 1)) * days;
}
