import { createRoute, z } from '@hono/zod-openapi';
import { calendarFeedSchema } from '#shared/schemas/appointment';
import { errorResponseSchema } from '#shared/schemas/error';
import { createAdminRoute } from '../auth/admin-route.ts';
import { listCalendarAppointments } from '../db/queries/appointments.ts';
import { createCalendarFeed, getCalendarFeed, isCalendarFeedToken, revokeCalendarFeed } from '../db/queries/calendar-feeds.ts';
import { AppError } from '../http/errors.ts';
import { toICalendar } from '../lib/icalendar.ts';
import { publicOrigin } from '../http/public-origin.ts';
import { createRouter, requireDb } from '../http/router.ts';

const feedJson = { 'application/json': { schema: calendarFeedSchema } };

const getFeedRoute = createAdminRoute({
  method: 'get',
  path: '/api/calendar-feed',
  tags: ['calendar'],
  summary: "Whether the signed-in admin has a calendar feed (its URL is shown only when created)",
  responses: { 200: { description: 'The feed', content: feedJson } },
});

const createFeedRoute = createAdminRoute({
  method: 'post',
  path: '/api/calendar-feed',
  tags: ['calendar'],
  summary: 'Create a private calendar feed URL, replacing (and revoking) any earlier one',
  responses: { 201: { description: 'The new feed, with its URL', content: feedJson } },
});

const revokeFeedRoute = createAdminRoute({
  method: 'delete',
  path: '/api/calendar-feed',
  tags: ['calendar'],
  summary: 'Revoke the calendar feed: its URL stops working',
  responses: { 200: { description: 'Revoked', content: feedJson } },
});

const feedIcsRoute = createRoute({
  method: 'get',
  path: '/api/calendar/{token}/appointments.ics',
  tags: ['calendar'],
  summary: 'The appointments as an iCalendar feed, for calendar apps to subscribe to',
  description: 'No cookie: the unguessable token in the path is the credential. Revoked tokens answer 404.',
  security: [],
  request: { params: z.object({ token: z.string().regex(/^[A-Za-z0-9_-]{43}$/, 'Invalid feed') }) },
  responses: {
    200: { description: 'iCalendar', content: { 'text/calendar': { schema: z.string() } } },
    404: { description: 'No such feed', content: { 'application/json': { schema: errorResponseSchema } } },
  },
});

export const calendarFeedRoutes = createRouter()
  .openapi(getFeedRoute, async (c) => {
    const feed = await getCalendarFeed(requireDb(c), c.get('user').id);
    return c.json({ active: Boolean(feed), created_at: feed?.created_at ?? null }, 200);
  })
  .openapi(createFeedRoute, async (c) => {
    const { token, created_at } = await createCalendarFeed(requireDb(c), c.get('user').id);
    return c.json({ active: true, created_at, url: `${publicOrigin(c).origin}/api/calendar/${token}/appointments.ics` }, 201);
  })
  .openapi(revokeFeedRoute, async (c) => {
    await revokeCalendarFeed(requireDb(c), c.get('user').id);
    return c.json({ active: false, created_at: null }, 200);
  })
  .openapi(feedIcsRoute, async (c) => {
    const db = requireDb(c);
    if (!(await isCalendarFeedToken(db, c.req.valid('param').token))) throw new AppError('not_found', 'No such calendar feed.');
    const { config } = c.get('deps');
    const appointments = await listCalendarAppointments(db, config.businessTimeZone);
    c.header('Content-Type', 'text/calendar; charset=utf-8');
    c.header('Cache-Control', 'private, max-age=300');
    return c.body(toICalendar(appointments, { siteName: config.site.name, timeZone: config.businessTimeZone, host: new URL(c.req.url).hostname }), 200);
  });
