import * as z from 'zod';
import { CALENDAR_FEED_PAUSED, calendarFeedSchema } from '#shared/schemas/appointment';
import { storableText } from '#shared/schemas/text';
import { createAdminRoute } from '../auth/admin-route.ts';
import { listCalendarAppointments } from '../db/queries/appointments-queries.ts';
import { calendarFeedAccess, createCalendarFeed, getCalendarFeed, revokeCalendarFeed } from '../db/queries/calendar-feeds-queries.ts';
import { AppError } from '../http/errors.ts';
import { createPublicRoute, errorResponses, jsonContent, mediaContent } from '../http/openapi.ts';
import { publicOrigin } from '../http/public-origin.ts';
import { createRouter } from '../http/router.ts';
import { icalendarResponse } from '../http/icalendar-response.ts';

const getFeedRoute = createAdminRoute({
  method: 'get',
  path: '/api/calendar-feed',
  tags: ['calendar'],
  summary: 'Whether the signed-in admin has a calendar feed (its URL is shown only when created)',
  responses: { 200: jsonContent(calendarFeedSchema, 'The feed') },
});

const createFeedRoute = createAdminRoute({
  method: 'post',
  path: '/api/calendar-feed',
  tags: ['calendar'],
  summary: 'Create a private calendar feed URL, replacing (and revoking) any earlier one',
  responses: { 201: jsonContent(calendarFeedSchema, 'The new feed, with its URL') },
});

const revokeFeedRoute = createAdminRoute({
  method: 'delete',
  path: '/api/calendar-feed',
  tags: ['calendar'],
  summary: 'Revoke the calendar feed: its URL stops working',
  responses: { 200: jsonContent(calendarFeedSchema, 'Revoked') },
});

const feedIcsRoute = createPublicRoute({
  method: 'get',
  path: '/api/calendar/{token}/appointments.ics',
  tags: ['calendar'],
  summary: 'The appointments as an iCalendar feed, for calendar apps to subscribe to',
  description:
    'No cookie: the unguessable token in the path is the credential. Revoked tokens answer 404. While the team requires two-factor ' +
    'and the feed\u2019s account has not set it up, the feed answers 403 and no appointments, until it does.',
  request: { params: z.object({ token: storableText().regex(/^[A-Za-z0-9_-]{43}$/, 'Invalid feed') }) },
  responses: {
    200: mediaContent('text/calendar', 'iCalendar', z.string()),
    ...errorResponses({ 403: 'Paused: the team requires two-factor, which its account has not set up', 404: 'No such feed' }),
  },
});

export const calendarFeedRoutes = createRouter()
  .openapi(getFeedRoute, async (c) => {
    const feed = await getCalendarFeed(c.get('db'), c.get('user').id);
    return c.json({ active: Boolean(feed), created_at: feed?.created_at ?? null }, 200);
  })
  .openapi(createFeedRoute, async (c) => {
    const { token, created_at } = await createCalendarFeed(c.get('db'), c.get('user').id);
    return c.json({ active: true, created_at, url: `${publicOrigin(c).origin}/api/calendar/${token}/appointments.ics` }, 201);
  })
  .openapi(revokeFeedRoute, async (c) => {
    await revokeCalendarFeed(c.get('db'), c.get('user').id);
    return c.json({ active: false, created_at: null }, 200);
  })
  .openapi(feedIcsRoute, async (c) => {
    const access = await calendarFeedAccess(c.get('db'), c.req.valid('param').token);
    if (!access) throw new AppError('not_found', 'No such calendar feed.');
    if (access === 'paused') throw new AppError('forbidden', CALENDAR_FEED_PAUSED);
    const appointments = await listCalendarAppointments(c.get('db'), c.get('deps').config.businessTimeZone);
    return icalendarResponse(c, appointments, { 'Cache-Control': 'private, max-age=300' });
  });
