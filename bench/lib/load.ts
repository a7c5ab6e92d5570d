import net from 'node:net';
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

/**
 * One keep-alive HTTP/1.1 connection on a raw socket, one request at a time, parsing just
 * what a benchmark needs: the status, and the body by Content-Length or chunked encoding.
 * Node's http client costs the load generator about as much CPU per request as the server
 * spends answering a hello-world, and on this 2-core machine that CPU is taken from the
 * server under test (wrk and autocannon skip it the same way).
 */
class Connection {
  private socket: net.Socket | undefined;
  private buffer: Buffer = Buffer.alloc(0);
  private pending: { resolve: (a: Answer) => void; reject: (e: Error) => void; timer: NodeJS.Timeout } | undefined;

  constructor(
    private readonly host: string,
    private readonly port: number,
    private readonly timeoutMs: number,
  ) {}

  request(method: string, path: string, headers: Record<string, string>, body: string): Promise<Answer> {
    let head = `${method} ${path} HTTP/1.1\r\nhost: ${this.host}:${this.port}\r\n`;
    for (const [name, value] of Object.entries(headers)) head += `${name}: ${value}\r\n`;
    if (method === 'POST') head += `content-length: ${Buffer.byteLength(body)}\r\n`;
    const socket = this.socket && !this.socket.destroyed ? this.socket : this.connect();
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => this.fail(new Error('request timed out')), this.timeoutMs);
      this.pending = { resolve, reject, timer };
      socket.write(`${head}\r\n${method === 'POST' ? body : ''}`);
    });
  }

  close() {
    this.socket?.destroy();
  }

  private connect(): net.Socket {
    const socket = net.connect(this.port, this.host);
    socket.setNoDelay(true);
    this.buffer = Buffer.alloc(0);
    // Events of a socket this connection has already let go of are ignored.
    socket.on('data', (chunk: Buffer) => {
      if (this.socket !== socket) return;
      this.buffer = this.buffer.length === 0 ? chunk : Buffer.concat([this.buffer, chunk]);
      this.parse();
    });
    socket.on('error', (err) => this.socket === socket && this.fail(err));
    socket.on('close', () => this.socket === socket && this.fail(new Error('socket closed')));
    this.socket = socket;
    return socket;
  }

  private fail(err: Error) {
    this.socket?.destroy();
    this.socket = undefined;
    const pending = this.pending;
    this.pending = undefined;
    if (pending) {
      clearTimeout(pending.timer);
      pending.reject(err);
    }
  }

  private parse() {
    const buf = this.buffer;
    const headEnd = buf.indexOf('\r\n\r\n');
    if (headEnd < 0 || !this.pending) return;
    const head = buf.toString('latin1', 0, headEnd).toLowerCase();
    const status = Number(head.slice(9, 12));
    const header = (name: string) => new RegExp(`\r\n${name}:[ \t]*([^\r]*)`).exec(head)?.[1]?.trim();
    const length = header('content-length');
    let body: Buffer;
    let end: number;
    if (length !== undefined) {
      end = headEnd + 4 + Number(length);
      if (buf.length < end) return;
      body = buf.subarray(headEnd + 4, end);
    } else if (header('transfer-encoding')?.includes('chunked')) {
      const parts: Buffer[] = [];
      let at = headEnd + 4;
      for (;;) {
        const lineEnd = buf.indexOf('\r\n', at);
        if (lineEnd < 0) return;
        const size = parseInt(buf.toString('latin1', at, lineEnd), 16);
        if (size === 0) {
          const trailerEnd = buf.indexOf('\r\n\r\n', lineEnd);
          if (trailerEnd < 0) return;
          end = trailerEnd + 4;
          break;
        }
        if (buf.length < lineEnd + 2 + size + 2) return;
        parts.push(buf.subarray(lineEnd + 2, lineEnd + 2 + size));
        at = lineEnd + 2 + size + 2;
      }
      body = Buffer.concat(parts);
    } else {
      end = headEnd + 4; // 204, 304: no body
      body = Buffer.alloc(0);
    }
    this.buffer = buf.subarray(end);
    const pending = this.pending;
    this.pending = undefined;
    clearTimeout(pending.timer);
    if (header('connection') === 'close') {
      this.socket?.destroy();
      this.socket = undefined;
    }
    pending.resolve({ status, body: status >= 200 && status < 300 ? '' : body.toString('utf8') });
  }
}

function percentile(sorted: Float64Array, p: number): number {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;
}

export async function runLoad(opts: LoadOptions): Promise<LoadResult> {
  const url = new URL(opts.url);
  if (!['127.0.0.1', 'localhost', '[::1]'].includes(url.hostname)) throw new Error(`loopback only: ${opts.url}`);
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

  const port = Number(url.port || 80);
  const host = url.hostname.replace(/^\[|\]$/g, '');
  const connections: Connection[] = [];
  const worker = async () => {
    const connection = new Connection(host, port, opts.requestTimeoutMs ?? 10_000);
    connections.push(connection);
    while (performance.now() < deadline && result.sent < opts.maxRequests && !opts.signal?.aborted) {
      const i = result.sent++;
      const spec = opts.pick?.();
      const kind = spec && (kinds.get(spec.kind) ?? kinds.set(spec.kind, { sent: 0, ok2xx: 0, failed: 0, latencies: [] }).get(spec.kind)!);
      if (kind) kind.sent++;
      const target = spec ? new URL(spec.path, url) : url;
      const t0 = performance.now();
      try {
        const { method, headers, body } = spec ?? { method: opts.method, headers: opts.headers, body: opts.body() };
        const answer = await connection.request(method, `${target.pathname}${target.search}`, headers, body);
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
  for (const connection of connections) connection.close();

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
    result.byKind.set(name, {
      sent: k.sent,
      ok2xx: k.ok2xx,
      failed: k.failed,
      latencyMs: { p50: percentile(ks, 50), p99: percentile(ks, 99) },
    });
  }
  return result;
}
