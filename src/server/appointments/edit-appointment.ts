import type { Appointment, UpdateAppointmentRequest } from '#shared/schemas/appointment';
import type { Db } from '../db/client.ts';
import { getAppointment, updateAppointment } from '../db/queries/appointments-queries.ts';
import { getBookingSettings } from '../db/queries/bookings-queries.ts';
import { AppError } from '../lib/app-error.ts';
import { requireActiveHost } from './active-host.ts';
import { requireFuture } from './future-time.ts';
import { overlapRace, requireNoOverlap } from './overlap.ts';
import type { Staff } from './schedule-appointment.ts';

export const appointmentNotFound = () => new AppError('not_found', 'Appointment not found.');

/**
 * Whether a change makes an appointment take up time it did not (so it must be checked for
 * overlaps): moved, given to another host, made longer, or scheduled again.
 */
export function blocksMore(
  current: Pick<Appointment, 'date' | 'time' | 'duration_minutes' | 'status' | 'host_id'>,
  next: { date: string; time: string; duration_minutes: number; host_id: string | null },
  status: UpdateAppointmentRequest['status'],
): boolean {
  return (
    next.date !== current.date ||
    next.time !== current.time ||
    next.host_id !== current.host_id ||
    next.duration_minutes > current.duration_minutes ||
    (status === 'scheduled' && current.status !== 'scheduled')
  );
}

/**
 * Staff change an appointment (PATCH /api/appointments/{id}): only the fields sent. A move, or
 * scheduling it again, must be to the future; a new host must be an active member; a change that
 * takes up more time must overlap nothing of its host's unless they choose to (overlap.ts).
 * 404 for no such appointment. Answers it before and after. The caller nudges the outbox.
 */
export async function editAppointment(
  db: Db,
  staff: Staff,
  id: string,
  patch: UpdateAppointmentRequest,
): Promise<{ current: Appointment; appointment: Appointment }> {
  const current = await getAppointment(db, id);
  if (!current) throw appointmentNotFound();
  const next = {
    date: patch.date ?? current.date,
    time: patch.time ?? current.time,
    duration_minutes: patch.duration_minutes ?? current.duration_minutes,
  };
  const moved = next.date !== current.date || next.time !== current.time;
  if (moved || (patch.status === 'scheduled' && current.status !== 'scheduled')) requireFuture(staff.timeZone, next.date, next.time);
  const status = patch.status ?? current.status;
  const host_id = patch.host_id ?? current.host_id;
  if (patch.host_id && host_id !== current.host_id) await requireActiveHost(db, patch.host_id);
  const { buffer_minutes } = await getBookingSettings(db);
  const at = { ...next, buffer_minutes, host_id };
  if (status === 'scheduled' && blocksMore(current, { ...next, host_id }, patch.status) && !patch.allow_overlap)
    await requireNoOverlap(db, staff.timeZone, at, id);
  const appointment = await overlapRace(db, staff.timeZone, at, id, () =>
    updateAppointment(db, id, patch, { changedBy: staff.userId, mail: staff.mail }),
  );
  if (!appointment) throw appointmentNotFound();
  return { current, appointment };
}
