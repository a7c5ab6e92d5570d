import { beforeAll, describe, expect, it } from 'vitest';
import { API_KEY_SCOPES, type ApiKeyScope, type CreatedApiKey } from '#shared/schemas/api-keys';
import { ensureAdmin } from './accounts.ts';
import { KEY_NOT_ACCEPTED } from './require-user.ts';
import { createTestApp, signIn } from '../test/test-app.ts';
import { useTestDatabase } from '../test/database.ts';

/**
 * Walks /api/openapi.json with API keys: every operation documented with the `bearerApiKey`
 * scheme refuses a key holding every scope but its own (403) and lets a key holding only its
 * own through (no 401 or 403); every other operation refuses any key (401), even with a valid
 * owner's cookie beside it. Operations added later are covered without touching this file.
 */
type Operation = { security?: Record<string, string[]>[] };
type Doc = { security?: Record<string, string[]>[]; paths: Record<string, Record<string, Operation>> };
const ZERO_ID = '00000000-0000-4000-8000-000000000000';

const database = useTestDatabase();
let t: ReturnType<typeof createTestApp>;
let ownerCookie: string;
const keys = new Map<string, string>();

beforeAll(async () => {
  // No rate limit here: the walk sends a few hundred requests per key.
  t = createTestApp(database, { API_KEY_RATE_LIMIT: '0' });
  await ensureAdmin(database.db, 'key-walker@example.com', 'key-walker-password', 'owner');
  ownerCookie = await signIn(t.json, 'key-walker@example.com', 'key-walker-password');
  const make = async (name: string, scopes: readonly ApiKeyScope[]) => {
    const res = await t.json('POST', '/api/api-keys', { name, scopes }, { cookie: ownerCookie });
    keys.set(name, ((await res.json()) as CreatedApiKey).key);
  };
  await make('all', API_KEY_SCOPES);
  for (const scope of API_KEY_SCOPES) {
    await make(scope, [scope]);
    await make(
      `all but ${scope}`,
      API_KEY_SCOPES.filter((s) => s !== scope),
    );
  }
});

async function operations() {
  const doc = (await (await t.app.request('/api/openapi.json')).json()) as Doc;
  return Object.entries(doc.paths).flatMap(([path, methods]) =>
    Object.entries(methods).map(([method, op]) => {
      const security = op.security ?? doc.security ?? [];
      const scopes = security.flatMap((s) => s.bearerApiKey ?? []);
      return { method: method.toUpperCase(), path, security, scope: scopes[0] as ApiKeyScope | undefined, scopes };
    }),
  );
}

const request = (method: string, path: string, headers: Record<string, string | undefined>) =>
  t.json(method, path.replace(/\{[^}]+\}/g, ZERO_ID), method === 'GET' ? undefined : {}, { origin: undefined, ...headers });

describe('API keys across the OpenAPI document', () => {
  it('documents one scope on exactly the operations the issue names, never on owner or account operations', async () => {
    const ops = await operations();
    const keyed = ops.filter((op) => op.scope);
    for (const op of keyed) {
      expect({ op: `${op.method} ${op.path}`, security: op.security }).toEqual({
        op: `${op.method} ${op.path}`,
        security: [{ sessionCookie: [] }, { bearerApiKey: [op.scope] }],
      });
      expect(op.scope).toBe(`${op.scope!.split(':')[0]}:${op.method === 'GET' ? 'read' : 'write'}`);
      expect(op.path).toMatch(/^\/api\/(leads|pipeline$|tasks$|appointments|analytics)/);
    }
    const scopeOf = (key: string) => ops.find((op) => `${op.method} ${op.path}` === key)?.scope;
    expect(scopeOf('GET /api/leads')).toBe('leads:read');
    expect(scopeOf('POST /api/leads')).toBe('leads:write');
    expect(scopeOf('POST /api/leads/{id}/tasks')).toBe('leads:write');
    expect(scopeOf('GET /api/pipeline')).toBe('leads:read');
    expect(scopeOf('GET /api/tasks')).toBe('leads:read');
    expect(scopeOf('PATCH /api/appointments/{id}')).toBe('appointments:write');
    expect(scopeOf('GET /api/analytics/summary')).toBe('analytics:read');
    for (const sessionOnly of [
      'POST /api/leads/{id}/emails',
      'POST /api/leads/{id}/replies/read',
      'GET /api/pipeline/stages',
      'POST /api/pipeline/stages',
      'GET /api/api-keys',
      'GET /api/account/preferences',
      'GET /api/team',
      'GET /api/audit',
    ])
      expect({ sessionOnly, scope: scopeOf(sessionOnly) }).toEqual({ sessionOnly, scope: undefined });
    for (const op of ops.filter((o) => o.security.some((s) => s.sessionCookie?.includes('owner')))) expect(op.scopes).toEqual([]);
    // Every scope but email:send opens operations; email:send opens none: it lets the key's
    // appointment changes email the lead (auth/api-key-mail.ts), whose answers say whether they did.
    for (const scope of API_KEY_SCOPES)
      expect({ scope, opens: keyed.some((op) => op.scope === scope) }).toEqual({ scope, opens: scope !== 'email:send' });
    const doc = (await (await t.app.request('/api/openapi.json')).json()) as {
      paths: Record<string, Record<string, { responses: Record<string, { content?: Record<string, { schema: { $ref?: string } }> }> }>>;
      components: { schemas: Record<string, { properties?: Record<string, unknown> }> };
    };
    /** The properties of the operation's success answer (its named schema). */
    const answers = (method: string, path: string) => {
      const ok = Object.entries(doc.paths[path]![method]!.responses).find(([status]) => status.startsWith('2'))![1];
      const ref = ok.content!['application/json']!.schema.$ref!;
      return Object.keys(doc.components.schemas[ref.split('/').pop()!]!.properties ?? {});
    };
    for (const [method, path] of [
      ['post', '/api/appointments'],
      ['patch', '/api/appointments/{id}'],
      ['delete', '/api/appointments/{id}'],
      ['delete', '/api/leads/{id}'],
    ] as const)
      expect({ op: `${method} ${path}`, fields: answers(method, path) }).toEqual({
        op: `${method} ${path}`,
        fields: expect.arrayContaining(['notified', 'notified_reason']),
      });
  });

  it('a key holding only email:send reaches no operation (403 on every keyed one)', async () => {
    for (const op of (await operations()).filter((o) => o.scope)) {
      const res = await request(op.method, op.path, { authorization: `Bearer ${keys.get('email:send')}` });
      expect({ op: `${op.method} ${op.path}`, status: res.status }).toEqual({ op: `${op.method} ${op.path}`, status: 403 });
    }
  });

  it('refuses a key without the operation’s scope (403) and lets one with only that scope through', async () => {
    for (const op of (await operations()).filter((o) => o.scope)) {
      const lacking = await request(op.method, op.path, { authorization: `Bearer ${keys.get(`all but ${op.scope}`)}` });
      expect({ op: `${op.method} ${op.path}`, status: lacking.status }).toEqual({ op: `${op.method} ${op.path}`, status: 403 });
      expect(((await lacking.json()) as { error: { message: string } }).error.message).toBe(
        `This API key does not have the ${op.scope} scope.`,
      );
      const holding = await request(op.method, op.path, { authorization: `Bearer ${keys.get(op.scope!)}` });
      expect({ op: `${op.method} ${op.path}`, reached: ![401, 403].includes(holding.status) }).toEqual({
        op: `${op.method} ${op.path}`,
        reached: true,
      });
    }
  });

  it('refuses any key (401) on every other protected operation, even with an owner’s cookie beside it', async () => {
    const others = (await operations()).filter((o) => !o.scope && o.security.length > 0);
    expect(others.length).toBeGreaterThan(20);
    for (const op of others) {
      const res = await request(op.method, op.path, { authorization: `Bearer ${keys.get('all')}`, cookie: ownerCookie });
      expect({ op: `${op.method} ${op.path}`, status: res.status }).toEqual({ op: `${op.method} ${op.path}`, status: 401 });
      expect(((await res.json()) as { error: { message: string } }).error.message).toBe(KEY_NOT_ACCEPTED);
    }
  });
});
