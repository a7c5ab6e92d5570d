import { listCalendarAppointments } from '../db/queries/appointments.ts';
import { getWriteTarget } from '../db/queries/calendar-connections.ts';
import { claimDueWrites, type ClaimedWrite, failWrite, finishWrite } from '../db/queries/calendar-writes.ts';
import { appointmentUid, toICalendar } from '../lib/icalendar.ts';
import { asReadError, davOptions, openAccount } from './caldav-account.ts';
import { deleteEvent, putEvent } from './caldav.ts';
import { CalendarReadError } from './calendar-read.ts';
import type { CalendarAccess } from './sync.ts';

/**
 * Booked calls copied into their host's CalDAV calendar: written when booked, moved when
 * moved, removed when cancelled, deleted, given to someone else, or when the person picks
 * another calendar (or none). Each copy is the appointment as it is when written (the lead's
 * name, email and phone, the notes, the place), never a replay of changes, so copies written
 * in any order, or again after a crash, end the same. The queue is filled by the database's
 * triggers (calendar_writes); every process drains it, each copy claimed by one.
 */

/** Writes up to `limit` due copies; how many were handled (written, moved, removed or failed). */
export async function writeDueCopies(access: CalendarAccess, limit = 20): Promise<number> {
  const claimed = await claimDueWrites(access.db, limit);
  for (const w of claimed) await writeCopy(access, w);
  return claimed.length;
}

async function writeCopy(access: CalendarAccess, w: ClaimedWrite): Promise<void> {
  try {
    const target = await getWriteTarget(access.db, w.connection_id);
    if (!target) return; // the connection was removed meanwhile: its rows went with it
    const uid = w.uid ?? appointmentUid(w.appointment_id, access.uidDomain);
    const [appointment] = await listCalendarAppointments(access.db, access.timeZone, w.appointment_id);
    const calendar =
      appointment && appointment.status === 'scheduled' && appointment.host_id === target.user_id && target.kind === 'caldav'
        ? target.write_calendar
        : null;
    let eventUrl = w.event_url;
    if (eventUrl === null && calendar === null) {
      await finishWrite(access.db, w, uid, null);
      return;
    }
    const account = openAccount(access, target.secret, target.id);
    const options = davOptions(access);
    if (eventUrl !== null && (calendar === null || !eventUrl.startsWith(withSlash(calendar)))) {
      await deleteEvent(eventUrl, account, options);
      eventUrl = null;
    }
    if (calendar !== null && appointment) {
      const ics = toICalendar([appointment], { siteName: await access.siteName(), timeZone: access.timeZone, uidDomain: access.uidDomain });
      eventUrl = (await putEvent(calendar, account, { uid, ics }, options)).url;
    }
    await finishWrite(access.db, w, uid, eventUrl);
  } catch (error) {
    const known = asReadError(error);
    const message = known instanceof CalendarReadError ? known.message : 'Something went wrong writing it. It will be tried again.';
    if (!(known instanceof CalendarReadError))
      access.logger?.error({ err: error, event: 'calendar_write_failed', connection: w.connection_id }, 'writing a booked call failed');
    await failWrite(access.db, w, message);
  }
}

const withSlash = (url: string) => (url.endsWith('/') ? url : `${url}/`);
