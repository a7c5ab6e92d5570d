// iCalendar (RFC 5545) for appointments. Times are written in UTC (DTSTART:...Z), computed
// from the wall-clock date and time in BUSINESS_TIME_ZONE, so every calendar app shows the
// right moment in its own zone without needing our VTIMEZONE rules.

/** How long an appointment lasts until appointments have a duration of their own. */
export const APPOINTMENT_MINUTES = 30;

/** An appointment as a calendar event: its start and creation already in UTC (YYYYMMDDTHHMMSSZ). */
export type CalendarAppointment = {
  id: string;
  type: string;
  notes: string | null;
  duration_minutes: number;
  /** The call's video link or place, when it has one. */
  location?: string | null;
  lead: { full_name: string; email: string; phone: string } | null;
  /** Booked through a repeat form's link: who typed that form (the event names them). */
  booked_as?: { full_name: string; phone: string | null } | null;
  starts_utc: string;
  created_utc: string;
};

/**
 * TEXT values escape backslash, semicolon, comma and line breaks (RFC 5545 3.3.11). Any line
 * break (CRLF, LF or a lone CR) becomes \n, and other control characters, which TEXT may not
 * hold, are dropped: a stored "\rATTENDEE:..." must not start a property of its own.
 */
export const escapeText = (s: string) =>
  s
    .replace(/\\/g, '\\\\')
    .replace(/;/g, '\\;')
    .replace(/,/g, '\\,')
    .replace(/\r\n|\r|\n/g, '\\n')
    // eslint-disable-next-line no-control-regex -- removing control characters is the point
    .replace(/[\u0000-\u0008\u000a-\u001f\u007f]/g, '');

/** Lines longer than 75 octets continue on the next line after CRLF and a space (3.1). */
export function foldLine(line: string): string {
  const bytes = Buffer.from(line, 'utf8');
  if (bytes.length <= 75) return line;
  const parts: string[] = [];
  let current = '';
  let size = 0;
  for (const ch of line) {
    const n = Buffer.byteLength(ch, 'utf8');
    if (size + n > (parts.length === 0 ? 75 : 74)) {
      parts.push(current);
      current = '';
      size = 0;
    }
    current += ch;
    size += n;
  }
  parts.push(current);
  return parts.join('\r\n ');
}

/** An appointment's UID in every calendar it reaches: the subscription feed and the invitation emails alike. */
export const appointmentUid = (id: string, domain: string) => `${id}@${domain}`;

const utcStamp = (d: Date) =>
  d
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d{3}/, '');

function event(a: CalendarAppointment, uidDomain: string, now: Date): string[] {
  const repeat = a.booked_as && a.lead ? a.booked_as : null;
  const who = repeat?.full_name ?? a.lead?.full_name ?? 'Unknown Lead';
  const details = [
    a.notes,
    repeat ? `Booked through a repeat form with the email of ${a.lead!.full_name}` : null,
    a.lead ? `Email: ${a.lead.email}` : null,
    a.lead ? `Phone: ${repeat?.phone ?? a.lead.phone}` : null,
  ]
    .filter(Boolean)
    .join('\n');
  return [
    'BEGIN:VEVENT',
    `UID:${appointmentUid(a.id, uidDomain)}`,
    `DTSTAMP:${utcStamp(now)}`,
    `CREATED:${a.created_utc}`,
    `DTSTART:${a.starts_utc}`,
    `DURATION:PT${a.duration_minutes}M`,
    `SUMMARY:${escapeText(`${a.type} with ${who}`)}`,
    ...(details ? [`DESCRIPTION:${escapeText(details)}`] : []),
    ...(a.location ? [`LOCATION:${escapeText(a.location)}`] : []),
    'END:VEVENT',
  ];
}

export function toICalendar(
  appointments: CalendarAppointment[],
  opts: { siteName: string; timeZone: string; uidDomain: string; now?: Date },
): string {
  const now = opts.now ?? new Date();
  const lines = [
    'BEGIN:VCALENDAR',
    'VERSION:2.0',
    `PRODID:-//${escapeText(opts.siteName)}//Due Diligence CRM//EN`,
    'CALSCALE:GREGORIAN',
    'METHOD:PUBLISH',
    `X-WR-CALNAME:${escapeText(`${opts.siteName} appointments`)}`,
    `X-WR-TIMEZONE:${opts.timeZone}`,
    ...appointments.flatMap((a) => event(a, opts.uidDomain, now)),
    'END:VCALENDAR',
  ];
  return lines.map(foldLine).join('\r\n') + '\r\n';
}

/** Who an invitation is from or to: a display name (maybe empty) and an address. */
export type CalendarPerson = { name: string; address: string };

export type Invitation = {
  /**
   * REQUEST adds or updates the event in the attendee's calendar; CANCEL removes it (RFC 5546);
   * PUBLISH is a file a person adds to their own calendar (the visitor's .ics download), with
   * the same UID and SEQUENCE, so it updates the event an invitation made.
   */
  method: 'REQUEST' | 'CANCEL' | 'PUBLISH';
  /** CANCELLED for a cancellation (the default of CANCEL), else CONFIRMED. */
  status?: 'CONFIRMED' | 'CANCELLED';
  /** Stable across every message about one appointment, so calendars apply each in place. */
  uid: string;
  /** One higher at every change: a calendar ignores a message older than what it holds. */
  sequence: number;
  /** UTC, YYYYMMDDTHHMMSSZ. */
  startsUtc: string;
  durationMinutes: number;
  summary: string;
  description: string;
  organizer: CalendarPerson;
  /** None in a published file. */
  attendee?: CalendarPerson;
  productName: string;
  /** Where the call happens: a video link (then also the event's URL) or a place. */
  location?: string | null;
  now?: Date;
};

/** A parameter value (CN=...) in quotes, without the characters a quoted value may not hold (3.2). */
// eslint-disable-next-line no-control-regex -- removing control characters is the point
const CONTROL_CHARACTER = /[\u0000-\u001f\u007f]/g;
const paramText = (s: string) => `"${s.replace(/["\\]/g, '').replace(CONTROL_CHARACTER, ' ').trim()}"`;

/**
 * An iCalendar invitation (iTIP, RFC 5546) for one appointment, attached to the email that
 * schedules, moves or cancels it: calendar apps add, update or remove the event in place.
 * Also the visitor's own download of their call (METHOD:PUBLISH, no attendee).
 */
export function toInvitation(inv: Invitation): string {
  const person = (role: string, p: CalendarPerson) => `${role}${p.name ? `;CN=${paramText(p.name)}` : ''}:mailto:${p.address}`;
  const lines = [
    'BEGIN:VCALENDAR',
    'VERSION:2.0',
    `PRODID:-//${escapeText(inv.productName)}//Due Diligence CRM//EN`,
    'CALSCALE:GREGORIAN',
    `METHOD:${inv.method}`,
    'BEGIN:VEVENT',
    `UID:${inv.uid}`,
    `SEQUENCE:${inv.sequence}`,
    `DTSTAMP:${utcStamp(inv.now ?? new Date())}`,
    `DTSTART:${inv.startsUtc}`,
    `DURATION:PT${inv.durationMinutes}M`,
    `SUMMARY:${escapeText(inv.summary)}`,
    `DESCRIPTION:${escapeText(inv.description)}`,
    ...(inv.location ? [`LOCATION:${escapeText(inv.location)}`] : []),
    ...(inv.location && /^https:\/\/\S+$/.test(inv.location) ? [`URL:${inv.location}`] : []),
    person('ORGANIZER', inv.organizer),
    ...(inv.attendee ? [person('ATTENDEE;ROLE=REQ-PARTICIPANT;PARTSTAT=NEEDS-ACTION;RSVP=FALSE', inv.attendee)] : []),
    `STATUS:${inv.status ?? (inv.method === 'CANCEL' ? 'CANCELLED' : 'CONFIRMED')}`,
    'END:VEVENT',
    'END:VCALENDAR',
  ];
  return lines.map(foldLine).join('\r\n') + '\r\n';
}

/** UTC ISO 8601 (2026-11-24T15:00:00.000Z) as iCalendar's YYYYMMDDTHHMMSSZ. */
export const icsUtc = (iso: string) => utcStamp(new Date(iso));
