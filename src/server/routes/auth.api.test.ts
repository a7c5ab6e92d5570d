import { sql } from 'drizzle-orm';
import { beforeEach, describe, expect, it } from 'vitest';
import { execute } from '../db/sql.ts';
import { hashToken } from '../db/queries/sessions.ts';
import { ensureAdmin } from '../auth/accounts.ts';
import { deleteUser } from '../db/queries/users.ts';
import { createTestApp, signIn } from '../test/app.ts';
import { useTestDatabase, rowsOf } from '../test/database.ts';

const database = useTestDatabase();
beforeEach(async () => {
  await database.db.execute(sql`truncate users, sessions, rate_limits cascade`);
  await ensureAdmin(database.db, 'admin@example.com', 'correct-password');
});

const session = async (app: ReturnType<typeof createTestApp>['app'], cookie?: string) =>
  (await app.request('/api/auth/session', { headers: cookie ? { cookie } : {} })).json();

describe('POST /api/auth/login', () => {
  it('signs in with a case-insensitive email and sets an httpOnly SameSite=Lax cookie', async () => {
    const { json } = createTestApp(database);
    const res = await json('POST', '/api/auth/login', { email: ' Admin@Example.com ', password: 'correct-password' });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ user: { id: expect.any(String), email: 'admin@example.com' } });
    const cookie = res.headers.get('set-cookie')!;
    expect(cookie).toMatch(/^session=[A-Za-z0-9_-]{43};/);
    expect(cookie).toContain('HttpOnly');
    expect(cookie).toContain('SameSite=Lax');
    expect(cookie).not.toContain('Secure');
  });

  it('marks the cookie Secure when served over https', async () => {
    const { json } = createTestApp(database);
    const res = await json('POST', 'https://crm.example/api/auth/login', { email: 'admin@example.com', password: 'correct-password' });
    expect(res.headers.get('set-cookie')).toContain('Secure');
  });

  it('marks the cookie Secure behind our https proxy (X-Forwarded-Proto) only with TRUST_PROXY', async () => {
    // The browser's page is https://localhost when the proxy is believed, http://localhost when not.
    const login = (env: Record<string, string>, origin: string) =>
      createTestApp(database, env).json(
        'POST',
        '/api/auth/login',
        { email: 'admin@example.com', password: 'correct-password' },
        { 'x-forwarded-proto': 'https', origin },
      );
    const trusted = (await login({ TRUST_PROXY: 'on' }, 'https://localhost')).headers.get('set-cookie')!;
    expect(trusted.split('; ')).toEqual(expect.arrayContaining(['HttpOnly', 'SameSite=Lax', 'Secure']));
    // Without TRUST_PROXY anyone can send the header; the request itself came over http.
    const untrusted = (await login({}, 'http://localhost')).headers.get('set-cookie')!;
    expect(untrusted.split('; ')).toEqual(expect.arrayContaining(['HttpOnly', 'SameSite=Lax']));
    expect(untrusted).not.toContain('Secure');
  });

  it('clears the cookie at sign-out with the same HttpOnly, SameSite=Lax and Secure attributes', async () => {
    const { json } = createTestApp(database, { TRUST_PROXY: 'on' });
    const cookie = await signIn(json, 'admin@example.com', 'correct-password');
    const res = await json('POST', '/api/auth/logout', undefined, { cookie, 'x-forwarded-proto': 'https', origin: 'https://localhost' });
    const cleared = res.headers.get('set-cookie')!;
    expect(cleared).toMatch(/^session=;/);
    expect(cleared.split('; ')).toEqual(expect.arrayContaining(['HttpOnly', 'SameSite=Lax', 'Secure']));
  });

  it('stores only a hash of the session token', async () => {
    const { json } = createTestApp(database);
    const cookie = await signIn(json, 'admin@example.com', 'correct-password');
    const token = cookie.split('=')[1]!;
    const rows = await rowsOf<{ token_hash: string }>(database.db, sql`select token_hash from sessions`);
    expect(rows).toEqual([{ token_hash: hashToken(token) }]);
    expect(rows[0]!.token_hash).not.toContain(token);
  });

  it('answers an unknown email and a wrong password the same way', async () => {
    const { json } = createTestApp(database);
    const wrong = await json('POST', '/api/auth/login', { email: 'admin@example.com', password: 'wrong-password' });
    const unknown = await json('POST', '/api/auth/login', { email: 'nobody@example.com', password: 'wrong-password' });
    expect(wrong.status).toBe(401);
    expect(unknown.status).toBe(401);
    const a = (await wrong.json()) as { error: { code: string; message: string } };
    const b = (await unknown.json()) as { error: { code: string; message: string } };
    expect([a.error.code, a.error.message]).toEqual(['unauthorized', 'Invalid credentials']);
    expect([b.error.code, b.error.message]).toEqual(['unauthorized', 'Invalid credentials']);
    expect(wrong.headers.get('set-cookie')).toBeNull();
  });

  it.each([
    [{ email: '', password: 'whatever1' }, 'email', 'Email is required'],
    [{ email: 'nope', password: 'whatever1' }, 'email', 'Invalid email address'],
    [{ email: 'admin@example.com', password: '' }, 'password', 'Password is required'],
    [{ email: 'admin@example.com', password: 'short' }, 'password', 'Password must be at least 8 characters'],
  ])('validates %o', async (body, field, message) => {
    const { json } = createTestApp(database);
    const res = await json('POST', '/api/auth/login', body);
    expect(res.status).toBe(400);
    expect(((await res.json()) as { error: { fields: Record<string, string> } }).error.fields[field]).toBe(message);
  });

  it('locks an account after 5 failures in 15 minutes, even with the right password, then 429', async () => {
    const { json } = createTestApp(database);
    for (let i = 0; i < 5; i++) {
      expect((await json('POST', '/api/auth/login', { email: 'admin@example.com', password: `wrong-${i}-pass` })).status).toBe(401);
    }
    const res = await json('POST', '/api/auth/login', { email: 'admin@example.com', password: 'correct-password' });
    expect(res.status).toBe(429);
    expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0);
    const body = (await res.json()) as { error: { message: string } };
    expect(body.error.message).toMatch(/^Too many sign-in attempts\. Please try again in \d+ minutes?\.$/);
  });

  it('limits one IP to 20 failures across accounts', async () => {
    const { json } = createTestApp(database, { TRUST_PROXY: 'on' });
    const ip = { 'x-forwarded-for': '203.0.113.9' };
    for (let i = 0; i < 20; i++) {
      expect((await json('POST', '/api/auth/login', { email: `user${i}@example.com`, password: 'wrong-password' }, ip)).status).toBe(401);
    }
    expect((await json('POST', '/api/auth/login', { email: 'admin@example.com', password: 'correct-password' }, ip)).status).toBe(429);
    // Another IP still signs in.
    expect((await json('POST', '/api/auth/login', { email: 'admin@example.com', password: 'correct-password' }, { 'x-forwarded-for': '203.0.113.10' })).status).toBe(200);
  });

  it('rotates the session at sign-in: the previous token stops working', async () => {
    const { json, app } = createTestApp(database);
    const first = await signIn(json, 'admin@example.com', 'correct-password');
    const second = await signIn(json, 'admin@example.com', 'correct-password', { cookie: first });
    expect(second).not.toBe(first);
    expect(await session(app, first)).toEqual({ user: null });
    expect(await session(app, second)).toMatchObject({ user: { email: 'admin@example.com' } });
  });
});

describe('sessions', () => {
  it('reports nobody signed in without a cookie', async () => {
    const { app } = createTestApp(database);
    expect(await session(app)).toEqual({ user: null });
  });

  it('ends the server-side session at sign-out', async () => {
    const { json, app } = createTestApp(database);
    const cookie = await signIn(json, 'admin@example.com', 'correct-password');
    const res = await json('POST', '/api/auth/logout', undefined, { cookie });
    expect(res.status).toBe(200);
    expect(res.headers.get('set-cookie')).toMatch(/session=;/);
    expect(await session(app, cookie)).toEqual({ user: null });
    expect((await app.request('/api/notifications', { headers: { cookie } })).status).toBe(401);
  });

  it('expires a session idle for 7 days', async () => {
    const { json, app } = createTestApp(database);
    const cookie = await signIn(json, 'admin@example.com', 'correct-password');
    await execute(database.db, sql`update sessions set last_seen_at = now() - interval '7 days 1 minute'`);
    expect(await session(app, cookie)).toEqual({ user: null });
  });

  it('expires a session 30 days after sign-in however active', async () => {
    const { json, app } = createTestApp(database);
    const cookie = await signIn(json, 'admin@example.com', 'correct-password');
    await execute(database.db, sql`update sessions set expires_at = now() - interval '1 second'`);
    expect(await session(app, cookie)).toEqual({ user: null });
  });

  it('ends the sessions of a deleted user', async () => {
    const { json, app } = createTestApp(database);
    const cookie = await signIn(json, 'admin@example.com', 'correct-password');
    await deleteUser(database.db, 'admin@example.com');
    expect((await app.request('/api/notifications', { headers: { cookie } })).status).toBe(401);
    expect(await rowsOf(database.db, sql`select 1 from sessions`)).toEqual([]);
  });
});
