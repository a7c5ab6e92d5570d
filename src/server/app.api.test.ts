import { describe, expect, it } from 'vitest';
import { ADMIN_APP_CSP, SECURITY_HEADERS } from './http/security-headers.ts';
import { createTestApp } from './test/test-app.ts';
import { useTestDatabase } from './test/database.ts';

const database = useTestDatabase();

describe('GET /api/health', () => {
  it('answers 503 in the error shape while the database is not ready', async () => {
    const { app } = createTestApp(undefined);
    const res = await app.request('/api/health');
    expect(res.status).toBe(503);
    expect(await res.json()).toMatchObject({ error: { code: 'service_unavailable' } });
  });

  it('answers 200 {"status":"ok"} once the database is ready', async () => {
    const { app } = createTestApp(database);
    const res = await app.request('/api/health');
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ status: 'ok' });
  });
});

describe('errors and headers', () => {
  it('answers an unknown /api path with 404 JSON', async () => {
    const { app } = createTestApp(database);
    for (const method of ['GET', 'POST', 'DELETE']) {
      const res = await app.request('/api/no-such-thing', { method, headers: { origin: 'http://localhost' } });
      expect(res.status).toBe(404);
      const body = (await res.json()) as { error: { code: string; requestId: string } };
      expect(body.error.code).toBe('not_found');
      expect(body.error.requestId).toMatch(/^[0-9a-f-]{36}$/);
    }
  });

  it('answers API writes while the database is starting with 503, not 500', async () => {
    const { json } = createTestApp(undefined);
    const res = await json('POST', '/api/public/leads', { full_name: 'x' });
    expect([400, 503]).toContain(res.status);
  });

  it('answers a malformed Host header without a 500', async () => {
    const { json } = createTestApp(database);
    const res = await json('POST', '/api/public/leads', { full_name: 'x' }, { host: 'bad host^', origin: 'http://evil.example' });
    expect(res.status).toBe(403);
  });

  it('sends the security headers on every kind of answer, and lets a page replace its policy', async () => {
    const { app, json } = createTestApp(database);
    const answers = {
      health: await app.request('/api/health'),
      'unknown API path (404)': await app.request('/api/no-such-thing'),
      'invalid body (400)': await json('POST', '/api/public/events', { event_type: 'nope' }),
      'signed out (401)': await app.request('/api/leads'),
    };
    for (const [what, res] of Object.entries(answers))
      for (const [name, value] of SECURITY_HEADERS) expect(res.headers.get(name), `${what}: ${name}`).toBe(value);
    const csp = answers.health.headers.get('content-security-policy') ?? '';
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).not.toContain('unsafe-inline');
    expect(csp).not.toContain('unsafe-eval');
    expect(answers.health.headers.get('x-content-type-options')).toBe('nosniff');
    expect(answers.health.headers.get('referrer-policy')).toBe('strict-origin-when-cross-origin');
  });

  it('keeps the admin app shell’s policy strict for scripts (only its styles may be inline)', () => {
    const directives = new Map(ADMIN_APP_CSP.split('; ').map((d) => [d.split(' ')[0], d.split(' ').slice(1)] as const));
    expect(directives.get('script-src')).toEqual(["'self'"]);
    expect(directives.get('default-src')).toEqual(["'self'"]);
    expect(directives.get('object-src')).toEqual(["'none'"]);
    expect(directives.get('frame-ancestors')).toEqual(["'none'"]);
    expect(ADMIN_APP_CSP).not.toContain('unsafe-eval');
  });
});

describe('GET /api/openapi.json', () => {
  type Operation = { security?: unknown[]; requestBody?: unknown; responses: Record<string, unknown> };
  type Doc = {
    openapi: string;
    paths: Record<string, Record<string, Operation>>;
    components: { securitySchemes: Record<string, unknown>; schemas: Record<string, unknown> };
  };

  it('documents every operation, marking public ones with security: []', async () => {
    const { app } = createTestApp(database);
    const doc = (await (await app.request('/api/openapi.json')).json()) as Doc;
    expect(doc.openapi).toMatch(/^3\./);
    expect(doc.components.securitySchemes).toHaveProperty('sessionCookie');
    expect(doc.paths['/api/health']?.get?.security).toEqual([]);
    const submit = doc.paths['/api/public/leads']?.post;
    expect(submit?.security).toEqual([]);
    expect(submit?.requestBody).toMatchObject({
      content: { 'application/json': { schema: { $ref: '#/components/schemas/PublicLeadRequest' } } },
    });
    expect(doc.components.schemas.PublicLeadRequest).toMatchObject({
      required: expect.arrayContaining(['full_name', 'email', 'phone', 'property_types']),
    });
  });
});
