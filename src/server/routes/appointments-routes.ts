import { actorOf, recordAudit } from '../audit/audit-log.ts';
import { appointmentChanges } from '../audit/lead-audit.ts';
import * as z from 'zod';
import {
  appointmentIdParamSchema,
  appointmentListQuerySchema,
  appointmentListResponseSchema,
  appointmentDeletedSchema,
  appointmentSchema,
  appointmentWrittenSchema,
  createAppointmentRequestSchema,
  updateAppointmentRequestSchema,
} from '#shared/schemas/appointment';
import { createAdminRoute } from '../auth/admin-route.ts';
import { keyedMail, type KeyedMail } from '../auth/api-key-mail.ts';
import type { Context } from 'hono';
import {
  deleteAppointment,
  getAppointment,
  listAppointments,
  listCalendarAppointments,
  appointmentMailOf,
} from '../db/queries/appointments-queries.ts';
import { appointmentNotFound, editAppointment } from '../appointments/edit-appointment.ts';
import { scheduleAppointment, type Staff } from '../appointments/schedule-appointment.ts';
import type { AppEnv } from '../http/context.ts';
import { icalendarResponse } from '../http/icalendar-response.ts';
import { errorResponses, jsonContent, mediaContent } from '../http/openapi.ts';
import { createRouter } from '../http/router.ts';

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
    201: jsonContent(appointmentWrittenSchema, 'The appointment'),
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
    200: jsonContent(appointmentWrittenSchema, 'The appointment'),
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
    200: jsonContent(appointmentDeletedSchema, 'Deleted'),
    ...errorResponses({ 400: 'Invalid input', 404: 'No such appointment' }),
  },
});

/** Who acts, as appointments/ takes it: with no mail when an API key may not send it (auth/api-key-mail.ts). */
const staffOf = (c: Context<AppEnv>, keyed: KeyedMail): Staff => {
  const { config } = c.get('deps');
  return { userId: c.get('user').id, timeZone: config.businessTimeZone, mail: keyed.send ? appointmentMailOf(config) : undefined };
};

export const appointmentRoutes = createRouter()
  .openapi(listRoute, async (c) => {
    const result = await listAppointments(c.get('db'), c.req.valid('query'));
    return c.json({ ...result, time_zone: c.get('deps').config.businessTimeZone }, 200);
  })
  .openapi(createRoute, async (c) => {
    const keyed = await keyedMail(c);
    const appointment = await scheduleAppointment(c.get('db'), staffOf(c, keyed), c.req.valid('json'));
    await recordAudit(c.get('db'), actorOf(c), {
      action: 'appointment_created',
      targetType: 'appointment',
      targetId: appointment.id,
      details: { lead_id: appointment.lead_id, date: appointment.date, time: appointment.time, type: appointment.type },
    });
    c.get('deps').outbox.nudge();
    return c.json({ ...appointment, ...keyed.answer }, 201);
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
    const keyed = await keyedMail(c);
    const { current, appointment } = await editAppointment(c.get('db'), staffOf(c, keyed), id, c.req.valid('json'));
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
    return c.json({ ...appointment, ...keyed.answer }, 200);
  })
  .openapi(deleteRoute, async (c) => {
    const { id } = c.req.valid('param');
    const current = await getAppointment(c.get('db'), id);
    const keyed = await keyedMail(c);
    const mail = keyed.send ? appointmentMailOf(c.get('deps').config) : undefined;
    if (!(await deleteAppointment(c.get('db'), id, mail))) throw appointmentNotFound();
    await recordAudit(c.get('db'), actorOf(c), {
      action: 'appointment_deleted',
      targetType: 'appointment',
      targetId: id,
      details: current ? { lead_id: current.lead_id, date: current.date, time: current.time, type: current.type } : {},
    });
    c.get('deps').outbox.nudge();
    return c.json({ id, ...keyed.answer }, 200);
  });
