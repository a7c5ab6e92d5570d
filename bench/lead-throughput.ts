import { randomUUID } from 'node:crypto';
import type { PublicLeadRequest } from '#shared/schemas/lead';
import { runLoad, type LoadResult } from './lib/load.ts';

/** Lead submissions through HTTP: POST /api/public/leads, each body a new submission. */
export type ThroughputOptions = { connections: number; warmupMs: number; durationMs: number; signal?: AbortSignal };

export type ThroughputResult = {
  warmup: LoadResult;
  measured: LoadResult;
  /** Every 2xx answer of warm-up and measurement: each one is a distinct stored lead. */
  expectedLeads: number;
};

// Bound every phase in count as well as in time.
const MAX_REQUESTS = 2_000_000;

export function leadBody(): string {
  const id = randomUUID();
  const body: PublicLeadRequest = {
    full_name: 'Bench Mark',
    email: `bench+${id}@example.com`,
    phone: '(301) 555-0199',
    property_types: ['land'],
    message: 'Looking at a 12-acre parcel near Frederick; need a title and zoning review.',
    submission_id: id,
  };
  return JSON.stringify(body);
}

export async function measureLeadThroughput(origin: string, opts: ThroughputOptions): Promise<ThroughputResult> {
  const load = (durationMs: number) =>
    runLoad({
      url: `${origin}/api/public/leads`,
      method: 'POST',
      headers: { 'content-type': 'application/json', origin },
      body: leadBody,
      connections: opts.connections,
      durationMs,
      maxRequests: MAX_REQUESTS,
      signal: opts.signal,
    });
  const warmup = await load(opts.warmupMs);
  const measured = await load(opts.durationMs);
  return { warmup, measured, expectedLeads: warmup.ok2xx + measured.ok2xx };
}

const fmt = (n: number, digits = 0) => n.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits });

export function describeThroughput(label: string, r: ThroughputResult, connections: number): string[] {
  const m = r.measured;
  const lines = [
    `${label}: ${connections} connections, ${fmt(m.elapsedMs / 1000, 1)} s after ${fmt(r.warmup.elapsedMs / 1000, 1)} s warm-up`,
    `  requests/s        ${fmt(m.requestsPerSecond)}`,
    `  latency           p50 ${fmt(m.latencyMs.p50, 1)} ms   p90 ${fmt(m.latencyMs.p90, 1)} ms   p99 ${fmt(m.latencyMs.p99, 1)} ms   max ${fmt(m.latencyMs.max, 1)} ms`,
    `  answers           2xx ${fmt(m.ok2xx)}   non-2xx ${fmt(m.non2xx)}   errors ${fmt(m.errors)}` +
      `   (warm-up: 2xx ${fmt(r.warmup.ok2xx)}, non-2xx ${fmt(r.warmup.non2xx)}, errors ${fmt(r.warmup.errors)})`,
    `  load generator    ${fmt((m.clientCpuMs / m.elapsedMs) * 100)}% of one core (same machine as the server)`,
  ];
  for (const phase of [r.warmup, m]) {
    for (const [status, n] of phase.statuses) lines.push(`    status ${status}: ${fmt(n)}`);
    if (phase.firstNon2xxBody) lines.push(`    first non-2xx body: ${phase.firstNon2xxBody}`);
    for (const [kind, n] of phase.errorKinds) lines.push(`    error "${kind}": ${fmt(n)}`);
  }
  return lines;
}

export const hasNoFailures = (r: ThroughputResult) => r.warmup.non2xx + r.warmup.errors + r.measured.non2xx + r.measured.errors === 0;
