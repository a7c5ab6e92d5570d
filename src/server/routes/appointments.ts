import { actorOf, recordAudit } from '../audit/audit-log.ts';
import { appointmentChanges } from '../audit/lead-audit.ts';
import * as z from 'zod';
import {
  appointmentIdParamSchema,
  appointmentListQuerySchema,
  appointmentListResponseSchema,
  appointmentSchema,
  createAppointmentRequestSchema,
  updateAppointmentRequestSchema,
} from '#shared/schemas/appointment';
import { createAdminRoute } from '../auth/admin-route.ts';
import type { Context } from 'hono';
import {
  createAppointment,
  deleteAppointment,
  findOverlaps,
  getAppointment,
  listAppointments,
  listCalendarAppointments,
  updateAppointment,
  appointmentMailOf,
  type AppointmentMail,
} from '../db/queries/appointments.ts';
import { getBookingSettings } from '../db/queries/bookings.ts';
import { isActiveMember } from '../db/queries/availability.ts';
import { readOutsideBusy } from '../db/queries/calendar-connections.ts';
import type { Db } from '../db/client.ts';
import { clockMinutes, zonedInstant } from '#shared/zoned-time';
import type { AppEnv } from '../http/context.ts';
import { AppError } from '../http/errors.ts';
import { errorResponses, jsonContent, mediaContent } from '../http/openapi.ts';
import { createRouter } from '../http/router.ts';
import { icalendarResponse } from './icalendar-response.ts';
import { isOverlapViolation } from '../db/database-faults.ts';

const appointmentNotFound = () => new AppError('not_found', 'Appointment not found.');

const listRoute = createAdminRoute({
  method: 'get',
  path: '/api/appointments',
  tags: ['appointments'],
  summary: 'Appointments in a date range (both ends included), by date then time',
  request: { query: appointmentListQuerySchema },
  responses: { 200: jsonContent(appointmentListResponseSchema, 'Appointments'), ...errorResponses({ 400: 'Invalid input' }) },
});

const createRoute = createAdminRoute({
  method: 'post',
  path: '/api/appointments',
  tags: ['appointments'],
  summary: 'Schedule an appointment with a lead',
  request: { body: { required: true, ...jsonContent(createAppointmentRequestSchema, 'The appointment') } },
  responses: {
    201: jsonContent(appointmentSchema, 'The appointment'),
    ...errorResponses({
      400: 'Invalid input',
      409: 'It overlaps other appointments (listed) or a busy time in the host’s calendar (busy_outside); send allow_overlap to schedule anyway',
      422: 'The lead does not exist',
    }),
  },
});

const getRoute = createAdminRoute({
  method: 'get',
  path: '/api/appointments/{id}',
  tags: ['appointments'],
  summary: 'One appointment with its lead',
  request: { params: appointmentIdParamSchema },
  responses: {
    200: jsonContent(appointmentSchema, 'The appointment'),
    ...errorResponses({ 400: 'Invalid input', 404: 'No such appointment' }),
  },
});

const icsRoute = createAdminRoute({
  method: 'get',
  path: '/api/appointments/{id}/ics',
  tags: ['appointments'],
  summary: 'One appointment as an iCalendar (.ics) file',
  request: { params: appointmentIdParamSchema },
  responses: {
    200: mediaContent('text/calendar', 'iCalendar', z.string()),
    ...errorResponses({ 400: 'Invalid input', 404: 'No such appointment' }),
  },
});

const updateRoute = createAdminRoute({
  method: 'patch',
  path: '/api/appointments/{id}',
  tags: ['appointments'],
  summary: 'Change the date, time, type, length, place, notes, host or status (only the fields sent)',
  request: {
    params: appointmentIdParamSchema,
    body: { required: true, ...jsonContent(updateAppointmentRequestSchema, 'The fields to change') },
  },
  responses: {
    200: jsonContent(appointmentSchema, 'The appointment'),
    ...errorResponses({
      400: 'Invalid input',
      404: 'No such appointment',
      409: 'It overlaps other appointments (listed) or a busy time in the host’s calendar (busy_outside); send allow_overlap to move it anyway',
    }),
  },
});

const deleteRoute = createAdminRoute({
  method: 'delete',
  path: '/api/appointments/{id}',
  tags: ['appointments'],
  summary: 'Delete an appointment',
  request: { params: appointmentIdParamSchema },
  responses: {
    200: jsonContent(z.object({ id: z.uuid() }), 'Deleted'),
    ...errorResponses({ 400: 'Invalid input', 404: 'No such appointment' }),
  },
});

const mailOf = (c: Context<AppEnv>): AppointmentMail => appointmentMailOf(c.get('deps').config);

const IN_THE_PAST = 'Appointment must be in the future';
const OVERLAP = 'This time overlaps another appointment.';
const BUSY_OUTSIDE = 'Busy in their calendar.';

/** A new or moved appointment starts after now, on the business clock. */
function requireFuture(c: Context<AppEnv>, date: string, time: string) {
  const at = zonedInstant(date, clockMinutes(time), c.get('deps').config.businessTimeZone);
  if (at === undefined)
    throw new AppError('validation_failed', 'That time does not exist on that day (the clocks change).', { time: 'Invalid time' });
  if (at <= Date.now()) throw new AppError('validation_failed', IN_THE_PAST, { time: IN_THE_PAST });
}

const NO_SUCH_HOST = 'Choose who takes the call';

/** The host chosen is a team member who can sign in (400 otherwise). */
async function requireActiveHost(db: Db, hostId: string) {
  if (!(await isActiveMember(db, hostId)))
    throw new AppError('validation_failed', 'That person is not an active team member.', { host_id: NO_SUCH_HOST });
}

/**
 * Unless staff chose to, a scheduled appointment may not overlap another of its host's, nor a
 * busy time in the host's outside calendars (buffers included either way): 409 listing the
 * appointments in the way, and saying whether their calendar is busy then.
 */
async function requireNoOverlap(db: Db, timeZone: string, at: Parameters<typeof findOverlaps>[1], exceptId?: string) {
  const [conflicts, busyOutside] = await Promise.all([findOverlaps(db, at, exceptId), outsideBusyAt(db, timeZone, at)]);
  if (conflicts.length > 0) throw new AppError('conflict', OVERLAP, undefined, undefined, { conflicts, busy_outside: busyOutside });
  if (busyOutside) throw new AppError('conflict', BUSY_OUTSIDE, undefined, undefined, { conflicts: [], busy_outside: true });
}

/** Whether the host's outside calendars are busy during the appointment at `at` (its buffer either side). */
async function outsideBusyAt(db: Db, timeZone: string, at: Parameters<typeof findOverlaps>[1]): Promise<boolean> {
  if (!at.host_id) return false;
  const startsAt = zonedInstant(at.date, clockMinutes(at.time), timeZone);
  if (startsAt === undefined) return false;
  const start = startsAt - at.buffer_minutes * 60_000;
  const end = start + (at.duration_minutes + 2 * at.buffer_minutes) * 60_000;
  return (await readOutsideBusy(db, at.host_id, start, end)).length > 0;
}

/** The database refused an overlap another request made at the same moment: the same 409. */
async function overlapRace<T>(
  db: Db,
  timeZone: string,
  at: Parameters<typeof findOverlaps>[1],
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

export const appointmentRoutes = createRouter()
  .openapi(listRoute, async (c) => {
    const result = await listAppointments(c.get('db'), c.req.valid('query'));
    return c.json({ ...result, time_zone: c.get('deps').config.businessTimeZone }, 200);
  })
  .openapi(createRoute, async (c) => {
    const input = c.req.valid('json');
    requireFuture(c, input.date, input.time);
    const host_id = input.host_id ?? c.get('user').id;
    if (input.host_id) await requireActiveHost(c.get('db'), input.host_id);
    const { buffer_minutes } = await getBookingSettings(c.get('db'));
    const at = { date: input.date, time: input.time, duration_minutes: input.duration_minutes ?? 30, buffer_minutes, host_id };
    if (!input.allow_overlap) await requireNoOverlap(c.get('db'), c.get('deps').config.businessTimeZone, at);
    const appointment = await overlapRace(c.get('db'), c.get('deps').config.businessTimeZone, at, undefined, () =>
      createAppointment(
        c.get('db'),
        { ...input, host_id },
        { changedBy: c.get('user').id, mail: mailOf(c), bufferMinutes: buffer_minutes },
      ),
    );
    if (!appointment)
      throw new AppError('unprocessable', 'That lead does not exist (it may have been deleted).', { lead_id: 'Please select a lead' });
    await recordAudit(c.get('db'), actorOf(c), {
      action: 'appointment_created',
      targetType: 'appointment',
      targetId: appointment.id,
      details: { lead_id: appointment.lead_id, date: appointment.date, time: appointment.time, type: appointment.type },
    });
    c.get('deps').outbox.nudge();
    return c.json(appointment, 201);
  })
  .openapi(icsRoute, async (c) => {
    const [appointment] = await listCalendarAppointments(c.get('db'), c.get('deps').config.businessTimeZone, c.req.valid('param').id);
    if (!appointment) throw appointmentNotFound();
    return icalendarResponse(c, [appointment], { 'Content-Disposition': `attachment; filename="appointment-${appointment.date}.ics"` });
  })
  .openapi(getRoute, async (c) => {
    const appointment = await getAppointment(c.get('db'), c.req.valid('param').id);
    if (!appointment) throw appointmentNotFound();
    return c.json(appointment, 200);
  })
  .openapi(updateRoute, async (c) => {
    const { id } = c.req.valid('param');
    const patch = c.req.valid('json');
    const current = await getAppointment(c.get('db'), id);
    if (!current) throw appointmentNotFound();
    const next = {
      date: patch.date ?? current.date,
      time: patch.time ?? current.time,
      duration_minutes: patch.duration_minutes ?? current.duration_minutes,
    };
    const moved = next.date !== current.date || next.time !== current.time;
    if (moved || (patch.status === 'scheduled' && current.status !== 'scheduled')) requireFuture(c, next.date, next.time);
    const status = patch.status ?? current.status;
    const host_id = patch.host_id ?? current.host_id;
    const newHost = host_id !== current.host_id;
    if (patch.host_id && newHost) await requireActiveHost(c.get('db'), patch.host_id);
    const { buffer_minutes } = await getBookingSettings(c.get('db'));
    const at = { ...next, buffer_minutes, host_id };
    const blocksMore =
      moved ||
      newHost ||
      next.duration_minutes > current.duration_minutes ||
      (patch.status === 'scheduled' && current.status !== 'scheduled');
    if (status === 'scheduled' && blocksMore && !patch.allow_overlap)
      await requireNoOverlap(c.get('db'), c.get('deps').config.businessTimeZone, at, id);
    const appointment = await overlapRace(c.get('db'), c.get('deps').config.businessTimeZone, at, id, () =>
      updateAppointment(c.get('db'), id, patch, { changedBy: c.get('user').id, mail: mailOf(c) }),
    );
    if (!appointment) throw appointmentNotFound();
    const changes = appointmentChanges(current, appointment);
    if (Object.keys(changes).length > 0) {
      await recordAudit(c.get('db'), actorOf(c), {
        action: 'appointment_updated',
        targetType: 'appointment',
        targetId: id,
        details: { lead_id: appointment.lead_id, changes },
      });
    }
    c.get('deps').outbox.nudge();
    return c.json(appointment, 200);
  })
  .openapi(deleteRoute, async (c) => {
    const { id } = c.req.valid('param');
    const current = await getAppointment(c.get('db'), id);
    if (!(await deleteAppointment(c.get('db'), id, mailOf(c)))) throw appointmentNotFound();
    await recordAudit(c.get('db'), actorOf(c), {
      action: 'appointment_deleted',
      targetType: 'appointment',
      targetId: id,
      details: current ? { lead_id: current.lead_id, date: current.date, time: current.time, type: current.type } : {},
    });
    c.get('deps').outbox.nudge();
    return c.json({ id }, 200);
  });
