import { z } from '@hono/zod-openapi';
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
  getAppointment,
  listAppointments,
  listCalendarAppointments,
  updateAppointment,
  type AppointmentMail,
} from '../db/queries/appointments.ts';
import { queueMailOf } from '../db/queries/emails.ts';
import type { AppEnv } from '../http/context.ts';
import { AppError } from '../http/errors.ts';
import { errorResponses, jsonContent, mediaContent } from '../http/openapi.ts';
import { createRouter } from '../http/router.ts';
import { icalendarResponse } from './icalendar-response.ts';

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
    ...errorResponses({ 400: 'Invalid input', 422: 'The lead does not exist' }),
  },
});

const getRoute = createAdminRoute({
  method: 'get',
  path: '/api/appointments/{id}',
  tags: ['appointments'],
  summary: 'One appointment with its lead',
  request: { params: appointmentIdParamSchema },
  responses: { 200: jsonContent(appointmentSchema, 'The appointment'), ...errorResponses({ 400: 'Invalid input', 404: 'No such appointment' }) },
});

const icsRoute = createAdminRoute({
  method: 'get',
  path: '/api/appointments/{id}/ics',
  tags: ['appointments'],
  summary: 'One appointment as an iCalendar (.ics) file',
  request: { params: appointmentIdParamSchema },
  responses: { 200: mediaContent('text/calendar', 'iCalendar', z.string()), ...errorResponses({ 400: 'Invalid input', 404: 'No such appointment' }) },
});

const updateRoute = createAdminRoute({
  method: 'patch',
  path: '/api/appointments/{id}',
  tags: ['appointments'],
  summary: 'Change the date, time, type or notes (only the fields sent)',
  request: { params: appointmentIdParamSchema, body: { required: true, ...jsonContent(updateAppointmentRequestSchema, 'The fields to change') } },
  responses: { 200: jsonContent(appointmentSchema, 'The appointment'), ...errorResponses({ 400: 'Invalid input', 404: 'No such appointment' }) },
});

const deleteRoute = createAdminRoute({
  method: 'delete',
  path: '/api/appointments/{id}',
  tags: ['appointments'],
  summary: 'Delete an appointment',
  request: { params: appointmentIdParamSchema },
  responses: { 200: jsonContent(z.object({ id: z.uuid() }), 'Deleted'), ...errorResponses({ 400: 'Invalid input', 404: 'No such appointment' }) },
});

/** What the emails of an appointment change need from the configuration. */
const mailOf = (c: Context<AppEnv>): AppointmentMail => {
  const { config } = c.var.deps;
  return { ...queueMailOf(config.mail), timeZone: config.businessTimeZone, leadReminderHours: config.mail.leadReminderHours };
};

export const appointmentRoutes = createRouter()
  .openapi(listRoute, async (c) => {
    const result = await listAppointments(c.var.db, c.req.valid('query'));
    return c.json({ ...result, time_zone: c.var.deps.config.businessTimeZone }, 200);
  })
  .openapi(createRoute, async (c) => {
    const appointment = await createAppointment(c.var.db, c.req.valid('json'), mailOf(c));
    if (!appointment) throw new AppError('unprocessable', 'That lead does not exist (it may have been deleted).', { lead_id: 'Please select a lead' });
    c.var.deps.outbox.nudge();
    return c.json(appointment, 201);
  })
  .openapi(icsRoute, async (c) => {
    const [appointment] = await listCalendarAppointments(c.var.db, c.var.deps.config.businessTimeZone, c.req.valid('param').id);
    if (!appointment) throw appointmentNotFound();
    return icalendarResponse(c, [appointment], { 'Content-Disposition': `attachment; filename="appointment-${appointment.date}.ics"` });
  })
  .openapi(getRoute, async (c) => {
    const appointment = await getAppointment(c.var.db, c.req.valid('param').id);
    if (!appointment) throw appointmentNotFound();
    return c.json(appointment, 200);
  })
  .openapi(updateRoute, async (c) => {
    const appointment = await updateAppointment(c.var.db, c.req.valid('param').id, c.req.valid('json'), mailOf(c));
    if (!appointment) throw appointmentNotFound();
    c.var.deps.outbox.nudge();
    return c.json(appointment, 200);
  })
  .openapi(deleteRoute, async (c) => {
    const { id } = c.req.valid('param');
    if (!(await deleteAppointment(c.var.db, id, mailOf(c)))) throw appointmentNotFound();
    c.var.deps.outbox.nudge();
    return c.json({ id }, 200);
  });
