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
} from '#shared/schemas/booking';
import { AVAILABILITY_MAX_DAYS } from '#shared/constants';
import { bookedCallFile } from '../booking/booked-call-file.ts';
import { cancelBooking } from '../booking/cancel-booking.ts';
import type { LinkRequest } from '../booking/link-context.ts';
import { showLink } from '../booking/link-view.ts';
import { requireChoosing } from '../booking/new-booking/choose-host.ts';
import { confirmHeldBooking } from '../booking/new-booking/confirm.ts';
import { handleNewBooking } from '../booking/new-booking/new-booking.ts';
import { publicHosts } from '../booking/public-hosts.ts';
import { rescheduleBooking } from '../booking/reschedule-booking.ts';
import type { AppEnv } from '../http/context.ts';
import { tooManyRequests } from '../http/errors.ts';
import { createPublicRoute, errorResponses, jsonContent, mediaContent } from '../http/openapi.ts';
import { createRouter } from '../http/router.ts';
import { rateLimitKey } from '../lib/client-address.ts';

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

/** A request through a booking link, as booking/ takes it. */
function linkRequest(c: Context<AppEnv>): LinkRequest {
  const { config, vault, logger } = c.get('deps');
  return { db: c.get('db'), config, vault, logger, clientIp: c.get('clientIp') };
}

export const bookingRoutes = createRouter()
  .openapi(hostsRoute, async (c) => {
    const hosts = await publicHosts(c.get('db'));
    c.header('Cache-Control', 'no-store');
    return c.json(hosts, 200);
  })
  .openapi(availabilityRoute, async (c) => {
    const { from, to, host_id } = c.req.valid('query');
    const { availability, config } = c.get('deps');
    // Counted per minute (AVAILABILITY_RATE_LIMIT), so a minute is always long enough to wait.
    if (!(await availability.allow(rateLimitKey(c.get('clientIp'))))) throw tooManyRequests(60, 'requests for open times');
    const { settings, slots, lastDate } = await availability.openTimes(c.get('db'), from, to, Date.now(), host_id);
    requireChoosing(settings, host_id);
    c.header('Cache-Control', 'no-store');
    const { enabled, slot_minutes, types } = settings;
    return c.json({ enabled, time_zone: config.businessTimeZone, slot_minutes, types, slots, last_date: lastDate }, 200);
  })
  .openapi(bookRoute, async (c) => {
    const made = await handleNewBooking(linkRequest(c), c.req.valid('json'));
    c.get('deps').outbox.nudge();
    return made.held ? c.json(made.answer, 202) : c.json(made.answer, 201);
  })
  .openapi(confirmRoute, async (c) => {
    const { booked, answer } = await confirmHeldBooking(linkRequest(c), c.req.valid('param').token, c.req.valid('json').code);
    if (booked) c.get('deps').outbox.nudge();
    return c.json(answer, 200);
  })
  .openapi(readRoute, async (c) => {
    const view = await showLink(linkRequest(c), c.req.valid('param').token);
    c.header('Cache-Control', 'no-store');
    return c.json(view, 200);
  })
  .openapi(calendarRoute, async (c) => {
    const ics = await bookedCallFile(linkRequest(c), c.req.valid('param').token);
    c.header('Content-Type', 'text/calendar; charset=utf-8');
    c.header('Content-Disposition', 'attachment; filename="free-call.ics"');
    c.header('Cache-Control', 'no-store');
    return c.body(ics, 200);
  })
  .openapi(rescheduleRoute, async (c) => {
    const moved = await rescheduleBooking(linkRequest(c), c.req.valid('param').token, c.req.valid('json'));
    c.get('deps').outbox.nudge();
    return c.json(moved, 200);
  })
  .openapi(cancelRoute, async (c) => {
    const cancelled = await cancelBooking(linkRequest(c), c.req.valid('param').token);
    c.get('deps').outbox.nudge();
    return c.json(cancelled, 200);
  });
