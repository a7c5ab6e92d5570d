import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { ensureAdmin } from './accounts.ts';
import { OWNERS_ONLY } from './admin-route.ts';
import { createTestApp, signIn } from '../test/test-app.ts';
import { rowsOf, useTestDatabase } from '../test/database.ts';

/**
 * Walks /api/openapi.json: every operation documented with the `owner` scope answers a signed-in
 * staff member 403 with no data and changes nothing, whatever it is sent; an owner reaches
 * it. Owner operations added later are covered without touching this file.
 */
type Operation = { security?: Record<string, string[]>[] };
type Doc = { paths: Record<string, Record<string, Operation>> };

const database = useTestDatabase();
let staffCookie: string;
let ownerCookie: string;
beforeAll(async () => {
  await ensureAdmin(database.db, 'role-owner@example.com', 'role-owner-password', 'owner');
  await ensureAdmin(database.db, 'role-staff@example.com', 'role-staff-password', 'staff');
  const { json } = createTestApp(database);
  ownerCookie = await signIn(json, 'role-owner@example.com', 'role-owner-password');
  staffCookie = await signIn(json, 'role-staff@example.com', 'role-staff-password');
});

async function ownerOperations() {
  const { app } = createTestApp(database);
  const doc = (await (await app.request('/api/openapi.json')).json()) as Doc;
  return Object.entries(doc.paths).flatMap(([path, methods]) =>
    Object.entries(methods)
      .filter(([, op]) => JSON.stringify(op.security) === JSON.stringify([{ sessionCookie: ['owner'] }]))
      .map(([method]) => ({ method: method.toUpperCase(), path: path.replace(/\{[^}]+\}/g, '00000000-0000-4000-8000-000000000000') })),
  );
}

async function digest(): Promise<string> {
  const tables = [
    'users',
    'sessions',
    'booking_settings',
    'emails',
    'team_settings',
    'account_tokens',
    'audit_log',
    'recovery_codes',
    'email_templates',
  ];
  const parts: string[] = [];
  for (const table of tables) {
    const [row] = await rowsOf<{ d: string }>(
      database.db,
      sql`select md5(coalesce(string_agg(t::text, '|' order by t::text), '')) as d from ${sql.identifier(table)} t`,
    );
    parts.push(`${table}:${row!.d}`);
  }
  return parts.join(' ');
}

describe('every owner operation', () => {
  it('is documented, and includes the settings', async () => {
    const ops = await ownerOperations();
    expect(ops).toContainEqual({ method: 'PUT', path: '/api/booking-settings' });
    expect(ops).toContainEqual({ method: 'PUT', path: '/api/website' });
    expect(ops).toContainEqual({ method: 'GET', path: '/api/email' });
  });

  it('answers staff 403 with no data and changes nothing, for any body', async () => {
    const { json } = createTestApp(database);
    // The staff member's own sign-in is recorded; what follows must not change anything more.
    const before = await digest();
    for (const { method, path } of await ownerOperations()) {
      for (const body of [{}, { role: 'owner', require_two_factor: true, email: 'x@example.com' }]) {
        const res = await json(method, path, method === 'GET' ? undefined : body, { cookie: staffCookie });
        expect({ method, path, status: res.status }).toEqual({ method, path, status: 403 });
        expect(await res.json()).toEqual({ error: { code: 'forbidden', message: OWNERS_ONLY, requestId: expect.any(String) } });
      }
    }
    expect(await digest()).toBe(before);
  });

  it('is reached by an owner (no 401 or 403)', async () => {
    const { json } = createTestApp(database);
    for (const { method, path } of await ownerOperations()) {
      if (method !== 'GET') continue; // reading is enough to show the role check lets owners through
      const res = await json(method, path, undefined, { cookie: ownerCookie });
      expect({ method, path, reached: res.status !== 401 && res.status !== 403 }).toEqual({ method, path, reached: true });
    }
  });
});
