import { clockMinutes, zonedInstant } from '#shared/zoned-time';
import type { Db } from '../db/client.ts';
import { isOverlapViolation } from '../db/database-faults.ts';
import { findOverlaps } from '../db/queries/appointments-queries.ts';
import { readOutsideBusy } from '../db/queries/calendar-connections-queries.ts';
import { AppError } from '../lib/app-error.ts';

/**
 * Unless staff choose to (allow_overlap), a scheduled appointment may not overlap another of its
 * host's, nor a busy time in the host's outside calendars, buffers included either way
 * (docs/product-rules.md). Checked first in Node, to answer which appointments are in the way;
 * the rule itself stays in SQL, where a race is settled: the appointments' no-overlap
 * constraint refuses an overlap another request made at the same moment, which overlapRace
 * answers with the same 409.
 */

export const OVERLAP = 'This time overlaps another appointment.';
export const BUSY_OUTSIDE = 'Busy in their calendar.';

/** An appointment's time as the overlap checks read it: its business date and clock time, length, buffer and host. */
export type AppointmentTime = Parameters<typeof findOverlaps>[1];

/** Whether the host's outside calendars are busy during the appointment at `at` (its buffer either side). */
export async function outsideBusyAt(db: Db, timeZone: string, at: AppointmentTime): Promise<boolean> {
  if (!at.host_id) return false;
  const startsAt = zonedInstant(at.date, clockMinutes(at.time), timeZone);
  if (startsAt === undefined) return false;
  const start = startsAt - at.buffer_minutes * 60_000;
  const end = start + (at.duration_minutes + 2 * at.buffer_minutes) * 60_000;
  return (await readOutsideBusy(db, at.host_id, start, end)).length > 0;
}

/**
 * 409 listing the appointments in the way (but `exceptId`, the one being changed), and saying
 * whether the host's calendar is busy then; or 409 for a busy time in their calendar alone.
 */
export async function requireNoOverlap(db: Db, timeZone: string, at: AppointmentTime, exceptId?: string): Promise<void> {
  const [conflicts, busyOutside] = await Promise.all([findOverlaps(db, at, exceptId), outsideBusyAt(db, timeZone, at)]);
  if (conflicts.length > 0) throw new AppError('conflict', OVERLAP, undefined, undefined, { conflicts, busy_outside: busyOutside });
  if (busyOutside) throw new AppError('conflict', BUSY_OUTSIDE, undefined, undefined, { conflicts: [], busy_outside: true });
}

/** `work` (the write), with the database's refusal of an overlap made meanwhile answered as requireNoOverlap would. */
export async function overlapRace<T>(
  db: Db,
  timeZone: string,
  at: AppointmentTime,
  exceptId: string | undefined,
  work: () => Promise<T>,
): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (!isOverlapViolation(error)) throw error;
    await requireNoOverlap(db, timeZone, at, exceptId);
    throw new AppError('conflict', OVERLAP, undefined, undefined, { conflicts: [] });
  }
}
