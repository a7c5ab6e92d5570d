/**
 * Sign-in latency and live-notification fan-out, against a running built server.
 * - sign-in: sequential POST /api/auth/login with the right password (argon2id verify is
 *   the cost), p50 and p95.
 * - fan-out: N clients hold GET /api/notifications/stream open; one lead is submitted;
 *   we time until every client has received its `notification` event.
 */
import http from 'node:http';
import { generate } from 'otplib';

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

const json = async (origin: string, method: string, path: string, body: unknown, cookie?: string) => {
  const res = await fetch(`${origin}${path}`, {
    method,
    headers: { 'content-type': 'application/json', origin, ...(cookie ? { cookie } : {}) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { res, body: (await res.json()) as Record<string, unknown> };
};
const cookieOf = (res: Response, name: string) =>
  res.headers
    .getSetCookie()
    .map((c) => c.split(';')[0]!)
    .find((c) => c.startsWith(`${name}=`));

/**
 * A full sign-in with two-factor: the password request (argon2id) and the code request
 * (TOTP), timed together. A code's step is used once per account, so each sample is its own
 * account: invited by the owner (`ownerCookie`), two-factor turned on with this step's code,
 * then signed in with the next step's (within the one-step tolerance).
 */
export async function measureTwoFactorSignIn(origin: string, ownerCookie: string, samples = 30): Promise<SignInResult> {
  const accounts: { email: string; password: string; secret: string }[] = [];
  const run = Date.now().toString(36);
  for (let i = 0; i < samples; i++) {
    const email = `bench-2fa-${run}-${i}@example.com`;
    const password = `bench-2fa-password-${i}`;
    const invite = await json(origin, 'POST', '/api/team/invites', { email, role: 'staff' }, ownerCookie);
    const token = String(invite.body.link).split('/invite/')[1];
    const accepted = await json(origin, 'POST', '/api/auth/invites/accept', {
      token,
      display_name: `Bench Staff ${i}`,
      password,
      confirm: password,
    });
    const cookie = cookieOf(accepted.res, 'session')!;
    const setup = await json(origin, 'POST', '/api/account/two-factor/setup', undefined, cookie);
    const secret = String(setup.body.secret);
    const on = await json(origin, 'POST', '/api/account/two-factor/confirm', { code: await generate({ secret }) }, cookie);
    if (on.res.status !== 200) throw new Error(`two-factor set-up failed: ${on.res.status}`);
    accounts.push({ email, password, secret });
  }
  const times: number[] = [];
  let failures = 0;
  for (const a of accounts) {
    const code = await generate({ secret: a.secret, epoch: Math.floor(Date.now() / 1000) + 30 });
    const started = performance.now();
    const first = await json(origin, 'POST', '/api/auth/login', { email: a.email, password: a.password });
    const second = await json(origin, 'POST', '/api/auth/login/two-factor', { code }, cookieOf(first.res, 'sign_in_challenge'));
    times.push(performance.now() - started);
    if (first.body.two_factor_required !== true || second.res.status !== 200) {
      failures++;
      if (process.env.BENCH_DEBUG)
        console.log(first.res.status, JSON.stringify(first.body), second.res.status, JSON.stringify(second.body));
    }
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
