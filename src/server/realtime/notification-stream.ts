import type { SSEStreamingApi } from 'hono/streaming';
import type { Notification } from '#shared/schemas/notification';
import type { NotificationHub } from './notification-hub.ts';

/**
 * Whether the stream's session still holds: true, false (signed out, password reset, admin
 * deleted), or 'unknown' when the database cannot say right now, in which case the stream
 * stays open: it was valid when it began.
 */
export type SessionCheck = () => Promise<boolean | 'unknown'>;

/**
 * Serves one browser tab's live notifications over an open Server-Sent Events stream, until
 * the tab goes away, the server shuts down (hub.closeAllStreams) or the session ends:
 * - `ready` first: the browser refetches its list, so a reconnect after a restart misses nothing;
 * - `notification` for each new notification of this user, in order;
 * - `ready` again when the hub says notifications may have been missed (the database's
 *   LISTEN connection was lost and is back);
 * - a `: keep-alive` comment every hub.heartbeatMs while idle, for proxies, after checking
 *   that the session still holds (so a signed-out session's stream ends within that time).
 */
export async function serveNotificationStream(stream: SSEStreamingApi, hub: NotificationHub, userId: string, sessionHolds: SessionCheck): Promise<void> {
  const queue: Notification[] = [];
  let wake: (() => void) | undefined;
  let resync = false;
  let closed = false;
  const unsubscribe = hub.subscribe(userId, (n) => {
    queue.push(n);
    wake?.();
  });
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
    await stream.writeSSE({ event: 'ready', data: '{}', retry: 3000 });
    while (!stream.aborted && !closed) {
      if (resync) {
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
        if ((await sessionHolds()) === false) break;
        await stream.write(': keep-alive\n\n');
      }
    }
  } finally {
    unsubscribe();
    untrack();
  }
}
