import { request as playwrightRequest } from '@playwright/test';
import { randomInt } from 'node:crypto';
import { test, expect, signInThroughTheForm } from '../fixtures.ts';
import { httpsRequest, type Caddy } from '../../../src/server/test/caddy.ts';
import { readFileSync } from 'node:fs';
import path from 'node:path';

/**
 * What only the HTTPS leg shows (project `https`: Caddy with deploy/Caddyfile in front of a
 * server of its own, scripts/e2e-https-server.ts). The browser's requests come from this
 * machine, which the Caddyfile trusts as a proxy; the visitors below connect from addresses of
 * their own (a random 127.x address: any is this machine's on Linux), as direct visitors do,
 * and Caddy replaces whatever X-Forwarded-For they send.
 */
const httpsPort = Number(process.env.E2E_HTTPS_PORT);
const caddy: Caddy = {
  url: `https://localhost:${httpsPort}`,
  httpsPort,
  httpPort: Number(process.env.E2E_HTTP_REDIRECT_PORT),
  caRoot: () => readFileSync(path.join(process.env.E2E_CADDY_DIR!, 'caddy/pki/authorities/local/root.crt'), 'utf8'),
  output: () => '',
  stop: async () => {},
};
const origin = { origin: caddy.url };

test('signing in over HTTPS sets a Secure, httpOnly session cookie, and every answer says to stay on HTTPS', async ({
  page,
  context,
  newAdmin,
}) => {
  const admin = await newAdmin();
  const answer = await page.goto('/login');
  expect(answer!.url()).toMatch(/^https:\/\/localhost:\d+\/login$/);
  expect(answer!.headers()['strict-transport-security']).toBe('max-age=31536000');
  await signInThroughTheForm(page, admin);
  await expect(page).toHaveURL(/\/dashboard$/);
  const session = (await context.cookies()).find((c) => c.name === 'session');
  expect(session).toMatchObject({ secure: true, httpOnly: true, sameSite: 'Lax' });
  // And the live notification stream works through the proxy: the bell connects.
  await expect(page.getByRole('button', { name: /Notifications/ })).toBeVisible();
});

test('plain http is redirected to the https address', async () => {
  const api = await playwrightRequest.newContext();
  const res = await api.get(`http://localhost:${caddy.httpPort}/login?x=1`, { maxRedirects: 0 });
  expect(res.status()).toBe(308);
  // In production the HTTPS port is 443, which Caddy leaves out of the address; here it is
  // another port, which it leaves out too (it is the one it calls its HTTPS port).
  expect(res.headers()['location']).toMatch(/^https:\/\/localhost(:\d+)?\/login\?x=1$/);
  await api.dispose();
});

/** An address of this machine of the test's own (any 127.x address is, on Linux): what the server counts per address is the test's. */
const ownLoopback = () => `127.${randomInt(1, 255)}.${randomInt(256)}.${randomInt(1, 255)}`;

test('the certificate verifies against Caddy’s own authority, and the server sees each visitor’s own address, not a forged one', async ({
  newAdmin,
}) => {
  const { email, password } = await newAdmin();
  const from = ownLoopback();
  // httpsRequest verifies the chain (ca: Caddy's local root) and fails on any other certificate.
  const signIn = await httpsRequest(caddy, '/api/auth/login', {
    method: 'POST',
    localAddress: from,
    headers: { ...origin, 'x-forwarded-for': '198.51.100.77' },
    body: JSON.stringify({ email, password }),
  });
  expect(signIn.status, signIn.body).toBe(200);
  const cookie = String(signIn.headers['set-cookie']).split(';')[0]!;
  expect(String(signIn.headers['set-cookie'])).toMatch(/; Secure/);
  const sessions = await httpsRequest(caddy, '/api/account/sessions', { localAddress: from, headers: { cookie } });
  const current = (JSON.parse(sessions.body) as { sessions: { ip: string | null; current: boolean }[] }).sessions.find((s) => s.current);
  expect(current?.ip).toBe(from);
});

test('the lead form’s rate limit counts each visitor on their own', async () => {
  const submit = async (from: string) => {
    const token = await httpsRequest(caddy, '/api/public/form-token', { localAddress: from });
    const { form_token, min_age_seconds } = JSON.parse(token.body) as { form_token: string; min_age_seconds: number };
    // A real wait: the token ages on the server's clock, which nothing here can move.
    await new Promise((r) => setTimeout(r, min_age_seconds * 1000 + 200));
    const lead = {
      website: '',
      form_token,
      full_name: 'Visitor Five',
      email: `v.${crypto.randomUUID().slice(0, 8)}@example.com`,
      phone: '555-0100',
      property_types: ['land'],
      submission_id: crypto.randomUUID(),
    };
    // Each forged header is a different address: were it believed, no limit would ever be reached.
    const forged = `203.0.113.${Math.floor(Math.random() * 250) + 1}`;
    return (
      await httpsRequest(caddy, '/api/public/leads', {
        method: 'POST',
        localAddress: from,
        headers: { ...origin, 'x-forwarded-for': forged },
        body: JSON.stringify(lead),
      })
    ).status;
  };
  // LEAD_RATE_LIMIT is 5 per hour (tests/e2e/server-env.ts), from addresses of the test's own.
  const [one, another] = [ownLoopback(), ownLoopback()];
  const statuses: number[] = [];
  for (let i = 0; i < 6; i++) statuses.push(await submit(one));
  expect(statuses).toEqual([201, 201, 201, 201, 201, 429]);
  expect(await submit(another)).toBe(201);
});
