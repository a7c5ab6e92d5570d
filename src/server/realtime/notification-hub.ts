import type { Logger } from 'pino';
import * as z from 'zod';
import { notificationSchema, type Notification } from '#shared/schemas/notification';
import type { Database } from '../db/client.ts';

export const NOTIFICATION_CHANNEL = 'crm_notifications';

const payloadSchema = z.object({ user_id: z.string(), notification: notificationSchema });
type Listener = (notification: Notification) => void;

/**
 * Fans notifications out to this process's open streams. Every process LISTENs on the
 * database channel that the notifications trigger writes to, so a lead submitted through
 * one process reaches browsers connected to any other.
 */
export class NotificationHub {
  /** Keep-alive interval of each stream (for proxies), and when it re-checks its session. */
  constructor(readonly heartbeatMs = 25_000) {}

  private readonly listeners = new Map<string, Set<Listener>>();
  private readonly streams = new Map<() => void, (() => void) | undefined>();

  /**
   * Registers an open stream's close function, so shutdown can end it, and its resync
   * function, run when notifications may have been missed; returns an untrack function.
   */
  trackStream(close: () => void, resync?: () => void): () => void {
    this.streams.set(close, resync);
    return () => this.streams.delete(close);
  }

  /** Ends every open stream (on shutdown); browsers reconnect to another process or later. */
  closeAllStreams() {
    for (const close of [...this.streams.keys()]) close();
  }

  /** Tells every open stream to refetch: the database connection was lost and is back. */
  resyncAllStreams() {
    for (const resync of [...this.streams.values()]) resync?.();
  }

  subscribe(userId: string, listener: Listener): () => void {
    let set = this.listeners.get(userId);
    if (!set) this.listeners.set(userId, (set = new Set()));
    set.add(listener);
    return () => {
      set.delete(listener);
      if (set.size === 0) this.listeners.delete(userId);
    };
  }

  get connectionCount(): number {
    let n = 0;
    for (const set of this.listeners.values()) n += set.size;
    return n;
  }

  publish(userId: string, notification: Notification) {
    for (const listener of this.listeners.get(userId) ?? []) listener(notification);
  }

  /** Starts listening on the database; resolves to a stop function. */
  async connect(database: Database, logger: Logger): Promise<() => Promise<void>> {
    return database.listen(
      NOTIFICATION_CHANNEL,
      (raw) => {
        try {
          const { user_id, notification } = payloadSchema.parse(JSON.parse(raw));
          this.publish(user_id, notification);
        } catch (err) {
          logger.warn({ err }, 'ignored a malformed notification payload');
        }
      },
      () => {
        logger.info('live notifications: listening again after losing the database');
        this.resyncAllStreams();
      },
    );
  }
}
