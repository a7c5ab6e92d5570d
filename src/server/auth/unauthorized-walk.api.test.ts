import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execute, type Database } from '../db/client.ts';
import { ensureUser } from '../db/queries/users.ts';
import { createTestApp, signIn } from '../test/app.ts';
import { createTestDatabase } from '../test/database.ts';

/**
 * Walks /api/openapi.json and calls every operation not marked public without a session,
 * with an expired one and with a forged one: each must answer 401 with no data. Routes
 * added later are covered without touching this file.
 */
type Operation = { security?: Record<string, string[]>[]; parameters?: { name: string; in: string }[] };
type Doc = { security?: Record<string, string[]>[]; paths: Record<string, Record<string, Operation>> };

let database: Database;
let expiredCookie: string;
beforeAll(async () => {
  database = await createTestDatabase();
  await ensureUser(database.db, 'walker@example.com', 'walker-password');
  const { json } = createTestApp(database);
  expiredCookie = await signIn(json, 'walker@example.com', 'walker-password');
  await execute(database.db, sql`update sessions set expires_at = now() - interval '1 minute'`);
});
afterAll(async () => {
  await database.close();
});

async function protectedOperations() {
  const { app } = createTestApp(database);
  const doc = (await (await app.request('/api/openapi.json')).json()) as Doc;
  const ops: { method: string; path: string }[] = [];
  for (const [path, methods] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(methods)) {
      const security = op.security ?? doc.security ?? [];
      if (security.length === 0) continue; // public
      expect(security).toEqual([{ sessionCookie: [] }]);
      // Fill path parameters with a well-formed id, so the request reaches the auth check.
      ops.push({ method: method.toUpperCase(), path: path.replace(/\{[^}]+\}/g, '00000000-0000-4000-8000-000000000000') });
    }
  }
  return ops;
}

describe('every admin operation without a valid session', () => {
  it('finds the admin operations in the OpenAPI document', async () => {
    const ops = await protectedOperations();
    expect(ops.length).toBeGreaterThanOrEqual(5);
    expect(ops).toContainEqual({ method: 'GET', path: '/api/notifications' });
  });

  it.each([
    ['no cookie', () => ({})],
    ['an expired session', () => ({ cookie: expiredCookie })],
    ['a forged session', () => ({ cookie: `session=${'A'.repeat(43)}` })],
    ['a malformed cookie', () => ({ cookie: 'session=%%%' })],
  ])('answers 401 with no data for %s', async (_name, headers) => {
    const { app } = createTestApp(database);
    for (const { method, path } of await protectedOperations()) {
      const res = await app.request(path, {
        method,
        headers: { 'content-type': 'application/json', ...headers() },
        body: method === 'GET' || method === 'HEAD' ? undefined : '{}',
      });
      expect({ method, path, status: res.status }).toEqual({ method, path, status: 401 });
      const body = (await res.json()) as Record<string, unknown>;
      expect(Object.keys(body)).toEqual(['error']);
      expect(body.error).toMatchObject({ code: 'unauthorized' });
    }
  });
});
