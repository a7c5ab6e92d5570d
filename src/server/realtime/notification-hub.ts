import type { Logger } from 'pino';
import * as z from 'zod';
import { notificationSchema, type Notification } from '#shared/schemas/notification';
import type { Database } from '../db/client.ts';
import { AfterCommit, type Announcement } from './after-commit.ts';
import { CHANGE_CHANNEL, CHANGE_RESOURCES, NOTIFICATION_CHANNEL, type ChangeResource } from './channels.ts';

const isChangeResource = (s: string): s is ChangeResource => (CHANGE_RESOURCES as readonly string[]).includes(s);

const payloadSchema = z.object({ user_id: z.string(), notification: notificationSchema });
type Listener = (notification: Notification) => void;

/**
 * Whether a stream's session still holds: true, false (signed out, password reset, admin
 * deleted), or 'unknown' when the database cannot say right now, in which case the stream
 * stays open: it was valid when it began.
 */
export type SessionCheck = () => Promise<boolean | 'unknown'>;

/** The session a stream belongs to: a key (the token's hash) and how to ask whether it holds. */
export type StreamSession = { key: string; holds: SessionCheck };

export type HubLimits = {
  /** How often the sessions of open streams are checked (one query per session, not per stream). */
  sessionCheckMs: number;
  /** Open streams one session may hold (a browser holds one per tab). */
  perSession: number;
  /** Open streams this process holds at most. */
  perProcess: number;
};

/** Five seconds: a stream ends within that of its session ending in another process (or the CLI). */
export const DEFAULT_HUB_LIMITS: HubLimits = { sessionCheckMs: 5_000, perSession: 10, perProcess: 1_000 };

type TrackedStream = { close: () => void; resync?: () => void; session?: StreamSession };

/** A session check that cannot throw: an error counts as "cannot say". */
export const safeCheck = (check: SessionCheck) => check().catch(() => 'unknown' as const);

/**
 * Fans notifications out to this process's open streams. Every process LISTENs on the
 * database channel that the notifications trigger writes to, so a lead submitted through
 * one process reaches browsers connected to any other.
 *
 * Every stream belongs to a session. Signing out through this process ends that session's
 * streams at once (endSession); a session ended elsewhere (another process, `npm run admin`)
 * is found by the check every `sessionCheckMs`, and each stream checks its session again
 * before it delivers anything.
 */
export class NotificationHub {
  readonly limits: HubLimits;

  /** Keep-alive interval of each stream (for proxies). */
  constructor(
    readonly heartbeatMs = 25_000,
    limits: Partial<HubLimits> = {},
  ) {
    this.limits = { ...DEFAULT_HUB_LIMITS, ...limits };
  }

  private readonly listeners = new Map<string, Set<Listener>>();
  private readonly streams = new Set<TrackedStream>();
  private readonly sessions = new Map<string, { holds: SessionCheck; streams: Set<TrackedStream> }>();
  private sessionTimer: NodeJS.Timeout | undefined;
  private checking = false;

  /**
   * Registers an open stream's close function, so shutdown or the end of its session can end
   * it, and its resync function, run when notifications may have been missed; returns an
   * untrack function.
   */
  trackStream(close: () => void, resync?: () => void, session?: StreamSession): () => void {
    const tracked: TrackedStream = { close, resync, session };
    this.streams.add(tracked);
    if (session) {
      let entry = this.sessions.get(session.key);
      if (!entry) this.sessions.set(session.key, (entry = { holds: session.holds, streams: new Set() }));
      entry.streams.add(tracked);
      // A timer of the open streams, not background work (jobs/registry.ts lists that): it runs
      // only while a stream with a session is open, and the last one to close clears it.
      this.sessionTimer ??= setInterval(() => void this.checkSessions(), this.limits.sessionCheckMs).unref();
    }
    return () => {
      this.streams.delete(tracked);
      if (!session) return;
      const entry = this.sessions.get(session.key);
      entry?.streams.delete(tracked);
      if (entry?.streams.size === 0) this.sessions.delete(session.key);
      if (this.sessions.size === 0 && this.sessionTimer) {
        clearInterval(this.sessionTimer);
        this.sessionTimer = undefined;
      }
    };
  }

  /** Why one more stream of this session is refused ('session' or 'process' cap), or undefined. */
  refusal(sessionKey: string): 'session' | 'process' | undefined {
    if (this.streams.size >= this.limits.perProcess) return 'process';
    if ((this.sessions.get(sessionKey)?.streams.size ?? 0) >= this.limits.perSession) return 'session';
    return undefined;
  }

  /** Number of open streams (of one session, or in all). */
  streamCount(sessionKey?: string): number {
    return sessionKey === undefined ? this.streams.size : (this.sessions.get(sessionKey)?.streams.size ?? 0);
  }

  /** Ends every open stream of a session now (it was signed out); returns how many. */
  endSession(sessionKey: string): number {
    const streams = [...(this.sessions.get(sessionKey)?.streams ?? [])];
    for (const stream of streams) stream.close();
    return streams.length;
  }

  private readonly asking = new Map<string, { since: number; answer: ReturnType<typeof safeCheck> }>();

  /**
   * Whether `session` holds, by a check started no earlier than `since` (performance.now()):
   * the streams of one session that get the same notification share one query rather than
   * ask one each (1,000 tabs, one query).
   */
  askSession(session: StreamSession, since: number): ReturnType<typeof safeCheck> {
    const asked = this.asking.get(session.key);
    if (asked && asked.since >= since) return asked.answer;
    const entry = { since: performance.now(), answer: safeCheck(session.holds) };
    this.asking.set(session.key, entry);
    void entry.answer.finally(() => {
      if (this.asking.get(session.key) === entry) this.asking.delete(session.key);
    });
    return entry.answer;
  }

  /** Asks once per session whether it holds, and ends the streams of those that do not. */
  async checkSessions(): Promise<void> {
    if (this.checking) return; // the previous round is still waiting on the database
    this.checking = true;
    try {
      await Promise.all(
        [...this.sessions].map(async ([key, { holds }]) => {
          if ((await safeCheck(holds)) === false) this.endSession(key);
        }),
      );
    } finally {
      this.checking = false;
    }
  }

  /** Ends every open stream (on shutdown); browsers reconnect to another process or later. */
  closeAllStreams() {
    for (const stream of [...this.streams]) stream.close();
  }

  /** Tells every open stream to refetch: the database connection was lost and is back. */
  resyncAllStreams() {
    for (const stream of [...this.streams]) stream.resync?.();
  }

  private readonly changeListeners = new Set<(resource: ChangeResource) => void>();

  /** Every open stream hears of every change (all admins see all leads); returns an unsubscribe function. */
  subscribeChanges(listener: (resource: ChangeResource) => void): () => void {
    this.changeListeners.add(listener);
    return () => this.changeListeners.delete(listener);
  }

  publishChange(resource: ChangeResource) {
    for (const listener of this.changeListeners) listener(resource);
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

  private afterCommit: AfterCommit | undefined;

  /**
   * What a committed transaction that chose LIVE_AFTER_COMMIT changed, told to every process's
   * streams (realtime/after-commit.ts). Nothing before `connect`: nobody listens yet.
   */
  announce(announcement: Announcement): void {
    this.afterCommit?.announce(announcement);
  }

  /** Starts listening on the database; resolves to a stop function. */
  async connect(database: Database, logger: Logger): Promise<() => Promise<void>> {
    const afterCommit = new AfterCommit(database, logger, { changes: CHANGE_CHANNEL, notifications: NOTIFICATION_CHANNEL });
    this.afterCommit = afterCommit;
    const stopChanges = await database.listen(CHANGE_CHANNEL, (raw) => {
      if (isChangeResource(raw)) this.publishChange(raw);
    });
    const stopNotifications = await database.listen(
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
    return async () => {
      if (this.afterCommit === afterCommit) this.afterCommit = undefined;
      await afterCommit.drain();
      await stopNotifications();
      await stopChanges();
    };
  }
}
