import * as z from 'zod';
import { APPOINTMENT_STATUSES, APPOINTMENT_TYPES, BOOKING_LIMITS, LIMITS } from '../constants.ts';
import { notifiedFields } from './api-keys.ts';
import { APPOINTMENT_MESSAGES as M } from '../rules/appointment-checks.ts';
import { isCalendarDate, isClockTime } from '../rules/calendar.ts';
import { storableText } from './text.ts';

export const appointmentTypeSchema = z.enum(APPOINTMENT_TYPES, { error: M.type }).meta({ id: 'AppointmentType' });

export { isCalendarDate, isClockTime };

export const dateSchema = storableText({ error: M.date.required })
  .trim()
  .min(1, { message: M.date.required, abort: true })
  .refine(isCalendarDate, M.date.invalid);

export const timeSchema = storableText({ error: M.time.required })
  .trim()
  .min(1, { message: M.time.required, abort: true })
  .refine(isClockTime, M.time.invalid);

const notesSchema = storableText().trim().max(LIMITS.message, M.notes).optional().nullable();

/** How long it lasts: the end is after the start. */
export const durationSchema = z
  .number({ error: M.duration.required })
  .int(M.duration.whole)
  .min(BOOKING_LIMITS.duration.min, M.duration.min)
  .max(BOOKING_LIMITS.duration.max, M.duration.max);

const locationSchema = storableText().trim().max(BOOKING_LIMITS.location, M.location).optional().nullable();

/** A team member's account id (the appointment's host). */
const hostIdSchema = storableText({ error: 'Choose who takes the call' }).pipe(z.uuid('Choose who takes the call'));

export const appointmentStatusSchema = z.enum(APPOINTMENT_STATUSES, { error: 'Invalid status' }).meta({ id: 'AppointmentStatus' });

/** The Schedule Appointment form and request: the rules of rules/appointment-checks.ts (its messages: docs/product-rules.md, "Validation"). */
export const createAppointmentRequestSchema = z
  .object({
    lead_id: storableText({ error: M.lead }).min(1, { message: M.lead, abort: true }).pipe(z.uuid(M.lead)),
    date: dateSchema,
    time: timeSchema,
    type: appointmentTypeSchema,
    notes: notesSchema,
    duration_minutes: durationSchema.optional(),
    location: locationSchema,
    /** The team member who takes it; the person scheduling it when not sent. */
    host_id: hostIdSchema.optional(),
    /** Schedule it even over other appointments (after the warning listed them). */
    allow_overlap: z.boolean().optional(),
  })
  .meta({ id: 'CreateAppointmentRequest' });
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
    host_id: hostIdSchema,
    allow_overlap: z.boolean(),
  })
  .partial()
  .refine((body) => Object.keys(body).some((k) => k !== 'allow_overlap'), { message: 'Nothing to update' })
  .meta({ id: 'UpdateAppointmentRequest' });
export type UpdateAppointmentRequest = z.infer<typeof updateAppointmentRequestSchema>;

export const appointmentIdParamSchema = z.object({ id: z.uuid('Invalid appointment id') });

/** A date range, both ends included; the calendar asks for its visible grid. */
export const appointmentListQuerySchema = z
  .object({
    from: dateSchema.optional(),
    to: dateSchema.optional(),
    /** Only this team member's appointments (the calendar's Person filter). */
    host_id: z.uuid('Invalid person').optional(),
  })
  .refine((q) => !q.from || !q.to || q.from <= q.to, { message: 'from must not be after to', path: ['to'] });
export type AppointmentListQuery = z.infer<typeof appointmentListQuerySchema>;

/** An appointment as the API returns it; date and time are wall-clock in BUSINESS_TIME_ZONE. */
export const appointmentSchema = z
  .object({
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
    /** The team member who takes it, and their name; null once their account is deleted. */
    host_id: z.uuid().nullable(),
    host_name: z.string().nullable(),
  })
  .meta({ id: 'Appointment' });
export type Appointment = z.infer<typeof appointmentSchema>;

export const APPOINTMENT_LIST_LIMIT = 2000;
export const appointmentListResponseSchema = z
  .object({
    appointments: z.array(appointmentSchema),
    /** True when more than APPOINTMENT_LIST_LIMIT matched; narrow the range to see them all. */
    truncated: z.boolean(),
    time_zone: z.string(),
  })
  .meta({ id: 'AppointmentListResponse' });
export type AppointmentListResponse = z.infer<typeof appointmentListResponseSchema>;

export const calendarFeedSchema = z
  .object({
    /** The subscription URL; present only in the answer that created it (only a hash is kept). */
    url: z.string().optional(),
    active: z.boolean(),
    created_at: z.string().nullable(),
  })
  .meta({ id: 'CalendarFeed' });
export type CalendarFeed = z.infer<typeof calendarFeedSchema>;

/** The feed's answer (403) while the team requires two-factor and the feed's account has not set it up. */
export const CALENDAR_FEED_PAUSED =
  'This calendar feed is paused: your team requires two-factor authentication, and the account it belongs to has not set it up yet. It works again once they do, on their account page.';

/** How staff name a network: an address or its network (203.0.113.0/24, 2001:db8:1:2::/64). */
export const NETWORK_MAX_LENGTH = 60;
const bookedAtSchema = storableText().datetime({ offset: true, message: 'Invalid time' }).optional();

/**
 * Staff: cancel at once the upcoming calls visitors booked on the website from one network
 * and/or within a time window of when they were booked. `dry_run` only counts them.
 */
export const bulkCancelRequestSchema = z
  .object({
    network: storableText().trim().max(NETWORK_MAX_LENGTH, 'Enter an IP address or a network like 203.0.113.0/24').optional(),
    booked_from: bookedAtSchema,
    booked_to: bookedAtSchema,
    /** Email each person that their call is cancelled (off: nobody is told). */
    notify: z.boolean({ error: 'Say whether to email them' }),
    dry_run: z.boolean().optional(),
  })
  .refine((b) => (b.booked_from === undefined) === (b.booked_to === undefined), {
    message: 'Give both ends of the time window',
    path: ['booked_to'],
  })
  .refine((b) => !b.booked_from || !b.booked_to || Date.parse(b.booked_from) <= Date.parse(b.booked_to), {
    message: 'The window must end after it starts',
    path: ['booked_to'],
  })
  .refine((b) => (b.network !== undefined && b.network !== '') || b.booked_from !== undefined, {
    message: 'Choose a network or a time window',
    path: ['network'],
  })
  .meta({ id: 'BulkCancelRequest' });
export type BulkCancelRequest = z.infer<typeof bulkCancelRequestSchema>;

export const bulkCancelResponseSchema = z
  .object({
    /** The calls cancelled (or, on a dry run, that would be). */
    count: z.number().int(),
    dry_run: z.boolean(),
    /** The network matched, as stored (an address given becomes its /24 or /64); null without one. */
    network: z.string().nullable(),
  })
  .meta({ id: 'BulkCancelResponse' });
export type BulkCancelResponse = z.infer<typeof bulkCancelResponseSchema>;

/** The networks with the most upcoming website bookings, for the bulk cancel dialog. */
export const websiteNetworksResponseSchema = z
  .object({
    networks: z.array(z.object({ network: z.string(), upcoming: z.number().int(), last_booked_at: z.string() })),
  })
  .meta({ id: 'WebsiteNetworksResponse' });
export type WebsiteNetworksResponse = z.infer<typeof websiteNetworksResponseSchema>;

/** An appointment scheduled or changed, as its answer carries it: with `notified` when an API key made the change. */
export const appointmentWrittenSchema = appointmentSchema.extend(notifiedFields).meta({ id: 'AppointmentWritten' });

/** A deleted appointment's answer. */
export const appointmentDeletedSchema = z.object({ id: z.uuid(), ...notifiedFields }).meta({ id: 'AppointmentDeleted' });
