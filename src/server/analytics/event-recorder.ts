import type { AnalyticsEventRequest } from '#shared/schemas/analytics';
import type { Database } from '../db/client.ts';
import { insertAnalyticsEvents, type NewAnalyticsEvent } from '../db/queries/analytics-events.ts';
import { GroupCommit } from '../lib/group-commit.ts';
import { MemoryRateLimit } from '../lib/memory-rate-limit.ts';
import { deviceOf, referrerHostOf } from './event-sources.ts';

// Crawlers, link previews, headless browsers, monitors and HTTP libraries: not visitors.
const BOT_PATTERN = /bot|crawl|spider|slurp|preview|headless|lighthouse|pingdom|uptime|monitor|curl|wget|python-requests|go-http-client|node-fetch|axios|^$/i;
export const isBot = (userAgent: string | undefined) => BOT_PATTERN.test(userAgent ?? '');


/**
 * Records public analytics events: drops bots, limits each IP, and writes through group
 * commit so a burst becomes a few multi-row inserts. `record` resolves once the event's
 * insert has committed.
 */
export class EventRecorder {
  private readonly limiter: MemoryRateLimit | undefined;
  private readonly batches: GroupCommit<NewAnalyticsEvent>;

  /** `perIpPerMinute`: ANALYTICS_RATE_LIMIT (a person's tab sends a few a minute); 0 = no limit. */
  constructor(database: () => Database | undefined, perIpPerMinute: number) {
    this.limiter = perIpPerMinute > 0 ? new MemoryRateLimit(perIpPerMinute, 60_000) : undefined;
    // One batch in flight at a time: concurrent batches would queue on the same rollup rows
    // (the current hour of each page) anyway; meanwhile the next batch fills up.
    this.batches = new GroupCommit(
      async (rows) => {
        const db = database();
        if (!db) throw new Error('database not ready');
        await insertAnalyticsEvents(db.db, rows);
      },
      { maxBatch: 2000, maxWaitMs: 0, maxInFlight: 1 },
    );
  }

  allow(ip: string): boolean {
    return this.limiter?.hit(ip) ?? true;
  }

  /** `ownHost`: the site's host, so moving between our own pages is not counted as a referrer. */
  record(event: AnalyticsEventRequest, userAgent: string | undefined, ownHost: string): Promise<void> {
    return this.batches.add({
      referrer_host: event.event_type === 'pageview' ? (referrerHostOf(event.referrer, ownHost) ?? null) : null,
      device: deviceOf(userAgent),
      session_id: event.session_id,
      event_type: event.event_type,
      page_path: event.page_path,
      time_spent: event.event_type === 'pageview' ? null : (event.time_spent ?? 0),
      user_agent: userAgent?.slice(0, 500) ?? null,
      referrer: event.referrer || null,
      utm_source: event.utm_source || null,
      utm_medium: event.utm_medium || null,
      utm_campaign: event.utm_campaign || null,
    });
  }
}
