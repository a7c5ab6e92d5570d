import type { Context } from 'hono';
import * as z from 'zod';
import {
  availabilityQuerySchema,
  availabilityResponseSchema,
  bookingTokenParamSchema,
  confirmBookingRequestSchema,
  createBookingRequestSchema,
  pendingBookingSchema,
  publicBookingSchema,
  publicHostsSchema,
  rescheduleBookingRequestSchema,
  type BookingSettings,
} from '#shared/schemas/booking';
import { AVAILABILITY_MAX_DAYS } from '#shared/constants';
import { isoInZone } from '#shared/zoned-time';
import { admitWebsiteBooking, callUs, sitePhone } from '../booking/admission.ts';
import { bookOrUndo } from '../booking/book-slot.ts';
import type { Host } from '../booking/hosts.ts';
import { readWebsiteHostNames } from '../db/queries/hosts.ts';
import { calendarAccess } from '../calendars/calendar-access.ts';
import { syncBeforeBooking } from '../calendars/sync.ts';
import {
  LINK_INVALID,
  limitChanges,
  loadBooking,
  requireBookableType,
  requireBookingOpen,
  requireChangeable,
  requireNoCallBooked,
  visitorZoneOf,
} from '../booking/booking-link.ts';
import { assignmentOrder, hostsOf, openSlotsOn, requireOpenSlot, slotTaken } from '../booking/open-slot.ts';
import { publicView } from '../booking/public-view.ts';
import { changeAppointment, appointmentMailOf, type AppointmentMail } from '../db/queries/appointments.ts';
import { bookingNotice, getBookingSettings, managePathExtra, readBooking, type Booked, type BookingRow } from '../db/queries/bookings.ts';
import { holdBooking, markHoldConfirmed, readHold, readPendingHold, type HoldRow } from '../db/queries/booking-holds.ts';
import { queueMailOf } from '../db/queries/emails.ts';
import { hashToken, mintToken } from '../lib/secret-token.ts';
import type { AppEnv } from '../http/context.ts';
import { AppError, tooManyRequests } from '../http/errors.ts';
import { createPublicRoute, errorResponses, jsonContent, mediaContent } from '../http/openapi.ts';
import { createRouter } from '../http/router.ts';
import { rateLimitKey, networkKey } from '../lib/client-address.ts';
import { bookedCallIcs } from '../lib/booked-call-calendar.ts';
import { appointmentUid } from '../lib/icalendar.ts';
import { mailSite, siteOf } from '../mail/context.ts';
import { websiteFrom } from '../db/queries/website.ts';
import { isOverlapViolation } from '../db/database-faults.ts';

/** The public booking API: open times, and what a private booking link may do (its rules are in booking/). */

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

const hostsRoute = createPublicRoute({
  method: 'get',
  path: '/api/public/hosts',
  tags: ['public'],
  summary: 'The people a visitor may choose to meet',
  description:
    'Open to anyone. When the owners let visitors choose who their call is with, the people who take website calls: their ids, names and initials, nothing else. ' +
    'Otherwise `choose` is false and the list is empty. Pass an id as `host_id` to the availability and the booking.',
  responses: { 200: jsonContent(publicHostsSchema, 'Who a visitor may choose') },
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
  request: {
    params: bookingTokenParamSchema,
    body: { required: true, ...jsonContent(confirmBookingRequestSchema, 'The code from the link') },
  },
  responses: {
    200: jsonContent(publicBookingSchema, 'Booked'),
    ...errorResponses({
      400: 'Invalid input',
      404: 'Unknown link or code',
      409: 'That time is no longer open, or a call is already booked',
      422: 'The link has expired',
    }),
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
    ...errorResponses({
      400: 'Invalid input',
      404: 'Unknown link',
      409: 'That time is no longer open',
      422: 'Too late to change',
      429: 'Too many changes',
    }),
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

const mailOf = (c: Context<AppEnv>): AppointmentMail => appointmentMailOf(c.get('deps').config);
/** Who is booking, for the website's booking limits. */
const requester = (c: Context<AppEnv>) => ({ db: c.get('db'), config: c.get('deps').config, clientIp: c.get('clientIp') });
/** What the link's holder sees, with the site's words read from the database when a call shows. */
const viewOf = (c: Context<AppEnv>, row: BookingRow, token: string, settings: BookingSettings, timeZone: string, hold?: HoldRow) =>
  publicView(row, token, settings, timeZone, { hold, site: () => mailSite(c.get('db'), c.get('deps').config) });
const noChoosing = () =>
  new AppError('validation_failed', 'Visitors cannot choose who their call is with here.', { host_id: 'Leave it to us: any available' });

/**
 * The people a visitor's booking may go to: everyone who takes website calls, or the one they
 * chose (when the owners let visitors choose; 400 for someone who does not take them).
 */
function chosenTeam(settings: BookingSettings, team: Host[], hostId: string | undefined): Host[] {
  if (hostId === undefined) return team;
  if (!settings.visitors_choose_host) throw noChoosing();
  const chosen = team.filter((h) => h.id === hostId);
  if (chosen.length === 0)
    throw new AppError('validation_failed', 'That person does not take calls from the website.', {
      host_id: 'Choose who the call is with',
    });
  return chosen;
}

/** How long a booking waits for outside calendars read over a minute ago before using what was last read. */
const CALENDAR_READ_WAIT_MS = 4_000;

/**
 * The link's booking context; with a time to book, the people's outside calendars read over a
 * minute ago are read first (at most CALENDAR_READ_WAIT_MS), so a meeting added since counts.
 */
async function load(c: Context<AppEnv>, token: string, start?: string) {
  const { config, vault, logger } = c.get('deps');
  const loaded = await loadBooking(c.get('db'), config.businessTimeZone, token, start);
  const due = loaded.hosts.filter((h) => h.sync_due).map((h) => h.id);
  if (due.length === 0 || !(await syncBeforeBooking(calendarAccess(c.get('db'), config, vault(), logger), due, CALENDAR_READ_WAIT_MS)))
    return loaded;
  return loadBooking(c.get('db'), config.businessTimeZone, token, start);
}
/** viewOf of a call just booked, with the website's words its statement read (bookSlot). */
const bookedViewOf = (c: Context<AppEnv>, row: BookingRow, token: string, settings: BookingSettings, timeZone: string, made: Booked) =>
  publicView(row, token, settings, timeZone, {
    site: async () => siteOf(websiteFrom(made.website ?? undefined, c.get('deps').config.site).content),
  });

const HOLD_EXPIRED = 'This confirmation link has expired: links work for 30 minutes. Please pick a time again.';
const HOLD_UNKNOWN = 'This confirmation link is not valid. Please pick a time again.';

/** The time is open and the visitor may have it, but only once they confirm it from our email: hold it and send the link. */
async function holdForConfirmation(
  c: Context<AppEnv>,
  b: { token: string; hash: string; date: string; time: string; type: string; visitorTimeZone: string | null; hostId: string | null },
) {
  const { token: code, hash: confirmHash } = mintToken();
  const config = c.get('deps').config;
  const held = await holdBooking(
    c.get('db'),
    {
      hash: b.hash,
      confirmHash,
      date: b.date,
      time: b.time,
      type: b.type,
      network: networkKey(c.get('clientIp')),
      link: `/booking/${b.token}/confirm/${code}`,
      visitorTimeZone: b.visitorTimeZone,
      hostId: b.hostId,
    },
    { ...queueMailOf(config.mail), timeZone: config.businessTimeZone },
  );
  if (held === 'refused') return undefined;
  c.get('deps').outbox.nudge();
  return held;
}

/** "DO" for Dana O'Neil: what stands for a person's photo. */
const initialsOf = (name: string) =>
  name
    .split(/\s+/)
    .filter(Boolean)
    .slice(0, 2)
    .map((w) => w[0]!.toUpperCase())
    .join('');

export const bookingRoutes = createRouter()
  .openapi(hostsRoute, async (c) => {
    const settings = await getBookingSettings(c.get('db'));
    c.header('Cache-Control', 'no-store');
    if (!settings.enabled || !settings.visitors_choose_host) return c.json({ choose: false, hosts: [] }, 200);
    const hosts = await readWebsiteHostNames(c.get('db'));
    return c.json({ choose: true, hosts: hosts.map((h) => ({ ...h, initials: initialsOf(h.name) })) }, 200);
  })
  .openapi(availabilityRoute, async (c) => {
    const { from, to, host_id } = c.req.valid('query');
    const { availability, config } = c.get('deps');
    // Counted per minute (AVAILABILITY_RATE_LIMIT), so a minute is always long enough to wait.
    if (!(await availability.allow(rateLimitKey(c.get('clientIp'))))) throw tooManyRequests(60, 'requests for open times');
    const { settings, slots, lastDate } = await availability.openTimes(c.get('db'), from, to, Date.now(), host_id);
    if (host_id !== undefined && !settings.visitors_choose_host) throw noChoosing();
    c.header('Cache-Control', 'no-store');
    return c.json(
      {
        enabled: settings.enabled,
        time_zone: config.businessTimeZone,
        slot_minutes: settings.slot_minutes,
        types: settings.types,
        slots,
        last_date: lastDate,
      },
      200,
    );
  })
  .openapi(bookRoute, async (c) => {
    const body = c.req.valid('json');
    const { row, settings, hash, timeZone, hosts: stored } = await load(c, body.booking_token, body.start);
    requireBookingOpen(settings);
    if (row.expired) throw new AppError('not_found', LINK_INVALID);
    requireNoCallBooked(row);
    requireBookableType(settings, body.type);
    // No change limit here: a link books one call; moving and cancelling it are limited. The
    // website's booking limits count what an address, a network and the whole site book.
    const team = chosenTeam(settings, hostsOf(settings, stored), body.host_id);
    const { free, ...at } = requireOpenSlot(settings, timeZone, body.start, team);
    const visitorTimeZone = visitorZoneOf(body.time_zone);
    const admission = await admitWebsiteBooking(requester(c), settings);
    if (admission.confirm) {
      const held = await holdForConfirmation(c, {
        token: body.booking_token,
        hash,
        ...at,
        type: body.type,
        visitorTimeZone,
        hostId: body.host_id ?? null,
      });
      if (!held) {
        await admission.undo();
        throw new AppError(
          'rate_limited',
          `We cannot email you a confirmation link right now. ${callUs(await sitePhone(c.get('db'), c.get('deps').config))}`,
        );
      }
      const start = Date.parse(body.start);
      const view = await viewOf(c, row, body.booking_token, settings, timeZone);
      const pending = {
        start: isoInZone(start, timeZone),
        end: isoInZone(start + settings.slot_minutes * 60_000, timeZone),
        type: body.type,
        expires_at: held.expiresAt,
      };
      // A hold exists only with its confirmation email queued (holdBooking).
      return c.json({ ...view, status: 'pending' as const, expires_at: held.expiresAt, pending, emailed: true }, 202);
    }
    const made = await bookOrUndo(
      c.get('db'),
      mailOf(c),
      {
        hash,
        ...at,
        type: body.type,
        token: body.booking_token,
        settings,
        timeZone,
        team,
        hosts: assignmentOrder(free, stored, row.owner_id),
        start: body.start,
        network: networkKey(c.get('clientIp')),
        visitorTimeZone,
      },
      admission.undo,
    );
    c.get('deps').outbox.nudge();
    const booked: BookingRow = {
      ...row,
      expired: false,
      appointment: {
        id: made.id,
        start: Date.parse(body.start),
        duration_minutes: settings.slot_minutes,
        type: body.type,
        status: 'scheduled',
        sequence: 0,
        host_id: made.host_id,
        location: made.location,
      },
    };
    return c.json({ ...(await bookedViewOf(c, booked, body.booking_token, settings, timeZone, made)), emailed: made.emailed }, 201);
  })
  .openapi(confirmRoute, async (c) => {
    const { token } = c.req.valid('param');
    const { code } = c.req.valid('json');
    const timeZone = c.get('deps').config.businessTimeZone;
    const hash = hashToken(token);
    const hold = await readHold(c.get('db'), hash, hashToken(code), timeZone);
    if (!hold) throw new AppError('not_found', HOLD_UNKNOWN);
    const { row, settings, hosts: stored } = await load(c, token, isoInZone(hold.start, timeZone));
    // Clicked twice: the second answers what the first did.
    if (hold.confirmed && row.appointment && row.appointment.id === hold.appointment_id)
      return c.json(await viewOf(c, row, token, settings, timeZone), 200);
    if (hold.expired) throw new AppError('unprocessable', HOLD_EXPIRED);
    requireBookingOpen(settings);
    requireNoCallBooked(row);
    requireBookableType(settings, hold.type);
    const start = isoInZone(hold.start, timeZone);
    // The person the visitor chose when they asked, if any (whether or not visitors may still choose).
    const everyone = hostsOf(settings, stored);
    const team = hold.host_id ? everyone.filter((h) => h.id === hold.host_id) : everyone;
    const { free, ...at } = requireOpenSlot(settings, timeZone, start, team);
    const made = await bookOrUndo(
      c.get('db'),
      mailOf(c),
      {
        hash,
        ...at,
        type: hold.type,
        token,
        settings,
        timeZone,
        team,
        hosts: assignmentOrder(free, stored, row.owner_id),
        start,
        network: hold.client_network,
        visitorTimeZone: hold.visitor_time_zone,
      },
      async () => {},
    );
    await markHoldConfirmed(c.get('db'), hash, made.id);
    c.get('deps').outbox.nudge();
    const booked: BookingRow = {
      ...row,
      expired: false,
      appointment: {
        id: made.id,
        start: hold.start,
        duration_minutes: settings.slot_minutes,
        type: hold.type,
        status: 'scheduled',
        sequence: 0,
        host_id: made.host_id,
        location: made.location,
      },
    };
    return c.json({ ...(await bookedViewOf(c, booked, token, settings, timeZone, made)), emailed: made.emailed }, 200);
  })
  .openapi(readRoute, async (c) => {
    const { token } = c.req.valid('param');
    const { row, settings, hash, timeZone } = await load(c, token);
    const hold = await readPendingHold(c.get('db'), hash, timeZone);
    c.header('Cache-Control', 'no-store');
    return c.json(await viewOf(c, row, token, settings, timeZone, hold), 200);
  })
  .openapi(calendarRoute, async (c) => {
    const { token } = c.req.valid('param');
    const { row, timeZone } = await load(c, token);
    const a = row.appointment;
    if (!a) throw new AppError('not_found', 'There is no call booked through this link.');
    const { config } = c.get('deps');
    const site = await mailSite(c.get('db'), config);
    const ics = bookedCallIcs({
      uid: appointmentUid(a.id, config.mail.domain),
      sequence: a.sequence,
      start: isoInZone(a.start, timeZone),
      end: isoInZone(a.start + a.duration_minutes * 60_000, timeZone),
      type: a.type,
      cancelled: a.status === 'cancelled',
      site,
      organizer: { name: site.name, address: config.mail.from.address },
      location: a.location ?? null,
    });
    c.header('Content-Type', 'text/calendar; charset=utf-8');
    c.header('Content-Disposition', 'attachment; filename="free-call.ics"');
    c.header('Cache-Control', 'no-store');
    return c.body(ics, 200);
  })
  .openapi(rescheduleRoute, async (c) => {
    const { token } = c.req.valid('param');
    const body = c.req.valid('json');
    const { row, settings, hash, timeZone, hosts: stored } = await load(c, token, body.start);
    const current = requireChangeable(row, settings);
    requireBookableType(settings, body.type);
    await limitChanges(c.get('db'), hash);
    const { free, ...at } = requireOpenSlot(settings, timeZone, body.start, hostsOf(settings, stored, current));
    // Its host keeps it when free then; otherwise whoever a new booking would get.
    const [host] = assignmentOrder(free, stored, row.owner_id, current.host_id);
    let changed;
    try {
      changed = await changeAppointment(
        c.get('db'),
        current.id,
        { date: at.date, time: at.time, type: body.type, host_id: host },
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
      throw slotTaken(await openSlotsOn(c.get('db'), settings, timeZone, at.date, current), timeZone);
    }
    c.get('deps').outbox.nudge();
    const moved = await readBooking(c.get('db'), hash, timeZone);
    return c.json({ ...(await viewOf(c, moved!, token, settings, timeZone)), emailed: changed?.lead_emailed ?? false }, 200);
  })
  .openapi(cancelRoute, async (c) => {
    const { token } = c.req.valid('param');
    const { row, settings, hash, timeZone } = await load(c, token);
    const current = requireChangeable(row, settings);
    await limitChanges(c.get('db'), hash);
    const changed = await changeAppointment(
      c.get('db'),
      current.id,
      { status: 'cancelled' },
      { changedBy: null, mail: mailOf(c), cancelledBy: 'lead', notice: bookingNotice('cancelled'), byVisitor: true },
    );
    c.get('deps').outbox.nudge();
    const cancelled = await readBooking(c.get('db'), hash, timeZone);
    return c.json({ ...(await viewOf(c, cancelled!, token, settings, timeZone)), emailed: changed?.lead_emailed ?? false }, 200);
  });
