import { listCalendarAppointments } from '../db/queries/appointments-queries.ts';
import { getWriteTarget } from '../db/queries/calendar-connections-queries.ts';
import { claimDueWrites, type ClaimedWrite, failWrite, finishWrite, keepUid } from '../db/queries/calendar-writes-queries.ts';
import { appointmentUid, toICalendar } from '../lib/icalendar.ts';
import { asReadError, davOptions, openAccount } from './caldav-account.ts';
import { deleteEvent, putEvent, withSlash } from './caldav.ts';
import { CalendarReadError, waitAtMost } from './calendar-read.ts';
import type { CalendarAccess } from './calendar-access.ts';

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

/**
 * The copies of `appointmentIds` written now (an erasure's, so the person hears at once whether
 * they are gone), waiting at most `deadlineMs`: the labels of the calendars that could not be
 * reached, or did not answer in time (their copies are tried again by the queue).
 */
export async function writeCopiesNow(access: CalendarAccess, appointmentIds: readonly string[], deadlineMs: number): Promise<string[]> {
  if (appointmentIds.length === 0) return [];
  const claimed = await claimDueWrites(access.db, 1000, appointmentIds);
  const failed = new Set<string>();
  const labels = new Map<string, string>();
  // Copies not yet written, per calendar: one still waiting at the deadline counts as not reached.
  const left = new Map<string, number>();
  for (const w of claimed) left.set(w.connection_id, (left.get(w.connection_id) ?? 0) + 1);
  const work = (async () => {
    for (const w of claimed) {
      const outcome = await writeCopy(access, w);
      if (outcome.label) labels.set(w.connection_id, outcome.label);
      if (!outcome.ok) failed.add(w.connection_id);
      left.set(w.connection_id, left.get(w.connection_id)! - 1);
    }
  })();
  await waitAtMost(work, deadlineMs);
  for (const [id, n] of left) if (n > 0) failed.add(id);
  for (const id of failed) if (!labels.has(id)) labels.set(id, (await getWriteTarget(access.db, id))?.label ?? 'a calendar');
  return [...failed].map((id) => labels.get(id) ?? 'a calendar').sort();
}

/** One copy: whether it ended as wanted, and the connection's label when it was read. */
async function writeCopy(access: CalendarAccess, w: ClaimedWrite): Promise<{ ok: boolean; label?: string }> {
  let label: string | undefined;
  try {
    const target = await getWriteTarget(access.db, w.connection_id);
    if (!target) return { ok: true }; // the connection was removed meanwhile: its rows went with it
    label = target.label;
    const uid = w.uid ?? appointmentUid(w.appointment_id, access.uidDomain);
    const [appointment] = await listCalendarAppointments(access.db, access.timeZone, w.appointment_id);
    const calendar =
      !w.removed && appointment?.status === 'scheduled' && appointment.host_id === target.user_id && target.kind === 'caldav'
        ? target.write_calendar
        : null;
    let eventUrl = w.event_url;
    if (eventUrl === null && calendar === null) {
      await finishWrite(access.db, w, uid, null);
      return { ok: true, label };
    }
    const account = openAccount(access, target.secret, target.id);
    const options = davOptions(access);
    if (eventUrl !== null && (calendar === null || !eventUrl.startsWith(withSlash(calendar)))) {
      await deleteEvent(eventUrl, account, options);
      eventUrl = null;
    }
    if (calendar !== null && appointment) {
      // The uid is kept before the first write: a busy read running meanwhile already skips the copy.
      if (w.uid === null) await keepUid(access.db, w, uid);
      const ics = toICalendar([appointment], { siteName: await access.siteName(), timeZone: access.timeZone, uidDomain: access.uidDomain });
      eventUrl = (await putEvent(calendar, account, { uid, ics }, options)).url;
    }
    await finishWrite(access.db, w, uid, eventUrl);
    return { ok: true, label };
  } catch (error) {
    const known = asReadError(error);
    const message = known instanceof CalendarReadError ? known.message : 'Something went wrong writing it. It will be tried again.';
    if (!(known instanceof CalendarReadError))
      access.logger?.error({ err: error, event: 'calendar_write_failed', connection: w.connection_id }, 'writing a booked call failed');
    await failWrite(access.db, w, message);
    return { ok: false, ...(label && { label }) };
  }
}
