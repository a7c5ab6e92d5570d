/**
 * A day on the open internet, compressed: 95% public traffic (the landing page and its
 * analytics events), 4% lead submissions and 1% admin reads, from many connections at once,
 * against one server process. Every request must succeed, and every acknowledged lead and
 * event must be in the database afterwards.
 */
import { eventBody } from './analytics.ts';
import { leadBody } from './lead-throughput.ts';
import { runLoad, type LoadResult, type RequestSpec } from './lib/load.ts';

const BROWSER = 'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Mobile Safari/537.36';

const ADMIN_READS = [
  '/api/leads?page=1',
  '/api/overview',
  '/api/analytics/summary?period=7d',
  '/api/appointments',
  '/api/notifications',
  '/api/leads?search=bench&status=New',
];

/** The share of each kind of request, in percent (they add up to 100). */
export const MIX = { page: 30, event: 65, lead: 4, admin: 1 } as const;

/** A visitor's address of its own (10.0.0.0/8), as a trusted proxy in front would pass it on. */
const visitorAddress = () =>
  `10.${Math.floor(Math.random() * 256)}.${Math.floor(Math.random() * 256)}.${1 + Math.floor(Math.random() * 254)}`;

/**
 * `visitors`: each public request comes from a visitor of its own (X-Forwarded-For, believed
 * from a trusted proxy), so the per-IP rate limits can stay on as in production.
 */
export function mixedRequests(origin: string, adminCookie: string, visitors = false): () => RequestSpec {
  let adminTurn = 0;
  const from = (): Record<string, string> =>
    visitors ? { 'user-agent': BROWSER, 'x-forwarded-for': visitorAddress() } : { 'user-agent': BROWSER };
  return (): RequestSpec => {
    const r = Math.random() * 100;
    if (r < MIX.page) return { kind: 'page', path: '/', method: 'GET', headers: from(), body: '' };
    if (r < MIX.page + MIX.event) {
      return {
        kind: 'event',
        path: '/api/public/events',
        method: 'POST',
        headers: { 'content-type': 'application/json', ...from() },
        body: eventBody(),
      };
    }
    if (r < MIX.page + MIX.event + MIX.lead) {
      return {
        kind: 'lead',
        path: '/api/public/leads',
        method: 'POST',
        headers: { 'content-type': 'application/json', origin, ...from() },
        body: leadBody(),
      };
    }
    const path = ADMIN_READS[adminTurn++ % ADMIN_READS.length]!;
    return { kind: 'admin', path, method: 'GET', headers: { cookie: adminCookie }, body: '' };
  };
}

export type MixedResult = { warmup: LoadResult; measured: LoadResult };

export async function measureMixedLoad(
  origin: string,
  adminCookie: string,
  opts: { connections: number; warmupMs: number; durationMs: number; signal?: AbortSignal; visitors?: boolean },
): Promise<MixedResult> {
  const run = (durationMs: number) =>
    runLoad({
      url: `${origin}/`,
      method: 'GET',
      headers: {},
      body: () => '',
      pick: mixedRequests(origin, adminCookie, opts.visitors),
      connections: opts.connections,
      durationMs,
      maxRequests: 20_000_000,
      signal: opts.signal,
    });
  const warmup = await run(opts.warmupMs);
  const measured = await run(opts.durationMs);
  return { warmup, measured };
}

/** Acknowledged (2xx) requests of one kind over warm-up and measurement: what must be stored. */
export const acknowledged = (r: MixedResult, kind: string) =>
  (r.warmup.byKind.get(kind)?.ok2xx ?? 0) + (r.measured.byKind.get(kind)?.ok2xx ?? 0);

const fmt = (n: number, digits = 0) => n.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits });

export function describeMixed(r: MixedResult, connections: number, peakRssBytes: number | undefined): string[] {
  const m = r.measured;
  const lines = [
    `  ${connections} connections, ${fmt(m.elapsedMs / 1000, 1)} s after ${fmt(r.warmup.elapsedMs / 1000, 1)} s warm-up`,
    `  throughput        ${fmt(m.requestsPerSecond)} requests/s`,
    `  latency           p50 ${fmt(m.latencyMs.p50, 1)} ms   p99 ${fmt(m.latencyMs.p99, 1)} ms   max ${fmt(m.latencyMs.max, 1)} ms`,
    `  errors            ${fmt(m.non2xx + m.errors + r.warmup.non2xx + r.warmup.errors)} (non-2xx or failed requests, warm-up included)`,
    `  server peak RSS   ${peakRssBytes === undefined ? 'unknown' : `${fmt(peakRssBytes / 1024 / 1024)} MiB`}`,
    `  load generator    ${fmt((m.clientCpuMs / m.elapsedMs) * 100)}% of one core (same machine as the server)`,
  ];
  for (const [kind, k] of [...m.byKind].sort((a, b) => b[1].sent - a[1].sent)) {
    lines.push(
      `    ${kind.padEnd(6)} ${fmt(k.sent).padStart(9)} sent (${fmt((k.sent / m.sent) * 100, 1)}%), p50 ${fmt(k.latencyMs.p50, 1)} ms, p99 ${fmt(k.latencyMs.p99, 1)} ms, failed ${fmt(k.failed)}`,
    );
  }
  for (const phase of [r.warmup, m]) {
    for (const [status, n] of phase.statuses) lines.push(`    status ${status}: ${fmt(n)}`);
    if (phase.firstNon2xxBody) lines.push(`    first non-2xx body: ${phase.firstNon2xxBody}`);
    for (const [kind, n] of phase.errorKinds) lines.push(`    error "${kind}": ${fmt(n)}`);
  }
  return lines;
}
