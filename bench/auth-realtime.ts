/**
 * Sign-in latency and live-notification fan-out, against a running built server.
 * - sign-in: sequential POST /api/auth/login with the right password (argon2id verify is
 *   the cost), p50 and p95.
 * - fan-out: N clients hold GET /api/notifications/stream open; one lead is submitted;
 *   we time until every client has received its `notification` event.
 */
import http from 'node:http';

export type SignInResult = { samples: number; p50Ms: number; p95Ms: number; failures: number };
export type FanoutResult = { clients: number; connected: number; delivered: number; slowestMs: number; failures: number };

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;

export async function measureSignIn(origin: string, email: string, password: string, samples = 40): Promise<SignInResult> {
  const times: number[] = [];
  let failures = 0;
  for (let i = 0; i < samples; i++) {
    const started = performance.now();
    const res = await fetch(`${origin}/api/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin },
      body: JSON.stringify({ email, password }),
    });
    await res.arrayBuffer();
    if (res.status !== 200) failures++;
    times.push(performance.now() - started);
  }
  times.sort((a, b) => a - b);
  return { samples, p50Ms: percentile(times, 50), p95Ms: percentile(times, 95), failures };
}

/**
 * `clients` streams, spread over the sessions of `cookies` in turn (a session may hold 10
 * streams, one per tab, so 1,000 streams need 100 sessions).
 */
export async function measureFanout(origin: string, cookies: string[], clients: number, timeoutMs = 20_000): Promise<FanoutResult> {
  // One connection per stream, as browsers would each hold one.
  const agent = new http.Agent({ keepAlive: false, maxSockets: Infinity });
  const requests: http.ClientRequest[] = [];
  let connected = 0;
  let failures = 0;
  let stopping = false;
  const arrivals: number[] = [];
  let sentAt = 0;
  let markReady: () => void = () => {};
  const allReady = new Promise<void>((resolve) => (markReady = resolve));

  const client = (cookie: string) =>
    new Promise<void>((resolve) => {
      const req = http.get(`${origin}/api/notifications/stream`, { headers: { cookie }, agent }, (res) => {
        if (res.statusCode !== 200) {
          failures++;
          res.resume();
          return resolve();
        }
        let buffer = '';
        let ready = false;
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => {
          buffer += chunk;
          if (!ready && buffer.includes('event: ready')) {
            ready = true;
            if (++connected === clients) markReady();
          }
          if (buffer.includes('event: notification')) {
            arrivals.push(performance.now() - sentAt);
            buffer = '';
            res.destroy();
          }
        });
        res.on('close', () => resolve());
      });
      req.on('error', () => {
        if (!stopping) failures++;
        resolve();
      });
      requests.push(req);
    });

  const running = Array.from({ length: clients }, (_, i) => client(cookies[i % cookies.length]!));
  await Promise.race([allReady, new Promise((r) => setTimeout(r, timeoutMs))]);
  sentAt = performance.now();
  const res = await fetch(`${origin}/api/public/leads`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      full_name: 'Fan Out',
      email: 'fanout@example.com',
      phone: '555',
      property_types: ['land'],
      submission_id: crypto.randomUUID(),
    }),
  });
  if (res.status !== 201) failures++;
  const deadline = Date.now() + timeoutMs;
  while (arrivals.length < connected && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
  stopping = true;
  for (const req of requests) req.destroy();
  await Promise.allSettled(running);
  agent.destroy();
  return { clients, connected, delivered: arrivals.length, slowestMs: Math.max(0, ...arrivals), failures };
}
