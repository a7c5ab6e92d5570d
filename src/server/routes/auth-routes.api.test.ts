import { sql } from 'drizzle-orm';
import { beforeEach, describe, expect, it } from 'vitest';
import { execute } from '../db/sql.ts';
import { hashToken } from '../lib/secret-token.ts';
import { ensureAdmin } from '../auth/accounts.ts';
import { deleteUser } from '../db/queries/users-queries.ts';
import {
  MAX_FAILURES_PER_ACCOUNT_AND_IP,
  MAX_FAILURES_PER_IP,
  SIGN_IN_WINDOW_SECONDS,
  SLOW_DOWN_AFTER_ACCOUNT_FAILURES,
  SLOW_DOWN_MAX_MS,
  SLOW_DOWN_STEP_MS,
} from '../auth/sign-in-limits.ts';
import { deleteStaleSignInIps } from '../db/queries/sign-in-ips-queries.ts';
import { createTestApp, signIn } from '../test/test-app.ts';
import { middleOfWindow, setDatabaseClock } from '../test/database-clock.ts';
import { useTestDatabase, rowsOf } from '../test/database.ts';

const database = useTestDatabase();
beforeEach(async () => {
  // The limits' counts must fall in one 15-minute window: the database's clock stands still in the middle of one.
  await setDatabaseClock(database, middleOfWindow(SIGN_IN_WINDOW_SECONDS));
  await database.db.execute(sql`truncate users, sessions, rate_limits, sign_in_ips cascade`);
  await ensureAdmin(database.db, 'admin@example.com', 'correct-password');
});

const session = async (app: ReturnType<typeof createTestApp>['app'], cookie?: string) =>
  (await app.request('/api/auth/session', { headers: cookie ? { cookie } : {} })).json();

describe('POST /api/auth/login', () => {
  it('signs in with a case-insensitive email and sets an httpOnly SameSite=Lax cookie', async () => {
    const { json } = createTestApp(database);
    const res = await json('POST', '/api/auth/login', { email: ' Admin@Example.com ', password: 'correct-password' });
    expect(res.status).toBe(200);
    // Named by default after the part of the email before the @ (no name was given).
    expect(await res.json()).toEqual({
      user: { id: expect.any(String), email: 'admin@example.com', display_name: 'admin', phone: null, role: 'owner' },
    });
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

  it('rotates the session at sign-in: the previous token stops working', async () => {
    const { json, app } = createTestApp(database);
    const first = await signIn(json, 'admin@example.com', 'correct-password');
    const second = await signIn(json, 'admin@example.com', 'correct-password', { cookie: first });
    expect(second).not.toBe(first);
    expect(await session(app, first)).toEqual({ user: null, setup_needed: false });
    expect(await session(app, second)).toMatchObject({ user: { email: 'admin@example.com' } });
  });
});

describe('sessions', () => {
  it('reports nobody signed in without a cookie', async () => {
    const { app } = createTestApp(database);
    expect(await session(app)).toEqual({ user: null, setup_needed: false });
  });

  it('ends the server-side session at sign-out', async () => {
    const { json, app } = createTestApp(database);
    const cookie = await signIn(json, 'admin@example.com', 'correct-password');
    const res = await json('POST', '/api/auth/logout', undefined, { cookie });
    expect(res.status).toBe(200);
    expect(res.headers.get('set-cookie')).toMatch(/session=;/);
    expect(await session(app, cookie)).toEqual({ user: null, setup_needed: false });
    expect((await app.request('/api/notifications', { headers: { cookie } })).status).toBe(401);
  });

  it('expires a session idle for 7 days', async () => {
    const { json, app } = createTestApp(database);
    const cookie = await signIn(json, 'admin@example.com', 'correct-password');
    await execute(database.db, sql`update sessions set last_seen_at = crm_now() - interval '7 days 1 minute'`);
    expect(await session(app, cookie)).toEqual({ user: null, setup_needed: false });
  });

  it('expires a session 30 days after sign-in however active', async () => {
    const { json, app } = createTestApp(database);
    const cookie = await signIn(json, 'admin@example.com', 'correct-password');
    await execute(database.db, sql`update sessions set expires_at = crm_now() - interval '1 second'`);
    expect(await session(app, cookie)).toEqual({ user: null, setup_needed: false });
  });

  it('ends the sessions of a deleted user', async () => {
    const { json, app } = createTestApp(database);
    const cookie = await signIn(json, 'admin@example.com', 'correct-password');
    await deleteUser(database.db, 'admin@example.com');
    expect((await app.request('/api/notifications', { headers: { cookie } })).status).toBe(401);
    expect(await rowsOf(database.db, sql`select 1 from sessions`)).toEqual([]);
  });
});

describe('sign-in limits', () => {
  const ADMIN = { email: 'admin@example.com', password: 'correct-password' };
  const WRONG = { email: 'admin@example.com', password: 'wrong-password' };
  // TRUST_PROXY: each request names its client IP in X-Forwarded-For.
  const setup = () => {
    const { json } = createTestApp(database, { TRUST_PROXY: 'on' });
    const login = async (body: { email: string; password: string }, ip: string, headers: Record<string, string> = {}) => {
      const started = performance.now();
      const res = await json('POST', '/api/auth/login', body, { 'x-forwarded-for': ip, ...headers });
      const ms = performance.now() - started;
      const error = res.status === 200 ? undefined : ((await res.json()) as { error: { code: string; message: string } }).error;
      return {
        status: res.status,
        retryAfter: res.headers.get('retry-after'),
        message: error?.message,
        cookie: res.headers.get('set-cookie')?.split(';')[0],
        ms,
      };
    };
    return { login };
  };
  const rateLimitRows = async () => Number((await rowsOf<{ n: string }>(database.db, sql`select count(*) as n from rate_limits`))[0]!.n);
  const statuses = (results: { status: number }[]) => results.map((r) => r.status);
  const TOO_MANY_PAIR = /^Too many failed sign-ins for this email from your network\. Please try again in (\d+) minutes?\.$/;
  const TOO_MANY_IP = /^Too many failed sign-ins from your network\. Please try again in (\d+) minutes?\.$/;

  it("a stranger's 100 failures from 10 IPs (10 each) do not stop the admin signing in from their usual IP, without delay", async () => {
    const { login } = setup();
    const usualIp = '198.51.100.7';
    expect((await login(ADMIN, usualIp)).status).toBe(200);

    for (let n = 0; n < 10; n++) {
      const ip = `203.0.113.${n + 1}`;
      const answers = [];
      for (let i = 0; i < 10; i++) answers.push(await login({ ...WRONG, password: `wrong-${i}-password` }, ip));
      // Each stranger IP gets its 5 tries on this account, then 429.
      expect(statuses(answers)).toEqual([...Array<number>(5).fill(401), ...Array<number>(5).fill(429)]);
    }

    // No wait (the account is under the slow-down bound): argon2 and a few queries, well
    // under the 2 s of the second failure past the bound, even on a busy test machine.
    const admin = await login(ADMIN, usualIp);
    expect(admin.status).toBe(200);
    expect(admin.ms).toBeLessThan(2 * SLOW_DOWN_STEP_MS);
  });

  it('blocks an (account, IP) pair after 5 failures in 15 minutes, even with the right password, with Retry-After', async () => {
    const { login } = setup();
    await ensureAdmin(database.db, 'other@example.com', 'other-password');
    for (let i = 0; i < MAX_FAILURES_PER_ACCOUNT_AND_IP; i++) expect((await login(WRONG, '203.0.113.9')).status).toBe(401);

    const right = await login(ADMIN, '203.0.113.9');
    expect(right.status).toBe(429);
    expect(right.cookie).toBeUndefined();
    const retryAfter = Number(right.retryAfter);
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(15 * 60);
    expect(right.message).toMatch(TOO_MANY_PAIR);
    expect(Number(TOO_MANY_PAIR.exec(right.message!)![1])).toBe(Math.ceil(retryAfter / 60));

    // The same account from another IP, and another account from this IP, still sign in.
    expect((await login(ADMIN, '203.0.113.10')).status).toBe(200);
    expect((await login({ email: 'other@example.com', password: 'other-password' }, '203.0.113.9')).status).toBe(200);
  });

  it('answers a right and a wrong password from a blocked (account, IP) pair the same 429 while the window lasts', async () => {
    const { login } = setup();
    for (let i = 0; i < MAX_FAILURES_PER_ACCOUNT_AND_IP; i++) expect((await login(WRONG, '203.0.113.9')).status).toBe(401);
    const rows = await rateLimitRows();
    const right = await login(ADMIN, '203.0.113.9');
    const wrong = await login(WRONG, '203.0.113.9');
    expect([right.status, wrong.status]).toEqual([429, 429]);
    expect(right.message).toBe(wrong.message);
    expect(right.retryAfter).not.toBeNull();
    expect(await rateLimitRows()).toBe(rows);
    // Still blocked after them: the right password did not reset the pair.
    expect((await login(ADMIN, '203.0.113.9')).status).toBe(429);
  });

  it('parallel guesses cannot slip past the pair limit: of 12 at once, exactly 5 are checked', async () => {
    const { login } = setup();
    const answers = await Promise.all(
      Array.from({ length: 12 }, (_, i) => login({ ...WRONG, password: `wrong-${i}-password` }, '203.0.113.9')),
    );
    expect(statuses(answers).filter((s) => s === 401)).toHaveLength(MAX_FAILURES_PER_ACCOUNT_AND_IP);
    expect(statuses(answers).filter((s) => s === 429)).toHaveLength(12 - MAX_FAILURES_PER_ACCOUNT_AND_IP);
  });

  it('a successful sign-in clears its pair: earlier typos do not count towards the next block', async () => {
    const { login } = setup();
    for (let i = 0; i < MAX_FAILURES_PER_ACCOUNT_AND_IP - 1; i++) expect((await login(WRONG, '203.0.113.9')).status).toBe(401);
    expect((await login(ADMIN, '203.0.113.9')).status).toBe(200);
    for (let i = 0; i < MAX_FAILURES_PER_ACCOUNT_AND_IP; i++) expect((await login(WRONG, '203.0.113.9')).status).toBe(401);
    expect((await login(WRONG, '203.0.113.9')).status).toBe(429);
  });

  it('limits one IP to 20 failures across accounts, then 429 for every account from it', async () => {
    const { login } = setup();
    for (let i = 0; i < MAX_FAILURES_PER_IP; i++) {
      expect((await login({ email: `user${i}@example.com`, password: 'wrong-password' }, '203.0.113.9')).status).toBe(401);
    }
    const blocked = await login(ADMIN, '203.0.113.9');
    expect(blocked.status).toBe(429);
    expect(Number(blocked.retryAfter)).toBeGreaterThan(0);
    expect(blocked.message).toMatch(TOO_MANY_IP);
    // Another IP still signs in.
    expect((await login(ADMIN, '203.0.113.10')).status).toBe(200);
  });

  it('a blocked IP writes nothing: 200 sign-ins with new emails all get 429 and add no rate-limit rows', async () => {
    const { login } = setup();
    for (let i = 0; i < MAX_FAILURES_PER_IP; i++) {
      expect((await login({ email: `user${i}@example.com`, password: 'wrong-password' }, '203.0.113.9')).status).toBe(401);
    }
    const before = await rateLimitRows();
    const answers = [];
    for (let i = 0; i < 200; i++) answers.push(await login({ email: `fresh${i}@example.com`, password: 'wrong-password' }, '203.0.113.9'));
    expect(new Set(statuses(answers))).toEqual(new Set([429]));
    expect(await rateLimitRows()).toBe(before);
  });

  it('past 100 failures on an account from anywhere, slows strangers progressively but never blocks, and not its owner from a usual IP or session', async () => {
    const { login } = setup();
    const usualIp = '198.51.100.7';
    const owner = await login(ADMIN, usualIp);
    expect(owner.status).toBe(200);

    // 100 failures from 20 IPs, 5 each: no pair and no IP reaches its limit.
    const ips = Array.from({ length: SLOW_DOWN_AFTER_ACCOUNT_FAILURES / MAX_FAILURES_PER_ACCOUNT_AND_IP }, (_, n) => `203.0.113.${n + 1}`);
    const answers = await Promise.all(
      ips.map(async (ip) => {
        const mine = [];
        for (let i = 0; i < MAX_FAILURES_PER_ACCOUNT_AND_IP; i++) mine.push(await login(WRONG, ip));
        return mine;
      }),
    );
    expect(new Set(statuses(answers.flat()))).toEqual(new Set([401]));

    // The 101st failure, from a fresh IP: answered, after a wait.
    const first = await login(WRONG, '192.0.2.1');
    expect(first.status).toBe(401);
    expect(first.ms).toBeGreaterThanOrEqual(SLOW_DOWN_STEP_MS);
    // The wait grows with each failure, up to its cap: five at once wait 2, 3, 4, 5 and 5 s.
    const next = await Promise.all(['192.0.2.2', '192.0.2.3', '192.0.2.4', '192.0.2.5', '192.0.2.6'].map((ip) => login(WRONG, ip)));
    expect(statuses(next)).toEqual([401, 401, 401, 401, 401]);
    const waits = next.map((r) => r.ms).sort((a, b) => a - b);
    expect(waits[0]).toBeGreaterThanOrEqual(2 * SLOW_DOWN_STEP_MS);
    expect(waits[4]).toBeGreaterThanOrEqual(SLOW_DOWN_MAX_MS);
    expect(waits[4]).toBeLessThan(SLOW_DOWN_MAX_MS + SLOW_DOWN_STEP_MS);

    // Anyone else now waits the full 5 s. The owner from their usual IP does not wait.
    const fromUsual = await login(ADMIN, usualIp);
    expect(fromUsual.status).toBe(200);
    expect(fromUsual.ms).toBeLessThan(SLOW_DOWN_MAX_MS);
    // The owner from a new IP with their live session: no wait either.
    const withSession = await login(ADMIN, '192.0.2.200', { cookie: fromUsual.cookie! });
    expect(withSession.status).toBe(200);
    expect(withSession.ms).toBeLessThan(SLOW_DOWN_MAX_MS);
    // From a new IP without a session the right password is slowed too (so the wait says
    // nothing about the password), but it signs in.
    const fromNewIp = await login(ADMIN, '192.0.2.201');
    expect(fromNewIp.status).toBe(200);
    expect(fromNewIp.ms).toBeGreaterThanOrEqual(SLOW_DOWN_MAX_MS);
  });

  it('an IP stops being usual 30 days after its last sign-in, and the clean-up forgets it', async () => {
    const { login } = setup();
    expect((await login(ADMIN, '198.51.100.7')).status).toBe(200);
    expect((await login(ADMIN, '198.51.100.8')).status).toBe(200);
    await execute(
      database.db,
      sql`update sign_in_ips set last_success_at = crm_now() - interval '30 days 1 minute' where ip = '198.51.100.7'`,
    );
    expect(await deleteStaleSignInIps(database.db)).toBe(1);
    expect(await rowsOf(database.db, sql`select ip from sign_in_ips`)).toEqual([{ ip: '198.51.100.8' }]);
  });
});
