import * as z from 'zod';
import { APPOINTMENT_STATUSES, APPOINTMENT_TYPES, BOOKING_LIMITS, LIMITS } from '../constants.ts';
import { isCalendarDate, isClockTime } from '../rules/calendar.ts';
import { storableText } from './text.ts';

export const appointmentTypeSchema = z.enum(APPOINTMENT_TYPES, { error: 'Appointment type is required' });

export { isCalendarDate, isClockTime };

export const dateSchema = storableText({ error: 'Date is required' })
  .trim()
  .min(1, { message: 'Date is required', abort: true })
  .refine(isCalendarDate, 'Invalid date');

export const timeSchema = storableText({ error: 'Time is required' })
  .trim()
  .min(1, { message: 'Time is required', abort: true })
  .refine(isClockTime, 'Invalid time');

const notesSchema = storableText()
  .trim()
  .max(LIMITS.message, `Notes must be at most ${LIMITS.message} characters`)
  .optional()
  .nullable();

/** How long it lasts: the end is after the start. */
export const durationSchema = z
  .number({ error: 'Duration is required' })
  .int('Duration must be a whole number of minutes')
  .min(BOOKING_LIMITS.duration.min, `Duration must be at least ${BOOKING_LIMITS.duration.min} minutes`)
  .max(BOOKING_LIMITS.duration.max, `Duration must be at most ${BOOKING_LIMITS.duration.max} minutes`);

const locationSchema = storableText()
  .trim()
  .max(BOOKING_LIMITS.location, `Location must be at most ${BOOKING_LIMITS.location} characters`)
  .optional()
  .nullable();

export const appointmentStatusSchema = z.enum(APPOINTMENT_STATUSES, { error: 'Invalid status' });

/** The Schedule Appointment form and request; its messages are in docs/product-rules.md, "Validation". */
export const createAppointmentRequestSchema = z.object({
  lead_id: storableText({ error: 'Please select a lead' }).min(1, { message: 'Please select a lead', abort: true }).pipe(z.uuid('Please select a lead')),
  date: dateSchema,
  time: timeSchema,
  type: appointmentTypeSchema,
  notes: notesSchema,
  duration_minutes: durationSchema.optional(),
  location: locationSchema,
  /** Schedule it even over other appointments (after the warning listed them). */
  allow_overlap: z.boolean().optional(),
});
export type CreateAppointmentRequest = z.infer<typeof createAppointmentRequestSchema>;

/** Change any of these (only the fields sent); status cancelled tells the lead it is off. */
export const updateAppointmentRequestSchema = z
  .object({
    date: dateSchema,
    time: timeSchema,
    type: appointmentTypeSchema,
    notes: notesSchema,
    duration_minutes: durationSchema,
    location: locationSchema,
    status: appointmentStatusSchema,
    allow_overlap: z.boolean(),
  })
  .partial()
  .refine((body) => Object.keys(body).some((k) => k !== 'allow_overlap'), { message: 'Nothing to update' });
export type UpdateAppointmentRequest = z.infer<typeof updateAppointmentRequestSchema>;

export const appointmentIdParamSchema = z.object({ id: z.uuid('Invalid appointment id') });

/** A date range, both ends included; the calendar asks for its visible grid. */
export const appointmentListQuerySchema = z
  .object({ from: dateSchema.optional(), to: dateSchema.optional() })
  .refine((q) => !q.from || !q.to || q.from <= q.to, { message: 'from must not be after to', path: ['to'] });
export type AppointmentListQuery = z.infer<typeof appointmentListQuerySchema>;

/** An appointment as the API returns it; date and time are wall-clock in BUSINESS_TIME_ZONE. */
export const appointmentSchema = z.object({
  id: z.uuid(),
  lead_id: z.uuid().nullable(),
  date: z.string(), // yyyy-mm-dd
  time: z.string(), // HH:MM
  type: appointmentTypeSchema,
  notes: z.string().nullable(),
  lead: z.object({ full_name: z.string(), email: z.string(), phone: z.string() }).nullable(),
  duration_minutes: z.number().int(),
  location: z.string().nullable(),
  status: appointmentStatusSchema,
  /** Who cancelled it, when it is cancelled. */
  cancelled_by: z.enum(['lead', 'staff']).nullable(),
  /** booking: a visitor booked it on the website. */
  source: z.enum(['staff', 'booking']),
  /**
   * Booked through the link of a repeat form (someone typed the email of a lead we already
   * knew): the name and phone typed on that form, and when it came. The lead's own details were
   * not changed by it. Null otherwise.
   */
  booked_as: z.object({ full_name: z.string(), phone: z.string().nullable(), at: z.string() }).nullable(),
});
export type Appointment = z.infer<typeof appointmentSchema>;

export const APPOINTMENT_LIST_LIMIT = 2000;
export const appointmentListResponseSchema = z.object({
  appointments: z.array(appointmentSchema),
  /** True when more than APPOINTMENT_LIST_LIMIT matched; narrow the range to see them all. */
  truncated: z.boolean(),
  time_zone: z.string(),
});
export type AppointmentListResponse = z.infer<typeof appointmentListResponseSchema>;

export const calendarFeedSchema = z.object({
  /** The subscription URL; present only in the answer that created it (only a hash is kept). */
  url: z.string().optional(),
  active: z.boolean(),
  created_at: z.string().nullable(),
});
export type CalendarFeed = z.infer<typeof calendarFeedSchema>;

/** The feed's answer (403) while the team requires two-factor and the feed's account has not set it up. */
export const CALENDAR_FEED_PAUSED =
  'This calendar feed is paused: your team requires two-factor authentication, and the account it belongs to has not set it up yet. It works again once they do, on their account page.';
