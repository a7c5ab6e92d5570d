import http from 'node:http';
import { performance } from 'node:perf_hooks';

/**
 * A closed-loop HTTP load generator: `connections` workers, each sending one request at a
 * time over a keep-alive socket until the time or request budget runs out. Unlike a tool
 * that cuts sockets at the deadline, it waits for every request it sent, so "answered 2xx"
 * is exact and can be compared with what the database stored.
 */
export type LoadOptions = {
  url: string;
  method: 'GET' | 'POST';
  headers: Record<string, string>;
  /** A fresh body for every request. */
  body: () => string;
  connections: number;
  durationMs: number;
  maxRequests: number;
  requestTimeoutMs?: number;
  /** Stops sending new requests (e.g. on Ctrl-C). */
  signal?: AbortSignal;
  /**
   * A mixed workload: each request's kind, path, method, headers and body, chosen per
   * request (overrides url's path, method, headers and body). Results are also kept by kind.
   */
  pick?: () => RequestSpec;
};

export type RequestSpec = { kind: string; path: string; method: 'GET' | 'POST'; headers: Record<string, string>; body: string };

export type KindResult = { sent: number; ok2xx: number; failed: number; latencyMs: { p50: number; p99: number } };

export type LoadResult = {
  sent: number;
  ok2xx: number;
  non2xx: number;
  /** Status code → count, for non-2xx answers. */
  statuses: Map<number, number>;
  errors: number;
  /** Error message → count. */
  errorKinds: Map<string, number>;
  firstNon2xxBody?: string;
  elapsedMs: number;
  /** CPU time this (load generator) process used: it shares the machine with the server. */
  clientCpuMs: number;
  requestsPerSecond: number;
  latencyMs: { p50: number; p90: number; p99: number; max: number };
  /** With `pick`: the same figures per kind of request. */
  byKind: Map<string, KindResult>;
};

type Answer = { status: number; body: string };

function send(agent: http.Agent, url: URL, opts: LoadOptions, spec: Omit<RequestSpec, 'kind' | 'path'>): Promise<Answer> {
  const { body } = spec;
  return new Promise((resolve, reject) => {
    const req = http.request(
      url,
      {
        agent,
        method: spec.method,
        headers: { ...spec.headers, ...(spec.method === 'POST' ? { 'content-length': Buffer.byteLength(body) } : {}) },
        timeout: opts.requestTimeoutMs ?? 10_000,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString() }));
        res.on('error', reject);
      },
    );
    req.on('timeout', () => req.destroy(new Error('request timed out')));
    req.on('error', reject);
    req.end(spec.method === 'POST' ? body : undefined);
  });
}

function percentile(sorted: Float64Array, p: number): number {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;
}

export async function runLoad(opts: LoadOptions): Promise<LoadResult> {
  const url = new URL(opts.url);
  if (!['127.0.0.1', 'localhost', '[::1]'].includes(url.hostname)) throw new Error(`loopback only: ${opts.url}`);
  const agent = new http.Agent({ keepAlive: true, maxSockets: opts.connections });
  const latencies = new Float64Array(opts.maxRequests);
  const result: LoadResult = {
    sent: 0,
    ok2xx: 0,
    non2xx: 0,
    statuses: new Map(),
    errors: 0,
    errorKinds: new Map(),
    elapsedMs: 0,
    clientCpuMs: 0,
    requestsPerSecond: 0,
    latencyMs: { p50: 0, p90: 0, p99: 0, max: 0 },
    byKind: new Map(),
  };
  const kinds = new Map<string, { sent: number; ok2xx: number; failed: number; latencies: number[] }>();
  const cpuStart = process.cpuUsage();
  const start = performance.now();
  const deadline = start + opts.durationMs;

  const worker = async () => {
    while (performance.now() < deadline && result.sent < opts.maxRequests && !opts.signal?.aborted) {
      const i = result.sent++;
      const spec = opts.pick?.();
      const kind = spec && (kinds.get(spec.kind) ?? kinds.set(spec.kind, { sent: 0, ok2xx: 0, failed: 0, latencies: [] }).get(spec.kind)!);
      if (kind) kind.sent++;
      const target = spec ? new URL(spec.path, url) : url;
      const t0 = performance.now();
      try {
        const answer = await send(agent, target, opts, spec ?? { method: opts.method, headers: opts.headers, body: opts.body() });
        latencies[i] = performance.now() - t0;
        kind?.latencies.push(latencies[i]!);
        if (answer.status >= 200 && answer.status < 300) {
          result.ok2xx++;
          if (kind) kind.ok2xx++;
        } else {
          if (kind) kind.failed++;
          result.non2xx++;
          result.statuses.set(answer.status, (result.statuses.get(answer.status) ?? 0) + 1);
          result.firstNon2xxBody ??= answer.body.slice(0, 500);
        }
      } catch (err) {
        latencies[i] = performance.now() - t0;
        if (kind) kind.failed++;
        result.errors++;
        const message = err instanceof Error ? err.message : String(err);
        result.errorKinds.set(message, (result.errorKinds.get(message) ?? 0) + 1);
      }
    }
  };
  await Promise.all(Array.from({ length: opts.connections }, worker));
  result.elapsedMs = performance.now() - start;
  const cpu = process.cpuUsage(cpuStart);
  result.clientCpuMs = (cpu.user + cpu.system) / 1000;
  agent.destroy();

  const sorted = latencies.subarray(0, result.sent).sort();
  result.requestsPerSecond = (result.ok2xx + result.non2xx) / (result.elapsedMs / 1000);
  result.latencyMs = {
    p50: percentile(sorted, 50),
    p90: percentile(sorted, 90),
    p99: percentile(sorted, 99),
    max: sorted[sorted.length - 1] ?? 0,
  };
  for (const [name, k] of kinds) {
    const ks = Float64Array.from(k.latencies).sort();
    result.byKind.set(name, { sent: k.sent, ok2xx: k.ok2xx, failed: k.failed, latencyMs: { p50: percentile(ks, 50), p99: percentile(ks, 99) } });
  }
  return result;
}
