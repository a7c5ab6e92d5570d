import * as z from 'zod';
import { AVAILABILITY_MAX_DAYS, BOOKABLE_TYPES, BOOKING_LIMITS } from '../constants.ts';
import { clockMinutes, isTimeZone } from '../zoned-time.ts';
import { dateSchema, isCalendarDate, isClockTime } from './appointment.ts';
import { storableText } from './text.ts';

/** A weekday's open hours, wall-clock in the business time zone; null = closed that day. */
export const openHoursSchema = z
  .object({
    start: storableText().refine(isClockTime, 'Invalid time'),
    end: storableText().refine(isClockTime, 'Invalid time'),
  })
  .refine((h) => !isClockTime(h.start) || !isClockTime(h.end) || clockMinutes(h.end) > clockMinutes(h.start), {
    message: 'Closing time must be after opening time',
    path: ['end'],
  })
  .meta({ id: 'OpenHours' });
export type OpenHours = z.infer<typeof openHoursSchema>;

const minutes = (label: string, min: number, max: number) =>
  z
    .number({ error: `${label} is required` })
    .int(`${label} must be a whole number`)
    .min(min, `${label} must be at least ${min}`)
    .max(max, `${label} must be at most ${max}`);

/**
 * When visitors may book a call. `hours` has seven entries, Monday first. Slots start at the
 * opening time and every `slot_minutes` after, as long as the slot ends by closing time.
 */
const bookingSettingsFields = z.object({
  enabled: z.boolean(),
  hours: z.array(openHoursSchema.nullable()).length(7, 'Give the hours of all seven weekdays'),
  slot_minutes: minutes('Slot length', BOOKING_LIMITS.slot.min, BOOKING_LIMITS.slot.max),
  buffer_minutes: minutes('Buffer', 0, BOOKING_LIMITS.buffer.max),
  min_notice_hours: minutes('Minimum notice', 0, BOOKING_LIMITS.noticeHours.max),
  horizon_days: minutes('Booking window', 1, BOOKING_LIMITS.horizonDays.max),
  types: z
    .array(z.enum(BOOKABLE_TYPES, { error: 'Choose Call or Zoom' }))
    .min(1, 'Choose at least one appointment type')
    .refine((t) => new Set(t).size === t.length, 'Each type once'),
  days_off: z
    .array(storableText().refine(isCalendarDate, 'Invalid date'))
    .max(BOOKING_LIMITS.daysOff, `At most ${BOOKING_LIMITS.daysOff} days off`)
    .refine((d) => new Set(d).size === d.length, 'Each day off once'),
  /**
   * Every website booking waits until the visitor confirms it from an email (as all do anyway
   * while website bookings run above BOOKING_HOLD_ABOVE_PER_HOUR). Cannot be turned on while
   * email is off.
   */
  require_email_confirmation: z.boolean(),
  /** Who takes website calls: everyone who takes calls (their Working hours), or only `website_host_ids` of them. */
  website_hosts: z.enum(['everyone', 'chosen'], { error: 'Choose who takes website calls' }),
  website_host_ids: z
    .array(z.uuid({ error: 'Choose people on the team' }))
    .max(BOOKING_LIMITS.websiteHosts, `At most ${BOOKING_LIMITS.websiteHosts} people`)
    .refine((ids) => new Set(ids).size === ids.length, 'Each person once'),
  /** Visitors may pick the person their call is with ("Any available" stays the default). */
  visitors_choose_host: z.boolean(),
  /** A booked Zoom call whose host has no meeting link of their own gets a Jitsi Meet room of its own. */
  jitsi_links: z.boolean(),
});

/** "Chosen people" names at least one (else nobody would take website calls). */
const someoneChosen = (s: { website_hosts?: string | undefined; website_host_ids?: string[] | undefined }) =>
  s.website_hosts !== 'chosen' || s.website_host_ids === undefined || s.website_host_ids.length > 0;
const SOMEONE_CHOSEN = { message: 'Choose at least one person', path: ['website_host_ids'] };

export const bookingSettingsSchema = bookingSettingsFields.refine(someoneChosen, SOMEONE_CHOSEN).meta({ id: 'BookingSettings' });
export type BookingSettings = z.infer<typeof bookingSettingsSchema>;

/** What PUT /api/booking-settings takes: a client that does not know the switch leaves it as it is. */
export const saveBookingSettingsSchema = bookingSettingsFields
  .extend({
    require_email_confirmation: z.boolean().optional(),
    website_hosts: bookingSettingsFields.shape.website_hosts.optional(),
    website_host_ids: bookingSettingsFields.shape.website_host_ids.optional(),
    visitors_choose_host: z.boolean().optional(),
    jitsi_links: z.boolean().optional(),
  })
  .refine(someoneChosen, SOMEONE_CHOSEN)
  .meta({ id: 'SaveBookingSettings' });
export type SaveBookingSettings = z.infer<typeof saveBookingSettingsSchema>;

const nine = { start: '09:00', end: '17:00' };
export const DEFAULT_BOOKING_SETTINGS: BookingSettings = {
  enabled: true,
  hours: [nine, nine, nine, nine, nine, null, null],
  slot_minutes: 30,
  buffer_minutes: 0,
  min_notice_hours: 4,
  horizon_days: 30,
  types: ['Call', 'Zoom'],
  days_off: [],
  require_email_confirmation: false,
  website_hosts: 'everyone',
  website_host_ids: [],
  visitors_choose_host: false,
  jitsi_links: false,
};

export const bookingSettingsResponseSchema = bookingSettingsFields
  .extend({
    time_zone: z.string(),
    /** Email is on (SMTP_URL set): without it no confirmation can be sent, so the switch cannot be turned on. */
    email_on: z.boolean(),
  })
  .meta({ id: 'BookingSettingsResponse' });

/** One person's id, when visitors may choose who their call is with (GET /api/public/hosts lists them). */
const chosenHostSchema = z.uuid({ error: 'Choose who the call is with' });

export const availabilityQuerySchema = z
  .object({ from: dateSchema, to: dateSchema, host_id: chosenHostSchema.optional() })
  .refine((q) => !isCalendarDate(q.from) || !isCalendarDate(q.to) || q.from <= q.to, { message: 'from must not be after to', path: ['to'] })
  .refine(
    (q) => !isCalendarDate(q.from) || !isCalendarDate(q.to) || (Date.parse(q.to) - Date.parse(q.from)) / 86_400_000 < AVAILABILITY_MAX_DAYS,
    { message: `Ask for at most ${AVAILABILITY_MAX_DAYS} days at a time`, path: ['to'] },
  );

export const availabilityResponseSchema = z
  .object({
    enabled: z.boolean(),
    time_zone: z.string(),
    slot_minutes: z.number().int(),
    types: z.array(z.enum(BOOKABLE_TYPES)),
    /** Open start times, ISO 8601 with the business time zone's offset, soonest first. */
    slots: z.array(z.string()),
    /** The last business date that may be booked now (today + the booking window): where paging through dates ends. */
    last_date: z.string(),
  })
  .meta({ id: 'AvailabilityResponse' });
export type Availability = z.infer<typeof availabilityResponseSchema>;

/** ISO 8601 with an offset or Z, to the minute or second. */
const isoInstant = storableText({ error: 'Pick a time' })
  .regex(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2})?(\.\d{1,3})?(Z|[+-]\d{2}:\d{2})$/, 'Pick a time')
  .refine((s) => !Number.isNaN(Date.parse(s)), 'Pick a time');

/** A booking token: 43 characters of base64url (32 random bytes). */
export const bookingTokenSchema = storableText({ error: 'Invalid booking link' }).regex(/^[A-Za-z0-9_-]{43}$/, 'Invalid booking link');

export const TIME_ZONE_MESSAGE = 'Unknown time zone: use an IANA time zone name such as America/New_York';

/**
 * The visitor's time zone as their browser names it (Intl.DateTimeFormat().resolvedOptions().timeZone):
 * a real IANA zone, or a 400 with TIME_ZONE_MESSAGE. The mails about their call show their clock beside the firm's.
 */
export const visitorTimeZoneSchema = storableText({ error: TIME_ZONE_MESSAGE }).refine(isTimeZone, TIME_ZONE_MESSAGE);

export const createBookingRequestSchema = z
  .object({
    booking_token: bookingTokenSchema,
    start: isoInstant,
    type: z.enum(BOOKABLE_TYPES, { error: 'Choose Call or Zoom' }),
    /** Optional: without it the mails show the firm's clock alone. A move from the visitor's page replaces the one kept. */
    time_zone: visitorTimeZoneSchema.optional(),
    /** When visitors may choose: the person the call is with (else anyone free then). */
    host_id: chosenHostSchema.optional(),
  })
  .meta({ id: 'CreateBookingRequest' });

/** The people a visitor may choose to meet (empty unless the owners let visitors choose): names and initials only. */
export const publicHostsSchema = z
  .object({
    choose: z.boolean(),
    hosts: z.array(z.object({ id: z.uuid(), name: z.string(), initials: z.string() })),
  })
  .meta({ id: 'PublicHosts' });
export type PublicHosts = z.infer<typeof publicHostsSchema>;
export type CreateBookingRequest = z.infer<typeof createBookingRequestSchema>;

export const rescheduleBookingRequestSchema = createBookingRequestSchema
  .omit({ booking_token: true })
  .meta({ id: 'RescheduleBookingRequest' });
export type RescheduleBookingRequest = z.infer<typeof rescheduleBookingRequestSchema>;

export const bookingTokenParamSchema = z.object({ token: bookingTokenSchema });

export const BOOKING_STATUSES = ['scheduled', 'cancelled', 'completed', 'no_show'] as const;

/** What the holder of a booking link sees: their own call, never anyone else's. */
export const publicBookingSchema = z
  .object({
    first_name: z.string(),
    time_zone: z.string(),
    booking: z
      .object({
        start: z.string(),
        end: z.string(),
        type: z.string(),
        status: z.enum(BOOKING_STATUSES),
        /** A Zoom call's video link (the host's meeting link or its own Jitsi room), when it has one. */
        join_url: z.string().nullable(),
      })
      .nullable(),
    /** A time may be picked now (no call booked, link still valid). */
    can_book: z.boolean(),
    /** The booked call may still be moved or cancelled (before the minimum notice). */
    can_change: z.boolean(),
    min_notice_hours: z.number().int(),
    /** The private page of this booking: /booking/<token>. */
    manage_path: z.string(),
    /** A time asked for and waiting for the visitor to confirm it from our email; it is not theirs yet. */
    pending: z.object({ start: z.string(), end: z.string(), type: z.string(), expires_at: z.string() }).nullable(),
    /**
     * The booked call for the visitor's own calendar, while it is scheduled (else null): the .ics
     * file (same UID as the invitation emails, so it updates the same event) and the "compose
     * event" pages of Google Calendar and Outlook on the web.
     */
    calendar: z.object({ ics_path: z.string(), google_url: z.string(), outlook_url: z.string() }).nullable(),
    /**
     * In the answer to a change (book, confirm, move, cancel) only: whether the email telling the
     * visitor of it was queued. False with email off, or when the address had all the mail visitors
     * may cause it today: the page then must not say it emailed them.
     */
    emailed: z.boolean().optional(),
  })
  .meta({ id: 'PublicBooking' });
export type PublicBooking = z.infer<typeof publicBookingSchema>;

/**
 * 202 to POST /api/public/bookings: the booking waits for the visitor to click the link we
 * emailed (until `expires_at`); the time stays open to others until then.
 */
export const pendingBookingSchema = publicBookingSchema
  .extend({ status: z.literal('pending'), expires_at: z.string() })
  .meta({ id: 'PendingBooking' });
export type PendingBooking = z.infer<typeof pendingBookingSchema>;

/** The code of an emailed confirmation link (/booking/<token>/confirm/<code>): 43 characters of base64url. */
export const confirmBookingRequestSchema = z.object({ code: bookingTokenSchema }).meta({ id: 'ConfirmBookingRequest' });
export type ConfirmBookingRequest = z.infer<typeof confirmBookingRequestSchema>;
