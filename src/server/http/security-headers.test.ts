import type { AddressInfo } from 'node:net';
import { serve, type ServerType } from '@hono/node-server';
import { Hono } from 'hono';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_APP_CSP, SECURITY_HEADERS, securityHeaders } from './security-headers.ts';

/**
 * The security headers go onto Node's response (through a real HTTP server here) or Hono's
 * (`app.request()`, no Node): either way every answer has them, and a handler's own wins.
 */
function testApp() {
  const app = new Hono();
  app.use(securityHeaders);
  app.get('/plain', (c) => c.body(null, 204));
  app.get('/json', (c) => c.json({ ok: true }));
  app.get('/shell', (c) => {
    c.header('Content-Security-Policy', ADMIN_APP_CSP);
    c.header('Referrer-Policy', 'no-referrer');
    return c.html('<div id="root"></div>');
  });
  app.get('/fails', () => {
    throw new Error('boom');
  });
  app.onError((_err, c) => c.json({ error: 'failed' }, 500));
  return app;
}

const own = { 'content-security-policy': ADMIN_APP_CSP, 'referrer-policy': 'no-referrer' };
const expected = (path: string) =>
  Object.fromEntries(
    SECURITY_HEADERS.map(([n, v]) => [n.toLowerCase(), path === '/shell' ? ((own as Record<string, string>)[n.toLowerCase()] ?? v) : v]),
  );
const picked = (res: Response) => Object.fromEntries(SECURITY_HEADERS.map(([n]) => [n.toLowerCase(), res.headers.get(n)]));

let server: ServerType;
let origin: string;
beforeAll(async () => {
  server = serve({ fetch: testApp().fetch, port: 0, hostname: '127.0.0.1' });
  await new Promise((resolve) => server.once('listening', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise((resolve) => server.close(resolve)));

describe('security headers', () => {
  for (const path of ['/plain', '/json', '/shell', '/fails']) {
    it(`are on ${path} through Node, once each, the handler's own winning`, async () => {
      const res = await fetch(`${origin}${path}`);
      expect(picked(res)).toEqual(expected(path));
      // No header twice (a merged duplicate would read "a, b").
      for (const [name] of SECURITY_HEADERS) expect(res.headers.get(name)).not.toContain(', ');
    });

    it(`are on ${path} without Node (app.request)`, async () => {
      expect(picked(await testApp().request(path))).toEqual(expected(path));
    });
  }
});
