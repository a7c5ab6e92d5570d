import http from 'node:http';
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { validLead } from '../test/test-app.ts';
import { migratedDataDir, signInOverHttp, startServer, stopServer, type ServerProcess } from '../test/process.ts';
import { sseReader } from '../test/sse.ts';
import { CONNECTION_TIMEOUTS, MAX_CONNECTIONS_PER_CLIENT } from './connection-limits.ts';

/**
 * The real server against slow, greedy and vanishing clients, over real sockets. Linux routes
 * all of 127.0.0.0/8 to loopback, so a socket bound to 127.0.0.2 or 127.0.0.3 is another client
 * of the server on 127.0.0.1; 127.0.0.2 is the trusted proxy.
 */
const ADMIN = { email: 'conn-admin@example.com', password: 'conn-admin-password' };
const PROXY = '127.0.0.2';
const OTHER = '127.0.0.3';

let server: ServerProcess;
beforeAll(async () => {
  server = await startServer({
    DATA_DIR: migratedDataDir('connections'),
    ADMIN_EMAIL: ADMIN.email,
    ADMIN_PASSWORD: ADMIN.password,
    TRUST_PROXY: `${PROXY},10.0.0.0/8`,
    LEAD_MIN_FILL_SECONDS: '0',
    LEAD_RATE_LIMIT: '1',
    LOG_LEVEL: 'info',
  });
}, 90_000);
afterAll(() => stopServer(server));

type Answer = { status: number; body: string };

/** One request on a fresh connection from `localAddress`. */
function request(
  path: string,
  {
    localAddress = '127.0.0.1',
    method = 'GET',
    headers = {},
    body,
  }: { localAddress?: string; method?: string; headers?: Record<string, string>; body?: string } = {},
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port: server.port, path, method, headers, localAddress, agent: false }, (res) => {
      let text = '';
      res.on('data', (c: Buffer) => (text += c.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

const postLead = (localAddress: string, headers: Record<string, string> = {}) =>
  request('/api/public/leads', {
    localAddress,
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(validLead()),
  });

/** A raw connection: what it received, and when it closed (ms after it opened). */
function rawConnection(localAddress = '127.0.0.1') {
  const socket = net.connect({ host: '127.0.0.1', port: server.port, localAddress });
  const opened = Date.now();
  let received = '';
  socket.on('data', (d: Buffer) => (received += d.toString()));
  socket.on('error', () => {}); // a reset is one of the outcomes under test
  const closed = new Promise<number>((resolve) => socket.on('close', () => resolve(Date.now() - opened)));
  const connected = new Promise<void>((resolve) => socket.once('connect', () => resolve()));
  return { socket, closed, connected, received: () => received, isOpen: () => !socket.destroyed };
}

/** Writes `text` one byte a second while the socket is open: a client that never finishes. */
function trickle(socket: net.Socket, text: string) {
  let i = 0;
  const timer = setInterval(() => {
    if (socket.destroyed) return clearInterval(timer);
    socket.write(text[i++ % text.length]!);
  }, 1000);
  socket.once('close', () => clearInterval(timer));
}

describe('slow clients', () => {
  it('cuts slow headers after 10 s and a slow body after 30 s, while a live stream and other clients are served', async () => {
    const cookie = await signInOverHttp(server.url, ADMIN);
    const stream = sseReader(await fetch(`${server.url}/api/notifications/stream`, { headers: { cookie } }));
    expect((await stream.next()).event).toBe('ready');

    const slowHeaders = rawConnection();
    slowHeaders.socket.write(`GET /api/health HTTP/1.1\r\nHost: 127.0.0.1:${server.port}\r\n`);
    trickle(slowHeaders.socket, 'X-Slow: 1\r\n');
    const slowBody = rawConnection();
    slowBody.socket.write(
      `POST /api/public/leads HTTP/1.1\r\nHost: 127.0.0.1:${server.port}\r\nContent-Type: application/json\r\nContent-Length: 5000\r\n\r\n{`,
    );
    trickle(slowBody.socket, '"');

    // Meanwhile everyone else is served.
    for (let i = 0; i < 3; i++) {
      await new Promise((r) => setTimeout(r, 2000)); // a real wait: the server's own timeouts run meanwhile
      expect((await request('/api/health', { localAddress: OTHER })).status).toBe(200);
    }

    const headersClosedAfter = await slowHeaders.closed;
    expect(headersClosedAfter).toBeGreaterThanOrEqual(CONNECTION_TIMEOUTS.headersTimeout - 100);
    expect(headersClosedAfter).toBeLessThan(CONNECTION_TIMEOUTS.headersTimeout + 3000);
    expect(slowHeaders.received()).toMatch(/^HTTP\/1\.1 408 /);

    const bodyClosedAfter = await slowBody.closed;
    expect(bodyClosedAfter).toBeGreaterThanOrEqual(CONNECTION_TIMEOUTS.requestTimeout - 100);
    expect(bodyClosedAfter).toBeLessThan(CONNECTION_TIMEOUTS.requestTimeout + 3000);

    // The notification stream, open longer than the request timeout, still delivers.
    expect((await postLead(OTHER)).status).toBe(201);
    expect((await stream.next(10_000)).event).toBe('notification');
    await stream.cancel();
    expect(server.output()).not.toContain('database unavailable');
  }, 60_000);
});

describe('connections per client', () => {
  it(`lets one address hold ${MAX_CONNECTIONS_PER_CLIENT} connections, closes the next at once, and serves the others meanwhile`, async () => {
    const held = Array.from({ length: MAX_CONNECTIONS_PER_CLIENT }, () => rawConnection());
    await Promise.all(held.map((c) => c.connected));
    // The trusted proxy carries everyone's connections: it is not capped.
    const viaProxy = Array.from({ length: MAX_CONNECTIONS_PER_CLIENT + 20 }, () => rawConnection(PROXY));
    await Promise.all(viaProxy.map((c) => c.connected));

    const refused = rawConnection();
    refused.socket.write(`GET /api/health HTTP/1.1\r\nHost: 127.0.0.1:${server.port}\r\n\r\n`);
    expect(await refused.closed).toBeLessThan(2000);
    expect(refused.received()).toBe('');
    await expect(request('/api/health')).rejects.toThrow();

    expect((await request('/api/health', { localAddress: OTHER })).status).toBe(200);
    expect((await request('/api/health', { localAddress: PROXY })).status).toBe(200);
    expect(held.every((c) => c.isOpen())).toBe(true);
    expect(viaProxy.every((c) => c.isOpen())).toBe(true);
    expect(server.output()).toContain('refusing connections from 127.0.0.1');

    // Once its connections close, the address is served again.
    await Promise.all(held.map((c) => (c.socket.destroy(), c.closed)));
    await Promise.all(viaProxy.map((c) => (c.socket.destroy(), c.closed)));
    // The server sees the closes soon after: asked again until it serves the address.
    await expect
      .poll(
        () =>
          request('/api/health').then(
            (r) => r.status,
            () => 0,
          ),
        { timeout: 5_000, interval: 50 },
      )
      .toBe(200);
  }, 30_000);
});

describe('a client that hangs up mid-body', () => {
  it('is logged as a client abort, not as "database unavailable", and the server keeps serving', async () => {
    const logFrom = server.output().length;
    const log = () => server.output().slice(logFrom);
    const quitter = rawConnection();
    await quitter.connected;
    const body = JSON.stringify(validLead());
    quitter.socket.write(
      `POST /api/public/leads HTTP/1.1\r\nHost: 127.0.0.1:${server.port}\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n${body.slice(0, 40)}`,
    );
    await new Promise((r) => setTimeout(r, 300)); // a real wait: the server process is reading the body now
    quitter.socket.destroy();

    const deadline = Date.now() + 5000;
    while (!log().includes('"path":"/api/public/leads"') && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    expect(log()).toContain('"reason":"ECONNRESET","ip":"127.0.0.1","msg":"client closed the connection before sending the whole request"');
    expect(log()).toMatch(/"method":"POST","path":"\/api\/public\/leads","status":400,/);
    expect(log()).not.toContain('database unavailable');
    expect((await request('/api/health')).status).toBe(200);
    expect((await postLead('127.0.0.4')).status).toBe(201);
  }, 30_000);
});

describe('TRUST_PROXY as a list', () => {
  it('believes X-Forwarded-For only from a listed proxy, and counts the right-most address that is not a proxy', async () => {
    // Through the proxy: client -> 10.0.0.5 (an internal hop, listed) -> 127.0.0.2 -> us.
    expect((await postLead(PROXY, { 'x-forwarded-for': '6.6.6.6, 198.51.100.1, 10.0.0.5' })).status).toBe(201);
    expect((await postLead(PROXY, { 'x-forwarded-for': '7.7.7.7, 198.51.100.1, 10.0.0.5' })).status).toBe(429);
    expect((await postLead(PROXY, { 'x-forwarded-for': '198.51.100.2, 10.0.0.5' })).status).toBe(201);
    // An IPv6 client is counted by its /64.
    expect((await postLead(PROXY, { 'x-forwarded-for': '2001:db8:1:2::1' })).status).toBe(201);
    expect((await postLead(PROXY, { 'x-forwarded-for': '2001:db8:1:2:ffff::9' })).status).toBe(429);
    // From anyone else the header is ignored: 127.0.0.5 is one client whatever it claims.
    expect((await postLead('127.0.0.5', { 'x-forwarded-for': '198.51.100.3' })).status).toBe(201);
    expect((await postLead('127.0.0.5', { 'x-forwarded-for': '198.51.100.4' })).status).toBe(429);
    // A forwarded address that is not an IP: the proxy's own address is used, and said once.
    expect((await postLead(PROXY, { 'x-forwarded-for': 'garbage' })).status).toBe(201);
    expect((await postLead(PROXY, { 'x-forwarded-for': 'more garbage' })).status).toBe(429);
    // The server logs asynchronously: wait for the line, then make sure it came once.
    const said = () => server.output().match(/X-Forwarded-For from a trusted proxy is not an IP address/g)?.length ?? 0;
    for (const deadline = Date.now() + 5_000; said() === 0 && Date.now() < deadline; ) await new Promise((r) => setTimeout(r, 50));
    await new Promise((r) => setTimeout(r, 200)); // a real wait: a second line, were there one, would follow meanwhile
    expect(said()).toBe(1);
  });
});
