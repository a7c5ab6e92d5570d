import { sql } from 'drizzle-orm';
import { beforeEach, describe, expect, it } from 'vitest';
import type { ApiKeyList, CreatedApiKey } from '#shared/schemas/api-keys';
import type { AuditPage } from '#shared/schemas/audit';
import type { Lead } from '#shared/schemas/lead';
import { OWNERS_ONLY } from '../auth/admin-route.ts';
import { ensureAdmin } from '../auth/accounts.ts';
import { KEY_NOT_ACCEPTED } from '../auth/require-user.ts';
import { execute } from '../db/sql.ts';
import { createTestApp, signIn, validLead } from '../test/test-app.ts';
import { rowsOf, useTestDatabase } from '../test/database.ts';
import { hashToken } from '../lib/secret-token.ts';

/** API keys: made and revoked by owners, shown once, stored hashed; a key acts as its maker within its scopes. */
const database = useTestDatabase();
let t: ReturnType<typeof createTestApp>;
let owner: { id: string; cookie: string };
let staffCookie: string;

beforeEach(async () => {
  await execute(database.db, sql`truncate users, sessions, leads, rate_limits cascade`);
  t = createTestApp(database, { API_KEY_RATE_LIMIT: '5' });
  owner = { id: (await ensureAdmin(database.db, 'olive@keystone.test', 'olive-password', 'owner', 'Olive Owner')).user.id, cookie: '' };
  await ensureAdmin(database.db, 'sam@keystone.test', 'sam-password', 'staff', 'Sam Staff');
  owner.cookie = await signIn(t.json, 'olive@keystone.test', 'olive-password');
  staffCookie = await signIn(t.json, 'sam@keystone.test', 'sam-password');
});

const call = async <T>(
  method: string,
  path: string,
  body?: unknown,
  headers: Record<string, string | undefined> = { cookie: owner.cookie },
) => {
  const res = await t.json(method, path, body, headers);
  return { status: res.status, headers: res.headers, body: (await res.json().catch(() => null)) as T };
};
const makeKey = async (scopes: string[], name = 'Partner form') =>
  (await call<CreatedApiKey>('POST', '/api/api-keys', { name, scopes })).body;
/** A request from another program: the key, no Origin, no cookie. */
const withKey = (key: string, extra: Record<string, string | undefined> = {}) => ({
  authorization: `Bearer ${key}`,
  origin: undefined,
  ...extra,
});
const errorOf = (body: unknown) => (body as { error: { code: string; message: string; fields?: Record<string, string> } }).error;

describe('managing API keys', () => {
  it('POST /api/api-keys shows the key once and stores only its hash; GET lists it without the key; DELETE revokes it', async () => {
    const created = await call<CreatedApiKey>('POST', '/api/api-keys', { name: '  Partner form  ', scopes: ['leads:write', 'leads:read'] });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      name: 'Partner form',
      scopes: ['leads:write', 'leads:read'],
      created_by: { id: owner.id, name: 'Olive Owner' },
      last_used_at: null,
      last_used_ip: null,
    });
    const { key, prefix } = created.body;
    expect(key).toMatch(/^crm_[A-Za-z0-9_-]{43}$/);
    expect(key.startsWith(prefix)).toBe(true);
    expect(prefix.length).toBeLessThan(16);

    const rows = await rowsOf<{ key_hash: string; row: string }>(database.db, sql`select key_hash, k::text as row from api_keys k`);
    expect(rows).toHaveLength(1);
    expect(rows[0]!.key_hash).toBe(hashToken(key));
    expect(rows[0]!.row).not.toContain(key);

    const list = await call<ApiKeyList>('GET', '/api/api-keys');
    expect(list.body.api_keys).toEqual([{ ...created.body, key: undefined }].map(({ key: _, ...rest }) => rest));
    expect(JSON.stringify(list.body)).not.toContain(key);

    expect((await call('DELETE', `/api/api-keys/${created.body.id}`)).status).toBe(200);
    expect((await call<ApiKeyList>('GET', '/api/api-keys')).body.api_keys).toEqual([]);
    expect((await call('DELETE', `/api/api-keys/${created.body.id}`)).status).toBe(404);
    const audit = await call<AuditPage>('GET', '/api/audit');
    expect(audit.body.entries.map((e) => e.action).slice(0, 2)).toEqual(['api_key_revoked', 'api_key_created']);
  });

  it('POST /api/api-keys rejects a missing name, no scopes, an unknown or repeated scope', async () => {
    const fields = async (body: unknown) => errorOf((await call('POST', '/api/api-keys', body)).body).fields;
    expect(await fields({ name: ' ', scopes: ['leads:read'] })).toEqual({ name: 'Name is required' });
    expect(await fields({ name: 'x'.repeat(61), scopes: ['leads:read'] })).toEqual({ name: 'Name must be at most 60 characters' });
    expect(await fields({ name: 'A', scopes: [] })).toEqual({ scopes: 'Choose at least one scope' });
    expect(await fields({ name: 'A', scopes: ['settings:write'] })).toEqual({
      scopes: 'Scopes must be among leads:read, leads:write, appointments:read, appointments:write, analytics:read, email:send',
    });
    expect(await fields({ name: 'A', scopes: ['leads:read', 'leads:read'] })).toEqual({ scopes: 'Each scope at most once' });
    expect(await rowsOf(database.db, sql`select 1 from api_keys`)).toEqual([]);
  });

  it('is for owners only: staff are refused, and no API key can manage keys', async () => {
    for (const [method, path, body] of [
      ['GET', '/api/api-keys', undefined],
      ['POST', '/api/api-keys', { name: 'Mine', scopes: ['leads:read'] }],
      ['DELETE', '/api/api-keys/00000000-0000-4000-8000-000000000000', undefined],
    ] as const) {
      const res = await call(method, path, body, { cookie: staffCookie });
      expect({ path, method, status: res.status, message: errorOf(res.body).message }).toEqual({
        path,
        method,
        status: 403,
        message: OWNERS_ONLY,
      });
    }
    const { key } = await makeKey(['leads:read', 'leads:write', 'appointments:read', 'appointments:write', 'analytics:read']);
    const res = await call('GET', '/api/api-keys', undefined, withKey(key));
    expect(res.status).toBe(401);
    expect(errorOf(res.body).message).toBe(KEY_NOT_ACCEPTED);
  });
});

describe('a request with an API key', () => {
  it('acts as the key’s maker: a lead it creates is theirs, and the audit log names the key', async () => {
    const { key } = await makeKey(['leads:write', 'leads:read'], 'Partner site form');
    const made = await call<Lead>(
      'POST',
      '/api/leads',
      validLead({ submission_id: undefined, email: 'api@example.com' }),
      withKey(key, { 'user-agent': 'partner/1.0' }),
    );
    expect(made.status).toBe(201);
    // Its first status is recorded as set by the maker, as for a lead they add on the site.
    const history = await rowsOf<{ changed_by: string }>(
      database.db,
      sql`select changed_by from lead_status_changes where lead_id = ${made.body.id}`,
    );
    expect(history).toEqual([{ changed_by: owner.id }]);
    const audit = await call<AuditPage>('GET', '/api/audit?action=lead_created');
    expect(audit.body.entries[0]).toMatchObject({ actor_id: owner.id, actor_name: 'Olive Owner', api_key_name: 'Partner site form' });
    // Read back with the key; the list shows when and from where it was last used.
    expect((await call('GET', `/api/leads/${made.body.id}`, undefined, withKey(key))).status).toBe(200);
    const [listed] = (await call<ApiKeyList>('GET', '/api/api-keys')).body.api_keys;
    expect(listed!.last_used_at).not.toBeNull();
    expect(listed!.last_used_ip).not.toBeNull();
  });

  it('reaches only the operations its scopes cover, by method', async () => {
    const { key: readOnly } = await makeKey(['leads:read']);
    const { key: writeOnly } = await makeKey(['leads:write']);
    const { key: appointments } = await makeKey(['appointments:read']);
    expect((await call('GET', '/api/leads', undefined, withKey(readOnly))).status).toBe(200);
    expect((await call('GET', '/api/pipeline', undefined, withKey(readOnly))).status).toBe(200);
    expect((await call('GET', '/api/tasks', undefined, withKey(readOnly))).status).toBe(200);
    const refused = await call('POST', '/api/leads', validLead({ submission_id: undefined }), withKey(readOnly));
    expect({ status: refused.status, message: errorOf(refused.body).message }).toEqual({
      status: 403,
      message: 'This API key does not have the leads:write scope.',
    });
    expect((await call('GET', '/api/leads', undefined, withKey(writeOnly))).status).toBe(403);
    expect((await call('POST', '/api/leads', validLead({ submission_id: undefined }), withKey(writeOnly))).status).toBe(201);
    expect((await call('GET', '/api/appointments', undefined, withKey(appointments))).status).toBe(200);
    expect((await call('GET', '/api/leads', undefined, withKey(appointments))).status).toBe(403);
    expect((await call('GET', '/api/analytics/summary', undefined, withKey(appointments))).status).toBe(403);
    // Sending email and the owners' settings take no key at all.
    const lead = (await rowsOf<{ id: string }>(database.db, sql`select id from leads limit 1`))[0]!;
    const email = await call('POST', `/api/leads/${lead.id}/emails`, { subject: 'Hi', body: 'Hello' }, withKey(writeOnly));
    expect(email.status).toBe(401);
    expect((await call('GET', '/api/pipeline/stages', undefined, withKey(readOnly))).status).toBe(401);
    expect((await call('GET', '/api/team', undefined, withKey(readOnly))).status).toBe(401);
  });

  it('ignores a session cookie sent with it, and needs no Origin (no CSRF check)', async () => {
    const { key } = await makeKey(['leads:read']);
    // The owner's cookie would allow a write; with the read-only key it is the key that counts.
    const both = await call('POST', '/api/leads', validLead({ submission_id: undefined }), withKey(key, { cookie: owner.cookie }));
    expect(both.status).toBe(403);
    const wrong = await call('GET', '/api/leads', undefined, withKey('crm_wrong', { cookie: owner.cookie }));
    expect(wrong.status).toBe(401);
    // A session-only operation with the owner's cookie and a key: refused, the cookie not read.
    expect((await call('GET', '/api/account/preferences', undefined, withKey(key, { cookie: owner.cookie }))).status).toBe(401);
    // A write with a key from another site's Origin, or none, is the key's: no cross-site refusal.
    const { key: writer } = await makeKey(['leads:write']);
    const fromAfar = await call(
      'POST',
      '/api/leads',
      validLead({ submission_id: undefined }),
      withKey(writer, { origin: 'https://partner.example' }),
    );
    expect(fromAfar.status).toBe(201);
  });

  it('answers 401 without saying why for a wrong key, a revoked key, or a deactivated or removed maker', async () => {
    const check = async (key: string) => {
      const res = await call('GET', '/api/leads', undefined, withKey(key));
      expect({ status: res.status, error: errorOf(res.body) }).toEqual({
        status: 401,
        error: { code: 'unauthorized', message: 'Invalid API key.', requestId: expect.any(String) },
      });
    };
    await check('crm_not-a-key');
    await check('');
    const revoked = await makeKey(['leads:read']);
    await call('DELETE', `/api/api-keys/${revoked.id}`);
    await check(revoked.key);

    // A maker removed outside the app (psql): the key goes with the account.
    const other = (await ensureAdmin(database.db, 'otto@keystone.test', 'otto-password', 'owner', 'Otto Owner')).user.id;
    const ottoCookie = await signIn(t.json, 'otto@keystone.test', 'otto-password');
    const otto = (await call<CreatedApiKey>('POST', '/api/api-keys', { name: 'Otto', scopes: ['leads:read'] }, { cookie: ottoCookie }))
      .body;
    expect((await call('GET', '/api/leads', undefined, withKey(otto.key))).status).toBe(200);
    await execute(database.db, sql`delete from users where id = ${other}`);
    await check(otto.key);
    expect(await rowsOf(database.db, sql`select 1 from api_keys where id = ${otto.id}`)).toEqual([]);
  });

  it('ends for good when its maker is deactivated, removed or demoted: no reactivation or promotion brings it back', async () => {
    const keyOfNewOwner = async (email: string) => {
      const id = (await ensureAdmin(database.db, email, 'otto-password', 'owner', 'Otto Owner')).user.id;
      const cookie = await signIn(t.json, email, 'otto-password');
      const made = await call<CreatedApiKey>('POST', '/api/api-keys', { name: `Key of ${email}`, scopes: ['leads:read'] }, { cookie });
      expect((await call('GET', '/api/leads', undefined, withKey(made.body.key))).status).toBe(200);
      return { id, key: made.body };
    };
    const refused = async (key: string) => (await call('GET', '/api/leads', undefined, withKey(key))).status;
    const revocations = async (keyId: string) =>
      (await call<AuditPage>('GET', '/api/audit?action=api_key_revoked')).body.entries
        .filter((e) => e.target_id === keyId)
        .map((e) => ({ actor: e.actor_name, reason: (e.details as { reason?: string }).reason }));

    const deactivated = await keyOfNewOwner('dee@keystone.test');
    expect((await call('POST', `/api/team/members/${deactivated.id}/deactivate`, {})).status).toBe(200);
    expect(await refused(deactivated.key.key)).toBe(401);
    expect((await call('POST', `/api/team/members/${deactivated.id}/reactivate`, {})).status).toBe(200);
    expect(await refused(deactivated.key.key)).toBe(401);
    expect(await revocations(deactivated.key.id)).toEqual([{ actor: 'Olive Owner', reason: 'deactivated' }]);

    // Staff make no keys, so a demoted maker keeps none; made an owner again, still none.
    const demoted = await keyOfNewOwner('dem@keystone.test');
    expect((await call('PATCH', `/api/team/members/${demoted.id}`, { role: 'staff' })).status).toBe(200);
    expect(await refused(demoted.key.key)).toBe(401);
    expect((await call('PATCH', `/api/team/members/${demoted.id}`, { role: 'owner' })).status).toBe(200);
    expect(await refused(demoted.key.key)).toBe(401);
    expect(await revocations(demoted.key.id)).toEqual([{ actor: 'Olive Owner', reason: 'demoted' }]);

    const removed = await keyOfNewOwner('rem@keystone.test');
    expect((await call('DELETE', `/api/team/members/${removed.id}`)).status).toBe(200);
    expect(await refused(removed.key.key)).toBe(401);
    expect(await revocations(removed.key.id)).toEqual([{ actor: 'Olive Owner', reason: 'removed' }]);
    expect((await call<ApiKeyList>('GET', '/api/api-keys')).body.api_keys.map((k) => k.name)).toEqual([]);
  });

  it('is rate limited per key (API_KEY_RATE_LIMIT a minute), with Retry-After', async () => {
    const { key } = await makeKey(['leads:read']);
    const { key: other } = await makeKey(['leads:read']);
    for (let i = 0; i < 5; i++) expect((await call('GET', '/api/leads', undefined, withKey(key))).status).toBe(200);
    const limited = await call('GET', '/api/leads', undefined, withKey(key));
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(errorOf(limited.body).code).toBe('rate_limited');
    // Another key, and the maker's own session, are not held back by it.
    expect((await call('GET', '/api/leads', undefined, withKey(other))).status).toBe(200);
    expect((await call('GET', '/api/leads')).status).toBe(200);
  });
});
