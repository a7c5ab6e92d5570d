import { z } from '@hono/zod-openapi';
import {
  appointmentIdParamSchema,
  appointmentListQuerySchema,
  appointmentListResponseSchema,
  appointmentSchema,
  createAppointmentRequestSchema,
  updateAppointmentRequestSchema,
} from '#shared/schemas/appointment';
import { errorResponseSchema } from '#shared/schemas/error';
import { createAdminRoute } from '../auth/admin-route.ts';
import {
  createAppointment,
  deleteAppointment,
  getAppointment,
  listAppointments,
  listCalendarAppointments,
  updateAppointment,
} from '../db/queries/appointments.ts';
import { AppError } from '../http/errors.ts';
import { toICalendar } from '../lib/icalendar.ts';
import { createRouter, requireDb } from '../http/router.ts';

const json = <T extends z.ZodType>(schema: T) => ({ 'application/json': { schema } });
const invalid = { 400: { description: 'Invalid input', content: json(errorResponseSchema) } };
const notFound = { 404: { description: 'No such appointment', content: json(errorResponseSchema) } };
const appointmentNotFound = () => new AppError('not_found', 'Appointment not found.');

const listRoute = createAdminRoute({
  method: 'get',
  path: '/api/appointments',
  tags: ['appointments'],
  summary: 'Appointments in a date range (both ends included), by date then time',
  request: { query: appointmentListQuerySchema },
  responses: { 200: { description: 'Appointments', content: json(appointmentListResponseSchema) }, ...invalid },
});

const createRoute = createAdminRoute({
  method: 'post',
  path: '/api/appointments',
  tags: ['appointments'],
  summary: 'Schedule an appointment with a lead',
  request: { body: { required: true, content: json(createAppointmentRequestSchema) } },
  responses: {
    201: { description: 'The appointment', content: json(appointmentSchema) },
    ...invalid,
    422: { description: 'The lead does not exist', content: json(errorResponseSchema) },
  },
});

const getRoute = createAdminRoute({
  method: 'get',
  path: '/api/appointments/{id}',
  tags: ['appointments'],
  summary: 'One appointment with its lead',
  request: { params: appointmentIdParamSchema },
  responses: { 200: { description: 'The appointment', content: json(appointmentSchema) }, ...invalid, ...notFound },
});

const icsRoute = createAdminRoute({
  method: 'get',
  path: '/api/appointments/{id}/ics',
  tags: ['appointments'],
  summary: 'One appointment as an iCalendar (.ics) file',
  request: { params: appointmentIdParamSchema },
  responses: { 200: { description: 'iCalendar', content: { 'text/calendar': { schema: z.string() } } }, ...invalid, ...notFound },
});

const updateRoute = createAdminRoute({
  method: 'patch',
  path: '/api/appointments/{id}',
  tags: ['appointments'],
  summary: 'Change the date, time, type or notes (only the fields sent)',
  request: { params: appointmentIdParamSchema, body: { required: true, content: json(updateAppointmentRequestSchema) } },
  responses: { 200: { description: 'The appointment', content: json(appointmentSchema) }, ...invalid, ...notFound },
});

const deleteRoute = createAdminRoute({
  method: 'delete',
  path: '/api/appointments/{id}',
  tags: ['appointments'],
  summary: 'Delete an appointment',
  request: { params: appointmentIdParamSchema },
  responses: { 200: { description: 'Deleted', content: json(z.object({ id: z.uuid() })) }, ...invalid, ...notFound },
});

export const appointmentRoutes = createRouter()
  .openapi(listRoute, async (c) => {
    const result = await listAppointments(requireDb(c), c.req.valid('query'));
    return c.json({ ...result, time_zone: c.get('deps').config.businessTimeZone }, 200);
  })
  .openapi(createRoute, async (c) => {
    const appointment = await createAppointment(requireDb(c), c.req.valid('json'));
    if (!appointment) throw new AppError('unprocessable', 'That lead does not exist (it may have been deleted).', { lead_id: 'Please select a lead' });
    return c.json(appointment, 201);
  })
  .openapi(icsRoute, async (c) => {
    const { config } = c.get('deps');
    const [appointment] = await listCalendarAppointments(requireDb(c), config.businessTimeZone, c.req.valid('param').id);
    if (!appointment) throw appointmentNotFound();
    const body = toICalendar([appointment], { siteName: config.site.name, timeZone: config.businessTimeZone, host: new URL(c.req.url).hostname });
    c.header('Content-Type', 'text/calendar; charset=utf-8');
    c.header('Content-Disposition', `attachment; filename="appointment-${appointment.date}.ics"`);
    return c.body(body, 200);
  })
  .openapi(getRoute, async (c) => {
    const appointment = await getAppointment(requireDb(c), c.req.valid('param').id);
    if (!appointment) throw appointmentNotFound();
    return c.json(appointment, 200);
  })
  .openapi(updateRoute, async (c) => {
    const appointment = await updateAppointment(requireDb(c), c.req.valid('param').id, c.req.valid('json'));
    if (!appointment) throw appointmentNotFound();
    return c.json(appointment, 200);
  })
  .openapi(deleteRoute, async (c) => {
    const { id } = c.req.valid('param');
    if (!(await deleteAppointment(requireDb(c), id))) throw appointmentNotFound();
    return c.json({ id }, 200);
  });
