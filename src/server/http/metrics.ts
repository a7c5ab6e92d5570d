import { timingSafeEqual } from 'node:crypto';
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import { countQueuedEmails } from '../db/queries/emails-queries.ts';
import type { AppDeps } from '../deps.ts';

/**
 * GET /metrics in Prometheus' text format, for a scraper holding METRICS_TOKEN: requests by
 * route and status, their latency, analytics event batches written, the email outbox's queue,
 * the PostgreSQL pool and open notification streams, with Node's own process figures. Each
 * process answers for itself (scrape every process).
 */
export class Metrics {
  readonly registry = new Registry();
  readonly #requests: Counter<'method' | 'route' | 'status'>;
  readonly #latency: Histogram<'method' | 'route'>;

  constructor(deps: Pick<AppDeps, 'database' | 'hub' | 'events'>) {
    const registers = [this.registry];
    collectDefaultMetrics({ register: this.registry, prefix: 'crm_' });
    this.#requests = new Counter({
      name: 'crm_http_requests_total',
      help: 'HTTP requests answered, by route and status',
      labelNames: ['method', 'route', 'status'],
      registers,
    });
    this.#latency = new Histogram({
      name: 'crm_http_request_duration_seconds',
      help: 'Time to answer, by route',
      labelNames: ['method', 'route'],
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
      registers,
    });
    new Gauge({
      name: 'crm_analytics_event_batches_written',
      help: 'Batches of analytics events written since start (group commit)',
      registers,
      collect() {
        this.set(deps.events.written.batches);
      },
    });
    new Gauge({
      name: 'crm_analytics_events_written',
      help: 'Analytics events written since start',
      registers,
      collect() {
        this.set(deps.events.written.events);
      },
    });
    new Gauge({
      name: 'crm_notification_streams_open',
      help: 'Live notification streams open on this process',
      registers,
      collect() {
        this.set(deps.hub.streamCount());
      },
    });
    new Gauge({
      name: 'crm_email_outbox_queued',
      help: 'Emails waiting to be sent',
      registers,
      async collect() {
        const database = deps.database();
        if (database) this.set(await countQueuedEmails(database.db));
      },
    });
    new Gauge({
      name: 'crm_db_pool_connections',
      help: 'PostgreSQL pool connections, by state (total, idle, waiting queries)',
      labelNames: ['state'],
      registers,
      collect() {
        const stats = deps.database()?.poolStats?.();
        if (!stats) return;
        this.set({ state: 'total' }, stats.total);
        this.set({ state: 'idle' }, stats.idle);
        this.set({ state: 'waiting' }, stats.waiting);
      },
    });
  }

  /** One answered request; `route` is the matched pattern (never the raw path: ids would explode the labels). */
  observe(method: string, route: string, status: number, seconds: number): void {
    this.#requests.inc({ method, route, status: String(status) });
    this.#latency.observe({ method, route }, seconds);
  }
}

/** The scraper's `Authorization: Bearer <token>`, compared in constant time. */
export function hasMetricsToken(header: string | undefined, token: string): boolean {
  const sent = Buffer.from(/^Bearer (.+)$/.exec(header ?? '')?.[1] ?? '');
  const expected = Buffer.from(token);
  return sent.length === expected.length && timingSafeEqual(sent, expected);
}
