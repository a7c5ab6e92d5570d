import type { CalendarChoice } from '#shared/schemas/calendars';
import { zonedParts } from '#shared/zoned-time';
import { claimConnection, getCalendarChoice, saveCalendarChoice } from '../db/queries/calendar-connections-queries.ts';
import { requeueConnection } from '../db/queries/calendar-writes-queries.ts';
import { AppError } from '../lib/app-error.ts';
import type { CalendarAccess } from './calendar-access.ts';
import { syncClaimed } from './sync.ts';

/**
 * A person chooses, of a CalDAV account's calendars, which count as busy and which one receives
 * booked calls (PATCH /api/account/calendars/{id}), in two steps around its audit entry: the
 * choice is saved (saveChoice), then the busy times of a new choice are read (readNewChoice).
 */

const NOT_FOUND = 'CalDAV account not found.';

export type SavedChoice = { id: string; userId: string; busy: number; writes: boolean; busyChanged: boolean };

/**
 * Saves the choice: busy calendars from the account's own list (400 otherwise), a write
 * calendar only one the account may write to (400), 404 for anything but the person's CalDAV
 * account. A new write calendar has every booked call to come copied again (the queue).
 */
export async function saveChoice(access: CalendarAccess, userId: string, id: string, choice: CalendarChoice): Promise<SavedChoice> {
  const { db } = access;
  const before = await getCalendarChoice(db, userId, id);
  if (!before) throw new AppError('not_found', NOT_FOUND);
  const known = new Map(before.calendars.map((cal) => [cal.url, cal]));
  const busy = [...new Set(choice.busy_calendars)];
  if (busy.some((url) => !known.has(url))) throw new AppError('validation_failed', 'Choose busy calendars from this account’s list.');
  if (choice.write_calendar !== null && !known.get(choice.write_calendar)?.can_write)
    throw new AppError('validation_failed', 'Booked calls can go only to one of this account’s calendars that you can write to.');
  if (!(await saveCalendarChoice(db, userId, id, { busy_calendars: busy, write_calendar: choice.write_calendar })))
    throw new AppError('not_found', NOT_FOUND);
  if (choice.write_calendar !== before.write_calendar) await requeueConnection(db, id, zonedParts(Date.now(), access.timeZone).date);
  const busyChanged = busy.length !== before.busy_calendars.length || !busy.every((url) => before.busy_calendars.includes(url));
  return { id, userId, busy: busy.length, writes: choice.write_calendar !== null, busyChanged };
}

/** Another choice of busy calendars is read now (unless a sync holds the account: then at the next). */
export async function readNewChoice(access: CalendarAccess, saved: SavedChoice): Promise<void> {
  if (!saved.busyChanged) return;
  const claimed = await claimConnection(access.db, saved.userId, saved.id);
  if (claimed && claimed !== 'busy') await syncClaimed(access, claimed);
}
