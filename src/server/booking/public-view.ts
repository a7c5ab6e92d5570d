import type { BookingSettings, PublicBooking } from '#shared/schemas/booking';
import { isoInZone } from '#shared/zoned-time';
import type { BookingRow } from '../db/queries/bookings-queries.ts';
import type { HoldRow } from '../db/queries/booking-holds-queries.ts';
import { googleCalendarUrl, leadEventDetails, leadEventTitle, outlookCalendarUrl, type FirmContact } from '../lib/booked-call-calendar.ts';

export type PublicViewOptions = {
  /** The time held for the visitor's emailed confirmation, if any. */
  hold?: HoldRow;
  /** The brand and contact the website shows now (Settings → Website), as the emails have them; read only for a scheduled call. */
  site: () => Promise<FirmContact>;
  now?: number;
};

/** The scheduled call for the visitor's own calendar: the .ics path and the web calendars' links, with the invitation's words. */
export function calendarOf(
  token: string,
  call: { start: string; end: string; type: string },
  site: FirmContact,
): NonNullable<PublicBooking['calendar']> {
  const event = { title: leadEventTitle(call.type, site), details: leadEventDetails(call.type, site), start: call.start, end: call.end };
  return {
    ics_path: `/api/public/bookings/${token}/calendar.ics`,
    google_url: googleCalendarUrl(event),
    outlook_url: outlookCalendarUrl(event),
  };
}

/** What the link's holder sees of their booking (with the time held for their confirmation, if any). */
export async function publicView(
  row: BookingRow,
  token: string,
  settings: BookingSettings,
  timeZone: string,
  options: PublicViewOptions,
): Promise<PublicBooking> {
  const { hold, now = Date.now() } = options;
  const a = row.appointment;
  const noticeMs = settings.min_notice_hours * 3_600_000;
  const scheduled = a?.status === 'scheduled';
  const booking = a
    ? {
        start: isoInZone(a.start, timeZone),
        end: isoInZone(a.start + a.duration_minutes * 60_000, timeZone),
        type: a.type,
        status: a.status,
        join_url: a.type === 'Zoom' && a.location && /^https:\/\//.test(a.location) ? a.location : null,
      }
    : null;
  return {
    first_name: row.full_name.split(/\s+/)[0] ?? row.full_name,
    time_zone: timeZone,
    booking,
    can_book: settings.enabled && !row.expired && (!a || a.status === 'cancelled'),
    can_change: scheduled && a.start - now >= noticeMs,
    min_notice_hours: settings.min_notice_hours,
    manage_path: `/booking/${token}`,
    pending:
      hold && !hold.confirmed && !hold.expired
        ? {
            start: isoInZone(hold.start, timeZone),
            end: isoInZone(hold.start + settings.slot_minutes * 60_000, timeZone),
            type: hold.type,
            expires_at: hold.expires_at,
          }
        : null,
    calendar: booking && scheduled ? calendarOf(token, booking, await options.site()) : null,
  };
}
