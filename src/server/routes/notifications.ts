import { z } from '@hono/zod-openapi';
import { streamSSE } from 'hono/streaming';
import { errorResponseSchema } from '#shared/schemas/error';
import {
  countResponseSchema,
  notificationIdParamSchema,
  notificationListSchema,
  type Notification,
} from '#shared/schemas/notification';
import { createAdminRoute } from '../auth/admin-route.ts';
import { readSessionToken } from '../auth/session-cookie.ts';
import { databaseFault } from '../db/database-faults.ts';
import { findSessionUser } from '../db/queries/sessions.ts';
import {
  clearNotifications,
  listNotifications,
  markAllNotificationsRead,
  markNotificationRead,
} from '../db/queries/notifications.ts';
import { AppError } from '../http/errors.ts';
import { createRouter, requireDb } from '../http/router.ts';

const errorJson = { 'application/json': { schema: errorResponseSchema } };
const countJson = { 'application/json': { schema: countResponseSchema } };

const listRoute = createAdminRoute({
  method: 'get',
  path: '/api/notifications',
  tags: ['notifications'],
  summary: "The signed-in admin's notifications, newest first",
  responses: { 200: { description: 'Notifications', content: { 'application/json': { schema: notificationListSchema } } } },
});

const markReadRoute = createAdminRoute({
  method: 'post',
  path: '/api/notifications/{id}/read',
  tags: ['notifications'],
  summary: 'Mark one notification read',
  request: { params: notificationIdParamSchema },
  responses: {
    200: { description: 'Marked read', content: countJson },
    404: { description: 'No such notification for this user', content: errorJson },
  },
});

const markAllRoute = createAdminRoute({
  method: 'post',
  path: '/api/notifications/read-all',
  tags: ['notifications'],
  summary: "Mark all of the signed-in admin's notifications read",
  responses: { 200: { description: 'How many were marked', content: countJson } },
});

const clearRoute = createAdminRoute({
  method: 'delete',
  path: '/api/notifications',
  tags: ['notifications'],
  summary: "Delete all of the signed-in admin's notifications",
  responses: { 200: { description: 'How many were deleted', content: countJson } },
});

const streamRoute = createAdminRoute({
  method: 'get',
  path: '/api/notifications/stream',
  tags: ['notifications'],
  summary: 'Server-Sent Events: `ready` on connect (refetch the list), then `notification` for each new one',
  responses: { 200: { description: 'An event stream', content: { 'text/event-stream': { schema: z.string() } } } },
});

export const notificationRoutes = createRouter()
  .openapi(listRoute, async (c) => {
    const notifications = await listNotifications(requireDb(c), c.get('user').id);
    return c.json({ notifications }, 200);
  })
  .openapi(markAllRoute, async (c) => c.json({ count: await markAllNotificationsRead(requireDb(c), c.get('user').id) }, 200))
  .openapi(markReadRoute, async (c) => {
    const found = await markNotificationRead(requireDb(c), c.get('user').id, c.req.valid('param').id);
    if (!found) throw new AppError('not_found', 'Notification not found.');
    return c.json({ count: 1 }, 200);
  })
  .openapi(clearRoute, async (c) => c.json({ count: await clearNotifications(requireDb(c), c.get('user').id) }, 200))
  .openapi(streamRoute, (c) => {
    const { hub } = c.get('deps');
    const userId = c.get('user').id;
    const token = readSessionToken(c);
    c.header('Cache-Control', 'no-store');
    c.header('X-Accel-Buffering', 'no'); // nginx: do not buffer the stream
    return streamSSE(c, async (stream) => {
      const queue: Notification[] = [];
      let wake: (() => void) | undefined;
      let resync = false;
      const unsubscribe = hub.subscribe(userId, (n) => {
        queue.push(n);
        wake?.();
      });
      let closed = false;
      const untrack = hub.trackStream(
        () => {
          closed = true;
          wake?.();
        },
        () => {
          resync = true;
          wake?.();
        },
      );
      stream.onAbort(() => {
        unsubscribe();
        wake?.();
      });
      try {
        // The browser refetches on `ready`, so a reconnect after a restart misses nothing.
        await stream.writeSSE({ event: 'ready', data: '{}', retry: 3000 });
        while (!stream.aborted && !closed) {
          if (resync) {
            // Notifications may have been missed while the database was away: refetch.
            resync = false;
            await stream.writeSSE({ event: 'ready', data: '{}' });
            continue;
          }
          const next = queue.shift();
          if (next) {
            await stream.writeSSE({ event: 'notification', id: next.id, data: JSON.stringify(next) });
            continue;
          }
          await new Promise<void>((resolve) => {
            wake = resolve;
            setTimeout(resolve, hub.heartbeatMs).unref();
          });
          wake = undefined;
          if (queue.length === 0 && !resync && !stream.aborted && !closed) {
            // The session may have ended meanwhile (sign-out, password reset, user deleted).
            // While the database is unreachable the stream stays open: it was valid when it began.
            const database = c.get('deps').database();
            const user = token && database ? await findSessionUser(database.db, token).catch((err: unknown) => {
                  if (databaseFault(err)) return 'unknown' as const;
                  throw err;
                }) : undefined;
            if (!user) break;
            await stream.write(': keep-alive\n\n');
          }
        }
      } finally {
        unsubscribe();
        untrack();
      }
    });
  });
