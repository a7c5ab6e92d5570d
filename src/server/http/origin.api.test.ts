import pino from 'pino';
import { beforeAll, describe, expect, it } from 'vitest';
import { ensureAdmin } from '../auth/accounts.ts';
import { createTestApp, signIn, validLead } from '../test/test-app.ts';
import { useTestDatabase } from '../test/database.ts';

/**
 * The cross-site check compares scheme, host and port; with PUBLIC_URL set the server answers
 * only for its host (421 otherwise) and builds its links from it, never from the Host header.
 */
const database = useTestDatabase();
beforeAll(async () => {
  await ensureAdmin(database.db, 'origin-admin@example.com', 'origin-admin-password');
});

const REFUSED = { error: { code: 'forbidden', message: 'Cross-site request refused.', requestId: expect.any(String) } };
const MISDIRECTED = {
  error: {
    code: 'misdirected_request',
    message: 'This server does not answer for that host name. Use the address of the site.',
    requestId: expect.any(String),
  },
};

describe('the cross-site check without PUBLIC_URL', () => {
  it('compares the scheme and the port with the request, not only the host', async () => {
    const { json } = createTestApp(database);
    for (const origin of ['https://localhost', 'http://localhost:8080', 'https://localhost:80', 'http://localhost.evil.example']) {
      const res = await json('POST', 'http://localhost/api/public/leads', validLead(), { origin });
      expect({ origin, status: res.status }).toEqual({ origin, status: 403 });
      expect(await res.json()).toEqual(REFUSED);
    }
    expect((await json('POST', 'http://localhost/api/public/leads', validLead(), { origin: 'http://localhost' })).status).toBe(201);
    expect((await json('POST', 'http://localhost/api/public/leads', validLead(), { origin: 'http://LOCALHOST:80' })).status).toBe(201);
  });

  it('takes the scheme from X-Forwarded-Proto only from a trusted proxy', async () => {
    const headers = { origin: 'https://localhost', 'x-forwarded-proto': 'https' };
    expect((await createTestApp(database, { TRUST_PROXY: 'on' }).json('POST', '/api/public/leads', validLead(), headers)).status).toBe(201);
    expect((await createTestApp(database).json('POST', '/api/public/leads', validLead(), headers)).status).toBe(403);
  });
});

describe('with PUBLIC_URL', () => {
  const env = { PUBLIC_URL: 'https://crm.example.com' };

  it('accepts only its origin, whatever the Host and the connection say', async () => {
    const { json } = createTestApp(database, env);
    const cookie = await signIn(json, 'origin-admin@example.com', 'origin-admin-password');
    // Over http behind a proxy that sends no X-Forwarded-Proto: the browser is still on https.
    const asked = (origin: string) =>
      json('PATCH', 'http://crm.example.com/api/account/preferences', { email_appointments: true }, { cookie, origin });
    expect((await asked('https://crm.example.com')).status).toBe(200);
    for (const origin of ['http://crm.example.com', 'https://crm.example.com:8443', 'https://evil.example', 'null']) {
      const res = await asked(origin);
      expect({ origin, status: res.status }).toEqual({ origin, status: 403 });
    }
  });

  it('answers 421 in the error envelope for another Host, on the API and the pages alike', async () => {
    const { app } = createTestApp(database, env);
    for (const [path, method] of [
      ['/api/leads', 'GET'],
      ['/api/public/leads', 'POST'],
      ['/api/auth/session', 'GET'],
      ['/', 'GET'],
      ['/api/openapi.json', 'GET'],
    ] as const) {
      for (const host of ['evil.example', 'rebind.attacker.test:3000', '127.0.0.1:3000', 'crm.example.com.evil.example']) {
        const res = await app.request(`http://${host}${path}`, {
          method,
          headers: { host, origin: `http://${host}`, 'content-type': 'application/json' },
          body: method === 'POST' ? JSON.stringify(validLead()) : undefined,
        });
        expect({ path, host, status: res.status }).toEqual({ path, host, status: 421 });
        expect(await res.json()).toEqual(MISDIRECTED);
      }
    }
    // Its own host, with or without the default port, in any case.
    for (const host of ['crm.example.com', 'CRM.Example.com', 'crm.example.com:443']) {
      expect((await app.request('http://x/api/auth/session', { headers: { host } })).status).toBe(200);
    }
  });

  it('answers the health check on any Host, so a probe on loopback works', async () => {
    const { app } = createTestApp(database, env);
    const res = await app.request('http://127.0.0.1:3000/api/health', { headers: { host: '127.0.0.1:3000' } });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ status: 'ok' });
    expect((await app.request('http://127.0.0.1:3000/api/health', { method: 'POST', headers: { host: '127.0.0.1:3000' } })).status).toBe(
      421,
    );
  });

  it('believes X-Forwarded-Host only from a trusted proxy', async () => {
    const headers = { host: '127.0.0.1:3000', 'x-forwarded-host': 'crm.example.com' };
    expect(
      (await createTestApp(database, { ...env, TRUST_PROXY: 'on' }).app.request('http://127.0.0.1:3000/api/auth/session', { headers }))
        .status,
    ).toBe(200);
    expect((await createTestApp(database, env).app.request('http://127.0.0.1:3000/api/auth/session', { headers })).status).toBe(421);
  });

  it('builds the calendar feed URL from PUBLIC_URL, not from the request', async () => {
    const { json } = createTestApp(database, { ...env, TRUST_PROXY: 'on' });
    const cookie = await signIn(json, 'origin-admin@example.com', 'origin-admin-password');
    // The request came over http, and its proxy claims http too: the link is still PUBLIC_URL's.
    const res = await json('POST', 'http://crm.example.com/api/calendar-feed', undefined, {
      cookie,
      'x-forwarded-proto': 'http',
      origin: 'https://crm.example.com',
    });
    expect(res.status).toBe(201);
    expect(((await res.json()) as { url: string }).url).toMatch(
      /^https:\/\/crm\.example\.com\/api\/calendar\/[A-Za-z0-9_-]{43}\/appointments\.ics$/,
    );
  });

  it('marks the session cookie Secure when PUBLIC_URL is https, even over a plain connection', async () => {
    const { json } = createTestApp(database, env);
    const res = await json(
      'POST',
      'http://crm.example.com/api/auth/login',
      { email: 'origin-admin@example.com', password: 'origin-admin-password' },
      { origin: 'https://crm.example.com' },
    );
    expect(res.status).toBe(200);
    expect(res.headers.get('set-cookie')!.split('; ')).toContain('Secure');
  });
});

describe('without PUBLIC_URL', () => {
  it('builds the calendar feed URL from the request origin', async () => {
    const { json } = createTestApp(database);
    const cookie = await signIn(json, 'origin-admin@example.com', 'origin-admin-password');
    const res = await json('POST', 'http://crm.lan:8080/api/calendar-feed', undefined, { cookie, host: 'crm.lan:8080' });
    expect(((await res.json()) as { url: string }).url).toMatch(/^http:\/\/crm\.lan:8080\/api\/calendar\//);
  });
});

describe('the client address behind TRUST_PROXY', () => {
  it('counts a forwarded address that is not an IP as the socket address, and warns once', async () => {
    const lines: { level: number; msg: string }[] = [];
    const logger = pino(
      { level: 'warn' },
      { write: (line: string) => void lines.push(JSON.parse(line) as { level: number; msg: string }) },
    );
    const { json } = createTestApp(database, { TRUST_PROXY: 'on', LEAD_RATE_LIMIT: '1' }, { logger });
    // Two made-up values would be two clients if they were believed; both are the socket's one.
    expect((await json('POST', '/api/public/leads', validLead(), { 'x-forwarded-for': 'not-an-ip-1' })).status).toBe(201);
    expect((await json('POST', '/api/public/leads', validLead(), { 'x-forwarded-for': 'not-an-ip-2' })).status).toBe(429);
    expect(lines.filter((l) => l.msg.includes('X-Forwarded-For from a trusted proxy is not an IP address'))).toHaveLength(1);
  });

  it('counts an IPv6 client by its /64 for the lead form, sign-in and analytics limits', async () => {
    const { json } = createTestApp(database, { TRUST_PROXY: 'on', LEAD_RATE_LIMIT: '1', ANALYTICS_RATE_LIMIT: '1' });
    const from = (ip: string) => ({ 'x-forwarded-for': ip, 'user-agent': 'Mozilla/5.0 (X11; Linux x86_64) Chrome/130.0' });
    expect((await json('POST', '/api/public/leads', validLead(), from('2001:db8:aa:1::1'))).status).toBe(201);
    expect((await json('POST', '/api/public/leads', validLead(), from('2001:db8:aa:1:ffff:ffff:ffff:fffe'))).status).toBe(429);
    expect((await json('POST', '/api/public/leads', validLead(), from('2001:db8:aa:2::1'))).status).toBe(201);

    const event = { session_id: 'SiXtYfOuRsIxTyFoUrSiXt', event_type: 'pageview', page_path: '/' };
    expect((await json('POST', '/api/public/events', event, from('2001:db8:bb:1::1'))).status).toBe(204);
    expect((await json('POST', '/api/public/events', event, from('2001:db8:bb:1::2'))).status).toBe(429);

    // Sign-in: 20 failures per source; the 21st address of the same /64 is refused before the password is checked.
    for (let i = 1; i <= 20; i++) {
      const res = await json(
        'POST',
        '/api/auth/login',
        { email: `nobody${i}@example.com`, password: 'wrong-password' },
        from(`2001:db8:cc:1::${i.toString(16)}`),
      );
      expect(res.status).toBe(401);
    }
    expect(
      (await json('POST', '/api/auth/login', { email: 'nobody21@example.com', password: 'wrong-password' }, from('2001:db8:cc:1::ff')))
        .status,
    ).toBe(429);
    expect(
      (await json('POST', '/api/auth/login', { email: 'nobody21@example.com', password: 'wrong-password' }, from('2001:db8:cc:2::ff')))
        .status,
    ).toBe(401);
  });
});
