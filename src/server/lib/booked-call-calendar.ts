import { icsUtc, toInvitation, type CalendarPerson } from './icalendar.ts';

/**
 * A call a visitor booked, for their own calendar: the words of the event (the same in the
 * invitation emails, the .ics download and the Google Calendar and Outlook links), the .ics
 * file itself, and the web calendars' "compose event" addresses.
 */

/** How a person calls each kind of appointment in a sentence. */
export const meetingName = (type: string) => ({ Call: 'call', Zoom: 'Zoom call', 'On-site': 'on-site visit' })[type] ?? type.toLowerCase();

export type FirmContact = { name: string; phone: string; email: string };

/** The event's title in the lead's calendar: "Zoom with Keystone Due Diligence". */
export const leadEventTitle = (type: string, site: FirmContact) => `${type} with ${site.name}`;

/** The event's description in the lead's calendar: nothing the visitor typed, only the firm's words. */
export const leadEventDetails = (type: string, site: FirmContact) =>
  `Your ${meetingName(type)} with ${site.name}. Questions: ${site.phone}, ${site.email}.`;

export type BookedCallEvent = {
  /** The appointment's UID (appointmentUid), the invitation emails' own. */
  uid: string;
  /** The SEQUENCE of the last invitation the lead was sent. */
  sequence: number;
  /** ISO 8601 instants. */
  start: string;
  end: string;
  type: string;
  cancelled: boolean;
  site: FirmContact;
  organizer: CalendarPerson;
  /** The call's video link or place, when it has one. */
  location?: string | null;
};

/** The .ics the visitor downloads: METHOD:PUBLISH, no attendee, the invitation's UID and SEQUENCE. */
export function bookedCallIcs(e: BookedCallEvent): string {
  return toInvitation({
    method: 'PUBLISH',
    status: e.cancelled ? 'CANCELLED' : 'CONFIRMED',
    uid: e.uid,
    sequence: e.sequence,
    startsUtc: icsUtc(e.start),
    durationMinutes: Math.round((Date.parse(e.end) - Date.parse(e.start)) / 60_000),
    summary: leadEventTitle(e.type, e.site),
    description: leadEventDetails(e.type, e.site),
    organizer: e.organizer,
    productName: e.site.name,
    location: e.cancelled ? null : (e.location ?? null),
  });
}

type LinkEvent = { title: string; details: string; start: string; end: string };

const query = (params: [string, string][]) => params.map(([k, v]) => `${k}=${encodeURIComponent(v)}`).join('&');
/** 2026-11-24T15:00:00Z: UTC to the second. */
const isoUtc = (iso: string) => new Date(iso).toISOString().replace(/\.\d{3}Z$/, 'Z');

/** Google Calendar's event template: title, UTC start/end (YYYYMMDDTHHMMSSZ), details. */
export const googleCalendarUrl = (e: LinkEvent) =>
  `https://calendar.google.com/calendar/render?${query([
    ['action', 'TEMPLATE'],
    ['text', e.title],
    ['dates', `${icsUtc(e.start)}/${icsUtc(e.end)}`],
    ['details', e.details],
  ])}`;

/** Outlook on the web's compose-event page: subject, UTC start/end (ISO 8601), body. */
export const outlookCalendarUrl = (e: LinkEvent) =>
  `https://outlook.live.com/calendar/0/deeplink/compose?${query([
    ['path', '/calendar/action/compose'],
    ['rru', 'addevent'],
    ['subject', e.title],
    ['startdt', isoUtc(e.start)],
    ['enddt', isoUtc(e.end)],
    ['body', e.details],
  ])}`;
