/**
 * An iCalendar text as ical.js components, one per VCALENDAR (a file may hold several one
 * after the other). ical.js does the parsing; this module first checks what ical.js takes on
 * trust, because the text comes from outside: that it is a calendar at all (an expired secret
 * address answers an HTML login page), that its parts close in the order they opened (ical.js
 * closes whichever part is open at any END line) and that they do not nest without end.
 *
 * ical.js refuses a whole text for one line it cannot read. Such lines come from exporters that
 * break a long description without folding it, while the times we need are on other lines, so
 * a line ical.js refuses costs that line, not the calendar: it is dropped and counted, except a
 * line the busy times depend on (a repeat rule, a start…), which is kept as a marker
 * (`X-ICS-UNREADABLE:RRULE`) so its event can say what it lost.
 */
import ICAL from 'ical.js';
import { IcsError } from './ics-error.ts';

export type ParsedIcs = { calendars: ICAL.Component[]; skippedLines: number };

/** The property that stands for a line ical.js refused, its value the refused property's name. */
export const UNREADABLE = 'x-ics-unreadable';

const NOT_A_CALENDAR = 'The calendar could not be read: it is not an iCalendar file.';
const BROKEN = 'The calendar could not be read: it is cut short, or its parts do not close in order.';
const TOO_DEEP = 'The calendar could not be read: its parts are nested too deeply.';
/** A real calendar nests four deep (VCALENDAR, VEVENT, VALARM, and a vendor's part); more is hostile. */
const MAX_DEPTH = 16;
/** The properties whose loss changes an event's busy time, so its event reports it (ics-event.ts). */
const REPORTED = new Set(['DTSTART', 'DTEND', 'DURATION', 'RRULE', 'RDATE', 'EXDATE', 'RECURRENCE-ID']);

type Line = { text: string; name: string; structural: boolean };

/**
 * The document's calendars as ical.js components. Throws IcsError when the text is not a
 * calendar or its parts do not close in order.
 */
export function parseIcs(text: string): ParsedIcs {
  const { lines, skippedLines } = checkedLines(text);
  try {
    return { calendars: components(ICAL.parse(lines.map((l) => l.text).join('\r\n'))), skippedLines };
  } catch {
    // Rare: find the lines ical.js refuses, one by one, and read the rest.
  }
  let skipped = skippedLines;
  const readable: string[] = [];
  for (const line of lines) {
    if (line.structural || readsAsProperty(line.text)) readable.push(line.text);
    else if (REPORTED.has(line.name)) readable.push(`${UNREADABLE.toUpperCase()}:${line.name}`);
    else skipped++;
  }
  try {
    return { calendars: components(ICAL.parse(readable.join('\r\n'))), skippedLines: skipped };
  } catch {
    throw new IcsError(BROKEN);
  }
}

function readsAsProperty(line: string): boolean {
  try {
    ICAL.parse.property(line);
    return true;
  } catch {
    return false;
  }
}

/** ICAL.parse answers one calendar's jCal, or a list of them when there are several. */
function components(jcal: unknown): ICAL.Component[] {
  const list = Array.isArray(jcal) && typeof jcal[0] === 'string' ? [jcal] : (jcal as unknown[]);
  return list.map((c) => new ICAL.Component(c as unknown[]));
}

/**
 * The text's content lines, unfolded, with the lines no calendar part can hold left out and
 * counted. Where a line is a BEGIN or END is decided as ical.js decides it, so the two agree on
 * the structure checked here.
 */
function checkedLines(text: string): { lines: Line[]; skippedLines: number } {
  // Folded lines continue after a line break and one space or tab (RFC 5545, 3.1).
  const raw = text
    .replace(/^\uFEFF/, '')
    .replace(/\r?\n[ \t]/g, '')
    .split(/\r?\n/);
  const lines: Line[] = [];
  const open: string[] = [];
  let skippedLines = 0;
  let started = false;
  for (const text of raw) {
    if (text.trim() === '') continue;
    const colon = text.indexOf(':');
    const semicolon = text.indexOf(';');
    const nameEnd = semicolon >= 0 && (colon < 0 || semicolon < colon) ? semicolon : colon;
    const name = (nameEnd < 0 ? text : text.slice(0, nameEnd)).trim().toUpperCase();
    const structural = colon >= 0 && nameEnd === colon && (name === 'BEGIN' || name === 'END');
    const value = text
      .slice(colon + 1)
      .trim()
      .toUpperCase();
    if (!started) {
      // The first line decides whether this is a calendar at all.
      if (!structural || name !== 'BEGIN' || value !== 'VCALENDAR') throw new IcsError(NOT_A_CALENDAR);
      started = true;
    }
    if (name === 'BEGIN' && structural) {
      if (open.length >= MAX_DEPTH) throw new IcsError(TOO_DEEP);
      if (open.length === 0 && value !== 'VCALENDAR') throw new IcsError(BROKEN);
      open.push(value);
    } else if (name === 'END' && structural) {
      if (open.pop() !== value) throw new IcsError(BROKEN);
    } else if (colon < 0 || open.length === 0) {
      // No value (ical.js refuses the line), or text after a calendar's END (a trailer some servers add).
      skippedLines++;
      continue;
    }
    // BEGIN and END as ical.js names the parts: their value trimmed.
    lines.push({ text: structural ? `${name}:${value}` : text, name, structural });
  }
  if (!started) throw new IcsError(NOT_A_CALENDAR);
  if (open.length > 0) throw new IcsError(BROKEN);
  return { lines, skippedLines };
}

/** What `read` answers, or undefined when it throws: ical.js reads a value when first asked for it, and throws for one it cannot read. */
export function attempt<T>(read: () => T): T | undefined {
  try {
    return read();
  } catch {
    return undefined;
  }
}
