import { actorOf, changedFields, recordAudit } from '../audit/audit-log.ts';
import type { Context } from 'hono';
import {
  availabilityQuerySchema,
  availabilityResponseSchema,
  bookingSettingsResponseSchema,
  bookingTokenParamSchema,
  confirmBookingRequestSchema,
  createBookingRequestSchema,
  pendingBookingSchema,
  publicBookingSchema,
  rescheduleBookingRequestSchema,
  saveBookingSettingsSchema,
  type BookingSettings,
  type PublicBooking,
} from '#shared/schemas/booking';
import { AVAILABILITY_MAX_DAYS } from '#shared/constants';
import { canonicalTimeZone, clockText, isoInZone, zonedParts } from '#shared/zoned-time';
import { z } from '@hono/zod-openapi';
import { createOwnerRoute } from '../auth/admin-route.ts';
import { openSlots, type Busy } from '../booking/availability.ts';
import type { Db } from '../db/client.ts';
import { changeAppointment, appointmentMailOf, type AppointmentMail } from '../db/queries/appointments.ts';
import {
  bookingNotice,
  bookSlot,
  newBookingToken,
  busyTimes,
  getBookingSettings,
  isOverlapViolation,
  managePathExtra,
  readBooking,
  readBookingContext,
  saveBookingSettings,
  type Booked,
  type BookingRow,
} from '../db/queries/bookings.ts';
import { holdBooking, markHoldConfirmed, readHold, readPendingHold, type HoldRow } from '../db/queries/booking-holds.ts';
import { queueMailOf } from '../db/queries/emails.ts';
import { hitRateLimit } from '../db/queries/rate-limits.ts';
import { networkKey, rateLimitKey } from '../lib/client-address.ts';
import { hashToken } from '../db/queries/sessions.ts';
import { admitWebsiteBooking, callUs, sitePhone } from './booking-admission.ts';
import type { AppEnv } from '../http/context.ts';
import { AppError, tooManyRequests } from '../http/errors.ts';
import { createPublicRoute, errorResponses, jsonContent, mediaContent } from '../http/openapi.ts';
import { bookedCallIcs, googleCalendarUrl, leadEventDetails, leadEventTitle, outlookCalendarUrl } from '../lib/booked-call-calendar.ts';
import { mailSite } from '../mail/context.ts';
import { appointmentUid } from '../lib/icalendar.ts';
import { createRouter } from '../http/router.ts';

const LINK_INVALID = 'This booking link is not valid or has expired.';
const SLOT_TAKEN = 'Sorry, that time was just taken. Please pick another time.';
const TOO_LATE = (hours: number) => `This call can no longer be changed online (less than ${hours} hours before it). Please call us.`;
/** Changes through one link per hour: each tells every admin, so a link cannot flood them. */
const CHANGES_PER_LINK_PER_HOUR = 10;

const availabilityRoute = createPublicRoute({
  method: 'get',
  path: '/api/public/availability',
  tags: ['public'],
  summary: 'Open times for booking a call',
  description:
    `Open to anyone. Lists the start times a visitor may book between two business dates (both included, at most ${AVAILABILITY_MAX_DAYS} days), ` +
    'as ISO 8601 with the business time zone offset, and the last date that may be booked (ask page after page up to it). ' +
    'Shows free times only, never who or what is booked. Limited to AVAILABILITY_RATE_LIMIT requests per client address per minute.',
  request: { query: availabilityQuerySchema },
  responses: {
    200: jsonContent(availabilityResponseSchema, 'Open times'),
    ...errorResponses({ 400: 'Invalid input (a range longer than the maximum included)', 429: 'Too many requests from this address' }),
  },
});

const bookRoute = createPublicRoute({
  method: 'post',
  path: '/api/public/bookings',
  tags: ['public'],
  summary: 'Book a call with the token from the lead form',
  description:
    'Open to anyone holding a booking_token. Books one call per lead; two people confirming one time at once: one gets it, the other 409 with the open times of that day. ' +
    'Limited per client address and network per day (BOOKING_RATE_LIMIT). While website bookings run above BOOKING_HOLD_ABOVE_PER_HOUR, or when the owners require it, ' +
    'the answer is 202 pending: the visitor must click the link we email within 30 minutes, and the time stays open to others until then.',
  request: { body: { required: true, ...jsonContent(createBookingRequestSchema, 'The time and kind of call') } },
  responses: {
    201: jsonContent(publicBookingSchema, 'Booked'),
    202: jsonContent(pendingBookingSchema, 'Held until the visitor confirms it from our email'),
    ...errorResponses({
      400: 'Invalid input',
      404: 'Unknown or expired link',
      409: 'That time is no longer open, or a call is already booked',
      429: 'Too many bookings from this address or network, or too many for now with email off: call the firm',
    }),
  },
});

const confirmRoute = createPublicRoute({
  method: 'post',
  path: '/api/public/bookings/{token}/confirm',
  tags: ['public'],
  summary: 'Confirm a held booking with the code from the emailed link',
  description:
    'The page of the emailed link (/booking/<token>/confirm/<code>) posts this when the visitor clicks Confirm (never on opening the page, so mail scanners confirm nothing). ' +
    'Books the held time if it is still open: of two holds of one time, the first confirmed gets it, the other 409 with the open times of that day. Holds expire after 30 minutes.',
  request: { params: bookingTokenParamSchema, body: { required: true, ...jsonContent(confirmBookingRequestSchema, 'The code from the link') } },
  responses: {
    200: jsonContent(publicBookingSchema, 'Booked'),
    ...errorResponses({ 400: 'Invalid input', 404: 'Unknown link or code', 409: 'That time is no longer open, or a call is already booked', 422: 'The link has expired' }),
  },
});

const calendarRoute = createPublicRoute({
  method: 'get',
  path: '/api/public/bookings/{token}/calendar.ics',
  tags: ['public'],
  summary: 'The call booked through a private link, as an .ics file for the visitor’s calendar',
  description:
    'Open to anyone holding the link, like the private page. An iCalendar file (METHOD:PUBLISH) with the UID and SEQUENCE of the invitation emails, ' +
    'so adding it updates the event an invitation made (a cancelled call comes as STATUS:CANCELLED).',
  request: { params: bookingTokenParamSchema },
  responses: {
    200: mediaContent('text/calendar', 'iCalendar', z.string()),
    ...errorResponses({ 400: 'Invalid input', 404: 'Unknown link, or no call booked through it' }),
  },
});

const readRoute = createPublicRoute({
  method: 'get',
  path: '/api/public/bookings/{token}',
  tags: ['public'],
  summary: 'The call booked through a private link',
  request: { params: bookingTokenParamSchema },
  responses: { 200: jsonContent(publicBookingSchema, 'The booking'), ...errorResponses({ 400: 'Invalid input', 404: 'Unknown link' }) },
});

const rescheduleRoute = createPublicRoute({
  method: 'patch',
  path: '/api/public/bookings/{token}',
  tags: ['public'],
  summary: 'Move the booked call to another open time (until the minimum notice before it)',
  request: { params: bookingTokenParamSchema, body: { required: true, ...jsonContent(rescheduleBookingRequestSchema, 'The new time') } },
  responses: {
    200: jsonContent(publicBookingSchema, 'Moved'),
    ...errorResponses({ 400: 'Invalid input', 404: 'Unknown link', 409: 'That time is no longer open', 422: 'Too late to change', 429: 'Too many changes' }),
  },
});

const cancelRoute = createPublicRoute({
  method: 'delete',
  path: '/api/public/bookings/{token}',
  tags: ['public'],
  summary: 'Cancel the booked call (until the minimum notice before it)',
  request: { params: bookingTokenParamSchema },
  responses: {
    200: jsonContent(publicBookingSchema, 'Cancelled'),
    ...errorResponses({ 400: 'Invalid input', 404: 'Unknown link', 422: 'Too late to change', 429: 'Too many changes' }),
  },
});

const settingsRoute = createOwnerRoute({
  method: 'get',
  path: '/api/booking-settings',
  tags: ['booking'],
  summary: 'When visitors may book a call',
  responses: { 200: jsonContent(bookingSettingsResponseSchema, 'Booking settings') },
});

const saveSettingsRoute = createOwnerRoute({
  method: 'put',
  path: '/api/booking-settings',
  tags: ['booking'],
  summary: 'Change when visitors may book a call (applies at once, in every process)',
  request: { body: { required: true, ...jsonContent(saveBookingSettingsSchema, 'Booking settings') } },
  responses: { 200: jsonContent(bookingSettingsResponseSchema, 'Saved'), ...errorResponses({ 400: 'Invalid input, or the email confirmation switch with email off' }) },
});

const mailOf = (c: Context<AppEnv>): AppointmentMail => appointmentMailOf(c.var.deps.config);
const emailOn = (c: Context<AppEnv>) => c.var.deps.config.mail.smtp !== undefined;
const settingsResponse = (c: Context<AppEnv>, settings: BookingSettings) => ({ ...settings, time_zone: c.var.deps.config.businessTimeZone, email_on: emailOn(c) });

const EMAIL_OFF_SWITCH = 'Email is off on this server (no SMTP_URL), so no confirmation link could be sent. Turn email on first.';

/**
 * `network`: the client network the booking came from (kept for staff's bulk cancel);
 * `visitorTimeZone`: the visitor's own (checked), kept for the mails about the call.
 */
type Booking = {
  hash: string;
  token: string;
  date: string;
  time: string;
  type: string;
  start: string;
  settings: BookingSettings;
  timeZone: string;
  busy: Busy[];
  network: string | null;
  visitorTimeZone: string | null;
};

/**
 * Books the time for the link (bookSlot) or answers why not, calling `undo` first: 409 when
 * someone else took or is taking it (with that day's open times), or when the link booked at
 * this very moment through another request (a double click).
 */
async function bookOrUndo(c: Context<AppEnv>, b: Booking, undo: () => Promise<void>): Promise<Booked> {
  const { settings, timeZone } = b;
  let id: Booked | 'taken' | undefined;
  try {
    id = await bookSlot(
      c.var.db,
      {
        hash: b.hash,
        date: b.date,
        time: b.time,
        type: b.type,
        durationMinutes: settings.slot_minutes,
        bufferMinutes: settings.buffer_minutes,
        token: b.token,
        network: b.network,
        visitorTimeZone: b.visitorTimeZone,
      },
      mailOf(c),
    );
  } catch (error) {
    if (!isOverlapViolation(error)) throw error;
    await undo();
    throw slotTaken(await slotsOn(c.var.db, settings, timeZone, b.date), timeZone);
  }
  if (id === 'taken' || !id) await undo();
  // Someone else is booking this very time right now: theirs, unless it fails (then it is open
  // again). The day's other times come from the busy times already read, with this one busy.
  if (id === 'taken') {
    const start = Date.parse(b.start);
    const taken = [...b.busy, { start, end: start + settings.slot_minutes * 60_000 }];
    throw slotTaken(openSlots({ settings, timeZone, from: b.date, to: b.date, now: Date.now(), busy: taken }), timeZone);
  }
  if (!id) throw new AppError('conflict', 'You already have a call booked. Use your private link to move it.');
  return id;
}

/** The open start times of one business date now, leaving out `ownAppointment` (a call being moved). */
async function slotsOn(db: Db, settings: BookingSettings, timeZone: string, date: string, ignore?: { start: number; duration_minutes: number }) {
  const busy = withoutCall(await busyTimes(db, timeZone, date, date), ignore);
  return openSlots({ settings, timeZone, from: date, to: date, now: Date.now(), busy });
}

/**
 * Checks that `start` is one of the open times of its day, given that day's busy times (but
 * `ignore`, the call being moved), or answers 409 with that day's open times; returns its
 * business date and clock time.
 */
function requireOpenSlot(settings: BookingSettings, timeZone: string, start: string, busy: Busy[], ignore?: { start: number; duration_minutes: number }) {
  const at = Date.parse(start);
  const { date, minutes } = zonedParts(at, timeZone);
  const slots = openSlots({ settings, timeZone, from: date, to: date, now: Date.now(), busy: withoutCall(busy, ignore) });
  if (!slots.includes(at)) throw slotTaken(slots, timeZone);
  return { date, time: clockText(minutes) };
}

/** Busy times without the call being moved (it does not block its own new time). */
function withoutCall(busy: Busy[], ignore?: { start: number; duration_minutes: number }): Busy[] {
  if (!ignore) return busy;
  const end = ignore.start + ignore.duration_minutes * 60_000;
  const i = busy.findIndex((b) => b.start === ignore.start && b.end === end);
  return i < 0 ? busy : busy.filter((_, j) => j !== i);
}

const slotTaken = (slots: number[], timeZone: string) =>
  new AppError('conflict', SLOT_TAKEN, undefined, undefined, { slots: slots.map((s) => isoInZone(s, timeZone)) });

function requireType(settings: BookingSettings, type: string) {
  if (!(settings.types as string[]).includes(type)) {
    throw new AppError('validation_failed', 'That kind of call cannot be booked online.', { type: 'Choose one of the kinds offered' });
  }
}

async function limitChanges(c: Context<AppEnv>, hash: string) {
  const limit = await hitRateLimit(c.var.db, `booking:${hash}`, CHANGES_PER_LINK_PER_HOUR, 3600);
  if (!limit.allowed) throw tooManyRequests(limit.retryAfterSeconds, 'changes to this booking');
}

/** The visitor's time zone as sent (checked by the schema), in the runtime's own spelling; null when not sent. */
const visitorZoneOf = (sent: string | undefined) => (sent === undefined ? null : (canonicalTimeZone(sent) ?? null));

/** The scheduled call for the visitor's own calendar: the .ics path and the web calendars' links, with the invitation's words. */
async function calendarOf(c: Context<AppEnv>, token: string, call: { start: string; end: string; type: string }): Promise<PublicBooking['calendar']> {
  // The brand and contact the website shows now (Settings → Website), as the emails have them.
  const site = await mailSite(c.var.db, c.var.deps.config);
  const event = { title: leadEventTitle(call.type, site), details: leadEventDetails(call.type, site), start: call.start, end: call.end };
  return { ics_path: `/api/public/bookings/${token}/calendar.ics`, google_url: googleCalendarUrl(event), outlook_url: outlookCalendarUrl(event) };
}

/** What the link's holder sees of their booking (with the time held for their confirmation, if any). */
async function publicView(c: Context<AppEnv>, row: BookingRow, token: string, settings: BookingSettings, timeZone: string, hold?: HoldRow): Promise<PublicBooking> {
  const a = row.appointment;
  const noticeMs = settings.min_notice_hours * 3_600_000;
  const scheduled = a?.status === 'scheduled';
  const booking = a
    ? { start: isoInZone(a.start, timeZone), end: isoInZone(a.start + a.duration_minutes * 60_000, timeZone), type: a.type, status: a.status }
    : null;
  return {
    first_name: row.full_name.split(/\s+/)[0] ?? row.full_name,
    time_zone: timeZone,
    booking,
    can_book: settings.enabled && !row.expired && (!a || a.status === 'cancelled'),
    can_change: scheduled && a.start - Date.now() >= noticeMs,
    min_notice_hours: settings.min_notice_hours,
    manage_path: `/booking/${token}`,
    pending:
      hold && !hold.confirmed && !hold.expired
        ? {
            start: isoInZone(hold.start, timeZone),
            end: isoInZone(hold.start + settings.slot_minutes * 60_000, timeZone),
            type: hold.type,
            expires_at: hold.expires_at,
          }
        : null,
    calendar: booking && scheduled ? await calendarOf(c, token, booking) : null,
  };
}

const HOLD_EXPIRED = 'This confirmation link has expired: links work for 30 minutes. Please pick a time again.';
const HOLD_UNKNOWN = 'This confirmation link is not valid. Please pick a time again.';

/** The time is open and the visitor may have it, but only once they confirm it from our email: hold it and send the link. */
async function holdForConfirmation(c: Context<AppEnv>, b: { token: string; hash: string; date: string; time: string; type: string; visitorTimeZone: string | null }) {
  const { token: code, hash: confirmHash } = newBookingToken();
  const config = c.var.deps.config;
  const held = await holdBooking(
    c.var.db,
    {
      hash: b.hash,
      confirmHash,
      date: b.date,
      time: b.time,
      type: b.type,
      network: networkKey(c.var.clientIp),
      link: `/booking/${b.token}/confirm/${code}`,
      visitorTimeZone: b.visitorTimeZone,
    },
    { ...queueMailOf(config.mail), timeZone: config.businessTimeZone },
  );
  if (held === 'refused') return undefined;
  c.var.deps.outbox.nudge();
  return held;
}

/** The link, the settings and (given a start) the busy times of that business date, in one read. */
async function loadBooking(c: Context<AppEnv>, token: string, start?: string) {
  const timeZone = c.var.deps.config.businessTimeZone;
  const hash = hashToken(token);
  const date = start === undefined ? undefined : zonedParts(Date.parse(start), timeZone).date;
  const { booking: row, settings, busy } = await readBookingContext(c.var.db, hash, timeZone, date);
  if (!row) throw new AppError('not_found', LINK_INVALID);
  return { row, settings, hash, timeZone, busy };
}

/** The booked call, which must still be changeable. */
function requireChangeable(row: BookingRow, settings: BookingSettings) {
  const a = row.appointment;
  if (!a || a.status !== 'scheduled') throw new AppError('unprocessable', 'There is no booked call to change.');
  if (a.start - Date.now() < settings.min_notice_hours * 3_600_000) throw new AppError('unprocessable', TOO_LATE(settings.min_notice_hours));
  return a;
}

export const bookingRoutes = createRouter()
  .openapi(availabilityRoute, async (c) => {
    const { from, to } = c.req.valid('query');
    const { availability, config } = c.var.deps;
    // Counted per minute (AVAILABILITY_RATE_LIMIT), so a minute is always long enough to wait.
    if (!(await availability.allow(rateLimitKey(c.var.clientIp)))) throw tooManyRequests(60, 'requests for open times');
    const { settings, slots, lastDate } = await availability.openTimes(c.var.db, from, to, Date.now());
    c.header('Cache-Control', 'no-store');
    return c.json(
      { enabled: settings.enabled, time_zone: config.businessTimeZone, slot_minutes: settings.slot_minutes, types: settings.types, slots, last_date: lastDate },
      200,
    );
  })
  .openapi(bookRoute, async (c) => {
    const body = c.req.valid('json');
    const { row, settings, hash, timeZone, busy } = await loadBooking(c, body.booking_token, body.start);
    if (!settings.enabled) throw new AppError('conflict', 'Online booking is closed. We will call you to agree a time.', undefined, undefined, { slots: [] });
    if (row.expired) throw new AppError('not_found', LINK_INVALID);
    if (row.appointment?.status === 'scheduled') throw new AppError('conflict', 'You already have a call booked. Use your private link to move it.');
    requireType(settings, body.type);
    // No change limit here: a link books one call; moving and cancelling it are limited. The
    // website's booking limits count what an address, a network and the whole site book.
    const at = requireOpenSlot(settings, timeZone, body.start, busy);
    const visitorTimeZone = visitorZoneOf(body.time_zone);
    const admission = await admitWebsiteBooking(c, settings);
    if (admission.confirm) {
      const held = await holdForConfirmation(c, { token: body.booking_token, hash, ...at, type: body.type, visitorTimeZone });
      if (!held) {
        await admission.undo();
        throw new AppError('rate_limited', `We cannot email you a confirmation link right now. ${callUs(await sitePhone(c))}`);
      }
      const start = Date.parse(body.start);
      const view = await publicView(c, row, body.booking_token, settings, timeZone);
      const pending = { start: isoInZone(start, timeZone), end: isoInZone(start + settings.slot_minutes * 60_000, timeZone), type: body.type, expires_at: held.expiresAt };
      // A hold exists only with its confirmation email queued (holdBooking).
      return c.json({ ...view, status: 'pending' as const, expires_at: held.expiresAt, pending, emailed: true }, 202);
    }
    const made = await bookOrUndo(
      c,
      { hash, ...at, type: body.type, token: body.booking_token, settings, timeZone, busy, start: body.start, network: networkKey(c.var.clientIp), visitorTimeZone },
      admission.undo,
    );
    c.var.deps.outbox.nudge();
    const booked: BookingRow = {
      ...row,
      expired: false,
      appointment: { id: made.id, start: Date.parse(body.start), duration_minutes: settings.slot_minutes, type: body.type, status: 'scheduled', sequence: 0 },
    };
    return c.json({ ...(await publicView(c, booked, body.booking_token, settings, timeZone)), emailed: made.emailed }, 201);
  })
  .openapi(confirmRoute, async (c) => {
    const { token } = c.req.valid('param');
    const { code } = c.req.valid('json');
    const timeZone = c.var.deps.config.businessTimeZone;
    const hash = hashToken(token);
    const hold = await readHold(c.var.db, hash, hashToken(code), timeZone);
    if (!hold) throw new AppError('not_found', HOLD_UNKNOWN);
    const { row, settings, busy } = await loadBooking(c, token, isoInZone(hold.start, timeZone));
    // Clicked twice: the second answers what the first did.
    if (hold.confirmed && row.appointment && row.appointment.id === hold.appointment_id) return c.json(await publicView(c, row, token, settings, timeZone), 200);
    if (hold.expired) throw new AppError('unprocessable', HOLD_EXPIRED);
    if (!settings.enabled) throw new AppError('conflict', 'Online booking is closed. We will call you to agree a time.', undefined, undefined, { slots: [] });
    if (row.appointment?.status === 'scheduled') throw new AppError('conflict', 'You already have a call booked. Use your private link to move it.');
    requireType(settings, hold.type);
    const start = isoInZone(hold.start, timeZone);
    const at = requireOpenSlot(settings, timeZone, start, busy);
    const made = await bookOrUndo(
      c,
      { hash, ...at, type: hold.type, token, settings, timeZone, busy, start, network: hold.client_network, visitorTimeZone: hold.visitor_time_zone },
      async () => {},
    );
    await markHoldConfirmed(c.var.db, hash, made.id);
    c.var.deps.outbox.nudge();
    const booked: BookingRow = {
      ...row,
      expired: false,
      appointment: { id: made.id, start: hold.start, duration_minutes: settings.slot_minutes, type: hold.type, status: 'scheduled', sequence: 0 },
    };
    return c.json({ ...(await publicView(c, booked, token, settings, timeZone)), emailed: made.emailed }, 200);
  })
  .openapi(readRoute, async (c) => {
    const { token } = c.req.valid('param');
    const { row, settings, hash, timeZone } = await loadBooking(c, token);
    const hold = await readPendingHold(c.var.db, hash, timeZone);
    c.header('Cache-Control', 'no-store');
    return c.json(await publicView(c, row, token, settings, timeZone, hold), 200);
  })
  .openapi(calendarRoute, async (c) => {
    const { token } = c.req.valid('param');
    const { row, timeZone } = await loadBooking(c, token);
    const a = row.appointment;
    if (!a) throw new AppError('not_found', 'There is no call booked through this link.');
    const { config } = c.var.deps;
    const site = await mailSite(c.var.db, config);
    const ics = bookedCallIcs({
      uid: appointmentUid(a.id, config.mail.domain),
      sequence: a.sequence,
      start: isoInZone(a.start, timeZone),
      end: isoInZone(a.start + a.duration_minutes * 60_000, timeZone),
      type: a.type,
      cancelled: a.status === 'cancelled',
      site,
      organizer: { name: site.name, address: config.mail.from.address },
    });
    c.header('Content-Type', 'text/calendar; charset=utf-8');
    c.header('Content-Disposition', 'attachment; filename="free-call.ics"');
    c.header('Cache-Control', 'no-store');
    return c.body(ics, 200);
  })
  .openapi(rescheduleRoute, async (c) => {
    const { token } = c.req.valid('param');
    const body = c.req.valid('json');
    const { row, settings, hash, timeZone, busy } = await loadBooking(c, token, body.start);
    const current = requireChangeable(row, settings);
    requireType(settings, body.type);
    await limitChanges(c, hash);
    const at = requireOpenSlot(settings, timeZone, body.start, busy, current);
    let changed;
    try {
      changed = await changeAppointment(
        c.var.db,
        current.id,
        { date: at.date, time: at.time, type: body.type },
        {
          changedBy: null,
          mail: mailOf(c),
          notice: bookingNotice('moved'),
          leadExtra: managePathExtra(token),
          byVisitor: true,
          visitorTimeZone: visitorZoneOf(body.time_zone) ?? undefined,
        },
      );
    } catch (error) {
      if (!isOverlapViolation(error)) throw error;
      throw slotTaken(await slotsOn(c.var.db, settings, timeZone, at.date, current), timeZone);
    }
    c.var.deps.outbox.nudge();
    const moved = await readBooking(c.var.db, hash, timeZone);
    return c.json({ ...(await publicView(c, moved!, token, settings, timeZone)), emailed: changed?.lead_emailed ?? false }, 200);
  })
  .openapi(cancelRoute, async (c) => {
    const { token } = c.req.valid('param');
    const { row, settings, hash, timeZone } = await loadBooking(c, token);
    const current = requireChangeable(row, settings);
    await limitChanges(c, hash);
    const changed = await changeAppointment(
      c.var.db,
      current.id,
      { status: 'cancelled' },
      { changedBy: null, mail: mailOf(c), cancelledBy: 'lead', notice: bookingNotice('cancelled'), byVisitor: true },
    );
    c.var.deps.outbox.nudge();
    const cancelled = await readBooking(c.var.db, hash, timeZone);
    return c.json({ ...(await publicView(c, cancelled!, token, settings, timeZone)), emailed: changed?.lead_emailed ?? false }, 200);
  })
  .openapi(settingsRoute, async (c) => {
    const settings = await getBookingSettings(c.var.db);
    return c.json(settingsResponse(c, settings), 200);
  })
  .openapi(saveSettingsRoute, async (c) => {
    const before = await getBookingSettings(c.var.db);
    const body = c.req.valid('json');
    const require_email_confirmation = body.require_email_confirmation ?? before.require_email_confirmation;
    // Turning it on (or saving it on) with email off would hold every booking with no link to click.
    if (require_email_confirmation && !emailOn(c) && body.require_email_confirmation !== undefined) {
      throw new AppError('validation_failed', EMAIL_OFF_SWITCH, { require_email_confirmation: EMAIL_OFF_SWITCH });
    }
    await saveBookingSettings(c.var.db, { ...body, require_email_confirmation });
    const settings = await getBookingSettings(c.var.db);
    const changes = changedFields(before, settings, Object.keys(settings) as (keyof typeof settings & string)[]);
    if (Object.keys(changes).length > 0) {
      await recordAudit(c.var.db, actorOf(c), { action: 'settings_changed', targetType: 'settings', targetId: 'booking', details: { changes } });
    }
    return c.json(settingsResponse(c, settings), 200);
  });

