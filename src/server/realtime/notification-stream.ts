import type { SSEStreamingApi } from 'hono/streaming';
import type { Notification } from '#shared/schemas/notification';
import type { ChangeResource } from './channels.ts';
import type { NotificationHub, StreamSession } from './notification-hub.ts';

export type { SessionCheck, StreamSession } from './notification-hub.ts';

/**
 * Serves one browser tab's live notifications over an open Server-Sent Events stream, until
 * the tab goes away, the server shuts down (hub.closeAllStreams) or the session ends
 * (hub.endSession at sign-out in this process; the hub's session check for one ended
 * elsewhere, every hub.limits.sessionCheckMs):
 * - `ready` first: the browser refetches its list, so a reconnect after a restart misses nothing;
 * - `notification` for each new notification of this user, in order, once the session has been
 *   found to hold after the notification arrived: an ended session is sent nothing;
 * - `change` with `{"resource":"leads"}` or `appointments` when another request changed them
 *   (equal changes that arrive while the stream is busy are sent once): open pages refetch;
 * - `ready` again when the hub says notifications may have been missed (the database's
 *   LISTEN connection was lost and is back);
 * - a `: keep-alive` comment every hub.heartbeatMs while idle, for proxies.
 *
 * The caller has checked the hub's caps (hub.refusal) in the same tick: this registers the
 * stream before its first await.
 */
export async function serveNotificationStream(
  stream: SSEStreamingApi,
  hub: NotificationHub,
  userId: string,
  session: StreamSession,
): Promise<void> {
  const queue: Notification[] = [];
  /** When the oldest notification in `queue` arrived (performance.now()). */
  let arrivedAt = 0;
  let wake: (() => void) | undefined;
  let resync = false;
  let closed = false;
  const unsubscribe = hub.subscribe(userId, (n) => {
    if (queue.length === 0) arrivedAt = performance.now();
    queue.push(n);
    wake?.();
  });
  const changes = new Set<ChangeResource>();
  let changedAt = 0;
  const unsubscribeChanges = hub.subscribeChanges((resource) => {
    if (changes.size === 0) changedAt = performance.now();
    changes.add(resource);
    wake?.();
  });
  const untrack = hub.trackStream(
    () => {
      closed = true;
      unsubscribe();
      unsubscribeChanges();
      wake?.();
    },
    () => {
      resync = true;
      wake?.();
    },
    session,
  );
  stream.onAbort(() => {
    unsubscribe();
    unsubscribeChanges();
    wake?.();
  });
  const open = () => !stream.aborted && !closed;
  try {
    await stream.writeSSE({ event: 'ready', data: '{}', retry: 3000 });
    while (open()) {
      if (resync) {
        resync = false;
        await stream.writeSSE({ event: 'ready', data: '{}' });
        continue;
      }
      if (queue.length > 0) {
        // One check covers what has arrived so far; sign-out in this process sets `closed`.
        if ((await hub.askSession(session, arrivedAt)) === false) break;
        while (open() && queue.length > 0) {
          const next = queue.shift()!;
          await stream.writeSSE({ event: 'notification', id: next.id, data: JSON.stringify(next) });
        }
        continue;
      }
      if (changes.size > 0) {
        if ((await hub.askSession(session, changedAt)) === false) break;
        const resources = [...changes];
        changes.clear();
        for (const resource of resources) if (open()) await stream.writeSSE({ event: 'change', data: JSON.stringify({ resource }) });
        continue;
      }
      await new Promise<void>((resolve) => {
        wake = resolve;
        // This stream's heartbeat: a timer of one connection, not background work (jobs/registry.ts).
        setTimeout(resolve, hub.heartbeatMs).unref();
      });
      wake = undefined;
      if (queue.length === 0 && changes.size === 0 && !resync && open()) await stream.write(': keep-alive\n\n');
    }
  } finally {
    unsubscribe();
    unsubscribeChanges();
    untrack();
  }
}
