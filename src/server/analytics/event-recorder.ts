import { ANALYTICS_TEXT_LIMITS } from '#shared/constants';
import type { AnalyticsEventRequest } from '#shared/schemas/analytics';
import type { Database } from '../db/client.ts';
import { databaseFault } from '../db/database-faults.ts';
import { insertAnalyticsEvents, type NewAnalyticsEvent } from '../db/queries/analytics-events-queries.ts';
import { GroupCommit } from '../lib/group-commit.ts';
import { SharedRateLimit } from './shared-rate-limit.ts';
import { sql } from 'drizzle-orm';
import { execute } from '../db/sql.ts';
import { CHANGE_CHANNEL } from '../realtime/channels.ts';

const ANNOUNCE_MS = 2_000;
import { deviceOf, referrerHostOf } from './event-sources.ts';
import { SessionPaths } from './session-paths.ts';

// Crawlers, link previews, headless browsers, monitors and HTTP libraries: not visitors.
const BOT_PATTERN =
  /bot|crawl|spider|slurp|preview|headless|lighthouse|pingdom|uptime|monitor|curl|wget|python-requests|go-http-client|node-fetch|axios|^$/i;
export const isBot = (userAgent: string | undefined) => BOT_PATTERN.test(userAgent ?? '');

/** The first `max` characters, without cutting a surrogate pair in two. */
export function clipText(text: string, max: number): string {
  if (text.length <= max) return text;
  const cut = text.slice(0, max);
  return /[\ud800-\udbff]$/.test(cut) ? cut.slice(0, -1) : cut;
}

class DatabaseNotReady extends Error {
  constructor() {
    super('database not ready');
  }
}

/**
 * Records public analytics events: drops bots, limits each IP (across processes), and writes through group
 * commit so a burst becomes a few multi-row inserts. `record` resolves once the event's
 * insert has committed.
 */
export class EventRecorder {
  private readonly limiter: SharedRateLimit | undefined;
  private readonly batches: GroupCommit<NewAnalyticsEvent>;
  private readonly sessionPaths = new SessionPaths();
  private lastAnnounce = 0;
  private announceTimer: ReturnType<typeof setTimeout> | undefined;
  /** Batches written and the events in them, since start (for /metrics). */
  readonly written = { batches: 0, events: 0 };

  /** `perIpPerMinute`: ANALYTICS_RATE_LIMIT (a person's tab sends a few a minute), shared by every app process; 0 = no limit. */
  constructor(database: () => Database | undefined, perIpPerMinute: number) {
    this.limiter = perIpPerMinute > 0 ? new SharedRateLimit(database, perIpPerMinute, 60) : undefined;
    // One batch in flight at a time: concurrent batches would queue on the same rollup rows
    // (the current hour of each page) anyway; meanwhile the next batch fills up.
    this.batches = new GroupCommit(
      async (rows) => {
        const db = database();
        if (!db) throw new DatabaseNotReady();
        await insertAnalyticsEvents(db.db, rows);
        this.written.batches++;
        this.written.events += rows.length;
        this.announce(db);
      },
      // A batch that fails for one event's sake is retried without it (halving), so an event
      // the database refuses fails only its own request; a database that cannot serve fails
      // the batch at once (every half would fail the same way).
      {
        maxBatch: 2000,
        maxWaitMs: 0,
        maxInFlight: 1,
        isolates: (err) => !(err instanceof DatabaseNotReady) && databaseFault(err) === undefined,
      },
    );
  }

  /**
   * Tells every process's open streams that visitors moved ("Now" on the Analytics page), at
   * most once per ANNOUNCE_MS: the first batch at once, later ones at the end of the window.
   */
  private announce(db: Database): void {
    const send = () => {
      this.lastAnnounce = Date.now();
      // Only a hint for open pages; the next batch announces again. The database may have
      // closed meanwhile (a late timer at shutdown): that is no error either.
      try {
        execute(db.db, sql`select pg_notify(${CHANGE_CHANNEL}, 'analytics')`).catch(() => undefined);
      } catch {
        // closed
      }
    };
    const wait = this.lastAnnounce + ANNOUNCE_MS - Date.now();
    if (wait <= 0) send();
    else
      this.announceTimer ??= setTimeout(() => {
        this.announceTimer = undefined;
        send();
      }, wait).unref();
  }

  /** Counts one event from `ip` (its rate-limit key); false when past the limit. */
  async allow(ip: string): Promise<boolean> {
    return this.limiter ? this.limiter.hit(`events:${ip}`) : true;
  }

  /** `ownHost`: the site's host, so moving between our own pages is not counted as a referrer. */
  record(event: AnalyticsEventRequest, userAgent: string | undefined, ownHost: string): Promise<void> {
    return this.batches.add({
      referrer_host: event.event_type === 'pageview' ? (referrerHostOf(event.referrer, ownHost) ?? null) : null,
      device: deviceOf(userAgent),
      session_id: event.session_id,
      event_type: event.event_type,
      page_path: this.sessionPaths.pathFor(event.session_id, clipText(event.page_path, ANALYTICS_TEXT_LIMITS.path)),
      time_spent: event.event_type === 'heartbeat' || event.event_type === 'time_spent' ? (event.time_spent ?? 0) : null,
      user_agent: userAgent ? clipText(userAgent, ANALYTICS_TEXT_LIMITS.userAgent) : null,
      referrer: event.referrer ? clipText(event.referrer, ANALYTICS_TEXT_LIMITS.referrer) : null,
      utm_source: event.utm_source || null,
      utm_medium: event.utm_medium || null,
      utm_campaign: event.utm_campaign || null,
    });
  }
}
