import * as z from 'zod';
import { streamSSE } from 'hono/streaming';
import { countResponseSchema, notificationIdParamSchema, notificationListSchema } from '#shared/schemas/notification';
import { createAdminRoute } from '../auth/admin-route.ts';
import { readSessionToken } from '../auth/session-cookie.ts';
import { databaseFault } from '../db/database-faults.ts';
import { findSessionUser } from '../db/queries/sessions-queries.ts';
import { hashToken } from '../lib/secret-token.ts';
import {
  clearNotifications,
  listNotifications,
  markAllNotificationsRead,
  markNotificationRead,
} from '../db/queries/notifications-queries.ts';
import { AppError, tooManyRequests } from '../http/errors.ts';
import { errorResponses, jsonContent, mediaContent } from '../http/openapi.ts';
import { createRouter } from '../http/router.ts';
import { serveNotificationStream } from '../realtime/notification-stream.ts';

/** A browser's EventSource retries on its own; an answer to a person says when. */
const STREAM_RETRY_SECONDS = 30;

const listRoute = createAdminRoute({
  method: 'get',
  path: '/api/notifications',
  tags: ['notifications'],
  summary: "The signed-in admin's notifications, newest first",
  description: 'With the business time zone, in which the dashboard shows their times.',
  responses: { 200: jsonContent(notificationListSchema, 'Notifications') },
});

const markReadRoute = createAdminRoute({
  method: 'post',
  path: '/api/notifications/{id}/read',
  tags: ['notifications'],
  summary: 'Mark one notification read',
  request: { params: notificationIdParamSchema },
  responses: { 200: jsonContent(countResponseSchema, 'Marked read'), ...errorResponses({ 404: 'No such notification for this user' }) },
});

const markAllRoute = createAdminRoute({
  method: 'post',
  path: '/api/notifications/read-all',
  tags: ['notifications'],
  summary: "Mark all of the signed-in admin's notifications read",
  responses: { 200: jsonContent(countResponseSchema, 'How many were marked') },
});

const clearRoute = createAdminRoute({
  method: 'delete',
  path: '/api/notifications',
  tags: ['notifications'],
  summary: "Delete all of the signed-in admin's notifications",
  responses: { 200: jsonContent(countResponseSchema, 'How many were deleted') },
});

const streamRoute = createAdminRoute({
  method: 'get',
  path: '/api/notifications/stream',
  tags: ['notifications'],
  summary: 'Server-Sent Events: `ready` on connect (refetch the list), then `notification` for each new one',
  description: 'The stream ends when its session ends. At most 10 open streams per session and 1,000 per server process.',
  responses: {
    200: mediaContent('text/event-stream', 'An event stream', z.string()),
    ...errorResponses({ 429: 'Too many open streams for this session, or on this server' }),
  },
});

export const notificationRoutes = createRouter()
  .openapi(listRoute, async (c) =>
    c.json(
      { notifications: await listNotifications(c.get('db'), c.get('user').id), time_zone: c.get('deps').config.businessTimeZone },
      200,
    ),
  )
  .openapi(markAllRoute, async (c) => c.json({ count: await markAllNotificationsRead(c.get('db'), c.get('user').id) }, 200))
  .openapi(markReadRoute, async (c) => {
    const found = await markNotificationRead(c.get('db'), c.get('user').id, c.req.valid('param').id);
    if (!found) throw new AppError('not_found', 'Notification not found.');
    return c.json({ count: 1 }, 200);
  })
  .openapi(clearRoute, async (c) => c.json({ count: await clearNotifications(c.get('db'), c.get('user').id) }, 200))
  .openapi(streamRoute, (c) => {
    const deps = c.get('deps');
    const user = c.get('user');
    const token = readSessionToken(c)!; // requireUser found its session
    const key = hashToken(token);
    // Each tab holds a stream; past the caps a stuck client or a script opening streams in a loop is refused.
    const refused = deps.hub.refusal(key);
    if (refused === 'session')
      throw tooManyRequests(STREAM_RETRY_SECONDS, 'live notification streams are open for this sign-in: close some tabs');
    if (refused === 'process') throw tooManyRequests(STREAM_RETRY_SECONDS, 'live notification streams are open on this server');
    c.header('Cache-Control', 'no-store');
    c.header('X-Accel-Buffering', 'no'); // nginx: do not buffer the stream
    // The session is read again from the database each time: it may end while the stream is open.
    const sessionHolds = async () => {
      const database = deps.database(); // undefined once the server is shutting down
      if (!database) return false;
      try {
        return (await findSessionUser(database.db, token)) !== undefined;
      } catch (err) {
        if (databaseFault(err)) return 'unknown' as const;
        throw err;
      }
    };
    // streamSSE starts the callback in this tick, so the stream is counted before another request is checked.
    return streamSSE(c, (stream) => serveNotificationStream(stream, deps.hub, user.id, { key, holds: sessionHolds }));
  });
