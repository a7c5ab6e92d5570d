import type { Appointment, CreateAppointmentRequest } from '#shared/schemas/appointment';
import type { Db } from '../db/client.ts';
import { createAppointment, type AppointmentMail } from '../db/queries/appointments-queries.ts';
import { getBookingSettings } from '../db/queries/bookings-queries.ts';
import { AppError } from '../lib/app-error.ts';
import { requireActiveHost } from './active-host.ts';
import { requireFuture } from './future-time.ts';
import { overlapRace, requireNoOverlap } from './overlap.ts';

/** Who schedules or changes an appointment: the admin (its host unless they name another), the business clock, the mail settings. */
export type Staff = { userId: string; timeZone: string; mail: AppointmentMail | undefined };

/**
 * Staff schedule an appointment with a lead (POST /api/appointments): in the future, with an
 * active team member (the admin themselves unless they name another), 30 minutes unless said,
 * with the firm's buffer, overlapping nothing of its host's unless they choose to (overlap.ts).
 * 422 when the lead is gone (deleted meanwhile). The caller nudges the outbox.
 */
export async function scheduleAppointment(db: Db, staff: Staff, input: CreateAppointmentRequest): Promise<Appointment> {
  requireFuture(staff.timeZone, input.date, input.time);
  const host_id = input.host_id ?? staff.userId;
  if (input.host_id) await requireActiveHost(db, input.host_id);
  const { buffer_minutes } = await getBookingSettings(db);
  const at = { date: input.date, time: input.time, duration_minutes: input.duration_minutes ?? 30, buffer_minutes, host_id };
  if (!input.allow_overlap) await requireNoOverlap(db, staff.timeZone, at);
  const appointment = await overlapRace(db, staff.timeZone, at, undefined, () =>
    createAppointment(db, { ...input, host_id }, { changedBy: staff.userId, mail: staff.mail, bufferMinutes: buffer_minutes }),
  );
  if (!appointment)
    throw new AppError('unprocessable', 'That lead does not exist (it may have been deleted).', { lead_id: 'Please select a lead' });
  return appointment;
}
