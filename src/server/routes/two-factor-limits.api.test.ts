import { createHash } from 'node:crypto';
import { sql } from 'drizzle-orm';
import pino from 'pino';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { CURRENT_PASSWORD_WRONG } from '#shared/schemas/account';
import { ensureAdmin } from '../auth/accounts.ts';
import { MAX_WRONG_CURRENT_PASSWORDS } from '../auth/current-password.ts';
import {
  MAX_FAILURES_PER_ACCOUNT_AND_IP,
  MAX_FAILURES_PER_IP,
  SIGN_IN_WINDOW_SECONDS,
  SLOW_DOWN_AFTER_ACCOUNT_FAILURES,
  SLOW_DOWN_STEP_MS,
} from '../auth/sign-in-limits.ts';
import { hashRecoveryCode, newTotpSecret, totpCode, TOTP_PERIOD_SECONDS } from '../auth/totp.ts';
import { execute } from '../db/sql.ts';
import { cookieOf, createTestApp } from '../test/test-app.ts';
import { middleOfWindow, setDatabaseClock } from '../test/database-clock.ts';
import { rowsOf, useTestDatabase } from '../test/database.ts';

/**
 * The two-factor step follows the password's rule (docs/security.md, "Two-factor and
 * current-password limits"), and every current-password check shares one limiter.
 * TRUST_PROXY: each request names its client address in X-Forwarded-For.
 */

const database = useTestDatabase();
const logged: { event?: string; delayMs?: number }[] = [];
let t: ReturnType<typeof createTestApp>;

beforeAll(() => {
  const logger = pino({ level: 'info' }, { write: (line: string) => void logged.push(JSON.parse(line) as (typeof logged)[number]) });
  t = createTestApp(database, { TRUST_PROXY: 'on' }, { logger });
});

const RECOVERY_CODE = 'abcd-efgh-jkmn';
let secret: string;
beforeEach(async () => {
  // The limits' counts must fall in one 15-minute window: the database's clock stands still in the middle of one.
  await setDatabaseClock(database, middleOfWindow(SIGN_IN_WINDOW_SECONDS));
  await execute(
    database.db,
    sql`truncate users, sessions, rate_limits, sign_in_ips, sign_in_challenges, trusted_devices, recovery_codes cascade`,
  );
  logged.length = 0;
  secret = newTotpSecret();
  const { user } = await ensureAdmin(database.db, 'ann@example.com', 'ann-password');
  await turnOnTwoFactor(user.id, secret);
  await execute(database.db, sql`insert into recovery_codes (user_id, code_hash) values (${user.id}, ${hashRecoveryCode(RECOVERY_CODE)})`);
});

/** Two-factor on, as the set-up leaves it (no step used yet). */
const turnOnTwoFactor = (userId: string, totpSecret: string) =>
  execute(database.db, sql`update users set totp_secret = ${totpSecret}, totp_enabled_at = crm_now() where id = ${userId}`);

async function call(method: string, path: string, body: unknown, ip: string, cookies: (string | undefined)[] = []) {
  const before = logged.length;
  const started = performance.now();
  const res = await t.json(method, path, body, { cookie: cookies.filter(Boolean).join('; ') || undefined, 'x-forwarded-for': ip });
  const ms = performance.now() - started;
  const text = await res.text();
  const parsed = (text ? JSON.parse(text) : undefined) as { error?: { message: string } } | undefined;
  // Sequential calls only: what was logged meanwhile is this request's.
  const slowedBy = logged
    .slice(before)
    .filter((l) => l.event === 'two_factor_slowed' || l.event === 'login_slowed')
    .map((l) => l.delayMs);
  return { status: res.status, message: parsed?.error?.message, retryAfter: res.headers.get('retry-after'), ms, res, slowedBy };
}

/** The password step from `ip` for `email`: its challenge cookie. */
async function passwordStep(ip: string, email = 'ann@example.com', password = 'ann-password') {
  const res = await call('POST', '/api/auth/login', { email, password }, ip);
  expect(res.status).toBe(200);
  const challenge = cookieOf(res.res, 'sign_in_challenge');
  expect(challenge).toBeDefined();
  return challenge!;
}

const codeStep = (challenge: string, body: Record<string, unknown>, ip: string, cookies: (string | undefined)[] = []) =>
  call('POST', '/api/auth/login/two-factor', body, ip, [challenge, ...cookies]);

/** A code that is never right: the account's codes are 6 digits, this one is 6 digits too but not the current one. */
const wrongCode = async (n: number) => {
  const right = new Set(await Promise.all([-1, 0, 1].map((k) => totpCode(secret, Date.now() / 1000 + k * TOTP_PERIOD_SECONDS))));
  for (let c = 100000 + n * 7; ; c++) if (!right.has(String(c))) return String(c);
};

/** Signs ann in all the way from `ip` (so it becomes one of her usual ones). */
async function ownerSignsIn(ip: string, body?: Record<string, unknown>) {
  const challenge = await passwordStep(ip);
  // A fresh step: the one before may have been used by an earlier sign-in of this test.
  await execute(database.db, sql`update users set totp_last_step = null where email = 'ann@example.com'`);
  return codeStep(challenge, body ?? { code: await totpCode(secret) }, ip);
}

const TOO_MANY_PAIR = /^Too many wrong codes for this account from your network\. Please try again in \d+ minutes?\.$/;
const TOO_MANY_IP = /^Too many wrong codes from your network\. Please try again in \d+ minutes?\.$/;

describe('two-factor codes: no lockout of the owner', () => {
  it("a stranger's wrong codes from 10 addresses (10 each) leave the owner's code and recovery code working, without delay", async () => {
    const usualIp = '198.51.100.7';
    expect((await ownerSignsIn(usualIp)).status).toBe(200);

    const perAddress = [];
    for (let n = 0; n < 10; n++) {
      const ip = `203.0.113.${n + 1}`;
      const challenge = await passwordStep(ip);
      const answers = [];
      for (let i = 0; i < 10; i++)
        answers.push(await codeStep(challenge, i % 2 ? { recovery_code: `wxyz-wxyz-wx${i}${n}` } : { code: await wrongCode(i) }, ip));
      perAddress.push(answers);
    }
    // Each address gets its 5 tries on this account, then 429 (codes and recovery codes alike).
    expect(perAddress.map((answers) => answers.map((a) => a.status))).toEqual(
      Array(10).fill([...Array<number>(MAX_FAILURES_PER_ACCOUNT_AND_IP).fill(401), ...Array<number>(5).fill(429)]),
    );
    expect(perAddress[9]![5]!.message).toMatch(TOO_MANY_PAIR);
    expect(Number(perAddress[9]![5]!.retryAfter)).toBeGreaterThan(0);

    // 50 failures, under the slow-down bound: the owner signs in at once, with a code...
    const withCode = await ownerSignsIn(usualIp);
    expect(withCode.status).toBe(200);
    expect(cookieOf(withCode.res, 'session')).toBeDefined();
    expect(withCode.ms).toBeLessThan(2 * SLOW_DOWN_STEP_MS);
    // ...and with a recovery code, even from a new address.
    expect((await ownerSignsIn('198.51.100.99', { recovery_code: RECOVERY_CODE })).status).toBe(200);
    expect(logged.filter((l) => l.event === 'two_factor_slowed')).toEqual([]);
  });

  it('blocks an (account, address) pair after 5 wrong codes, even with the right code; other addresses and accounts go on', async () => {
    const challenge = await passwordStep('203.0.113.9');
    for (let i = 0; i < MAX_FAILURES_PER_ACCOUNT_AND_IP; i++)
      expect((await codeStep(challenge, { code: await wrongCode(i) }, '203.0.113.9')).status).toBe(401);
    const right = await codeStep(challenge, { code: await totpCode(secret) }, '203.0.113.9');
    expect(right.status).toBe(429);
    expect(right.message).toMatch(TOO_MANY_PAIR);
    expect(cookieOf(right.res, 'session')).toBeUndefined();
    // The same account from another address signs in.
    expect((await ownerSignsIn('203.0.113.10')).status).toBe(200);
    // Another account from the blocked address does too.
    const bob = await ensureAdmin(database.db, 'bob@example.com', 'bob-password');
    const bobSecret = newTotpSecret();
    await turnOnTwoFactor(bob.user.id, bobSecret);
    const bobs = await passwordStep('203.0.113.9', 'bob@example.com', 'bob-password');
    expect((await codeStep(bobs, { code: await totpCode(bobSecret) }, '203.0.113.9')).status).toBe(200);
  });

  it('limits one address to 20 wrong codes across accounts, then 429 for every account from it', async () => {
    const ip = '203.0.113.50';
    for (let a = 0; a < MAX_FAILURES_PER_IP / MAX_FAILURES_PER_ACCOUNT_AND_IP; a++) {
      const { user } = await ensureAdmin(database.db, `user${a}@example.com`, 'user-password');
      await turnOnTwoFactor(user.id, newTotpSecret());
      const challenge = await passwordStep(ip, `user${a}@example.com`, 'user-password');
      for (let i = 0; i < MAX_FAILURES_PER_ACCOUNT_AND_IP; i++)
        expect((await codeStep(challenge, { code: await wrongCode(i) }, ip)).status).toBe(401);
    }
    const challenge = await passwordStep(ip);
    const blocked = await codeStep(challenge, { code: await totpCode(secret) }, ip);
    expect(blocked.status).toBe(429);
    expect(blocked.message).toMatch(TOO_MANY_IP);
    expect((await ownerSignsIn('203.0.113.51')).status).toBe(200);
  });

  it('past 100 wrong codes on an account from anywhere, strangers wait longer each time, never the owner at a usual address', async () => {
    const usualIp = '198.51.100.7';
    expect((await ownerSignsIn(usualIp)).status).toBe(200);

    // 100 wrong codes from 20 addresses, 5 each: no pair and no address reaches its limit.
    for (let n = 0; n < SLOW_DOWN_AFTER_ACCOUNT_FAILURES / MAX_FAILURES_PER_ACCOUNT_AND_IP; n++) {
      const ip = `203.0.113.${n + 1}`;
      const challenge = await passwordStep(ip);
      for (let i = 0; i < MAX_FAILURES_PER_ACCOUNT_AND_IP; i++)
        expect((await codeStep(challenge, { code: await wrongCode(i) }, ip)).status).toBe(401);
    }
    expect(logged.filter((l) => l.event === 'two_factor_slowed')).toEqual([]);

    // The 101st, from a fresh address whose password step succeeded: answered, after a
    // wait (the right password does not make an address one of the owner's).
    const strangerChallenge = await passwordStep('192.0.2.1');
    const first = await codeStep(strangerChallenge, { code: await wrongCode(1) }, '192.0.2.1');
    expect(first.status).toBe(401);
    expect(first.slowedBy).toEqual([SLOW_DOWN_STEP_MS]);
    expect(first.ms).toBeGreaterThanOrEqual(SLOW_DOWN_STEP_MS);
    const second = await codeStep(strangerChallenge, { code: await wrongCode(2) }, '192.0.2.1');
    expect(second.slowedBy).toEqual([2 * SLOW_DOWN_STEP_MS]);

    // The owner from a usual address: no wait, and in.
    const owner = await ownerSignsIn(usualIp);
    expect(owner.status).toBe(200);
    expect(owner.slowedBy).toEqual([]);
    expect(owner.ms).toBeLessThan(3 * SLOW_DOWN_STEP_MS);
  });

  it('a remembered device is not slowed at the password step, however many strangers failed', async () => {
    // The device was remembered at an earlier sign-in (its cookie holds the token; the row its hash).
    const device = 'a-remembered-device-token';
    await execute(
      database.db,
      sql`
      insert into trusted_devices (token_hash, user_id, expires_at)
      select ${createHash('sha256').update(device).digest('hex')}, id, crm_now() + interval '30 days' from users where email = 'ann@example.com'`,
    );
    // 105 password failures on ann in this window (from 21 addresses, as far as the counters know).
    await execute(
      database.db,
      sql`
      insert into rate_limits (key, window_start, count, expires_at)
      select 'login:account:ann@example.com', w.start, 105, w.start + interval '15 minutes'
      from (select to_timestamp(floor(extract(epoch from crm_now()) / 900) * 900) as start) w`,
    );
    const fromNewIp = await call('POST', '/api/auth/login', { email: 'ann@example.com', password: 'ann-password' }, '192.0.2.77', [
      `trusted_device=${device}`,
    ]);
    expect(fromNewIp.status).toBe(200);
    expect(cookieOf(fromNewIp.res, 'session')).toBeDefined();
    expect(logged.filter((l) => l.event === 'login_slowed')).toEqual([]);
    // Without the device, the same sign-in waits.
    const without = await call('POST', '/api/auth/login', { email: 'ann@example.com', password: 'ann-password' }, '192.0.2.78');
    expect(without.status).toBe(200);
    expect(logged.filter((l) => l.event === 'login_slowed').map((l) => l.delayMs)).toEqual([5 * SLOW_DOWN_STEP_MS]);
  });
});

describe('two-factor challenges: one per account and address', () => {
  it("a stranger's password steps from other addresses do not end the owner's sign-in; a new one from the same address replaces it", async () => {
    const owners = await passwordStep('198.51.100.7');
    // The stranger signs in with the password again and again, from addresses of their own.
    for (let n = 0; n < 5; n++) await passwordStep(`203.0.113.${n + 1}`);
    const done = await codeStep(owners, { code: await totpCode(secret) }, '198.51.100.7');
    expect(done.status).toBe(200);
    expect(cookieOf(done.res, 'session')).toBeDefined();

    // From one address, the newest password step is the one that counts.
    const older = await passwordStep('198.51.100.8');
    const newer = await passwordStep('198.51.100.8');
    await execute(database.db, sql`update users set totp_last_step = null`);
    const stale = await codeStep(older, { code: await totpCode(secret) }, '198.51.100.8');
    expect([stale.status, stale.message]).toEqual([401, 'Your sign-in expired. Enter your email and password again.']);
    expect((await codeStep(newer, { code: await totpCode(secret) }, '198.51.100.8')).status).toBe(200);
    // Rows: the 5 strangers' (gone 5 minutes after they were made), none of the owner's.
    expect(await rowsOf(database.db, sql`select source from sign_in_challenges order by source`)).toEqual(
      Array.from({ length: 5 }, (_, n) => ({ source: `203.0.113.${n + 1}` })),
    );
  });
});

describe('current password: one limiter for every check', () => {
  const sessionOf = async () => {
    const res = await ownerSignsIn('198.51.100.7');
    expect(res.status).toBe(200);
    return cookieOf(res.res, 'session')!;
  };
  const CHECKS = [
    ['/api/account/two-factor/disable', (p: string) => ({ current_password: p })],
    ['/api/account/two-factor/recovery-codes', (p: string) => ({ current_password: p })],
    ['/api/account/password', (p: string) => ({ current_password: p, password: 'ann-new-password', confirm: 'ann-new-password' })],
    ['/api/account/email', (p: string) => ({ current_password: p, email: 'ann.new@example.com' })],
  ] as const;

  it('10 wrong passwords across the four operations, then 429 for each of them, even with the right password', async () => {
    const session = await sessionOf();
    const wrong = [];
    for (let i = 0; i < MAX_WRONG_CURRENT_PASSWORDS; i++) {
      const [path, body] = CHECKS[i % CHECKS.length]!;
      wrong.push(await call('POST', path, body(`wrong-${i}`), '198.51.100.7', [session]));
    }
    expect(wrong.map((r) => [r.status, r.message])).toEqual(Array(MAX_WRONG_CURRENT_PASSWORDS).fill([400, CURRENT_PASSWORD_WRONG]));
    for (const [path, body] of CHECKS) {
      const right = await call('POST', path, body('ann-password'), '198.51.100.7', [session]);
      expect([path, right.status]).toEqual([path, 429]);
      expect(right.message).toMatch(/^Too many wrong passwords\. Please try again in \d+ minutes?\.$/);
    }
    // Nothing changed: two-factor is still on, the password and email are as they were.
    expect(await rowsOf(database.db, sql`select email, totp_enabled_at is not null as on from users`)).toEqual([
      { email: 'ann@example.com', on: true },
    ]);
  });

  it('parallel guesses cannot slip past it: of 14 at once on turning two-factor off, exactly 10 are checked', async () => {
    const session = await sessionOf();
    const answers = await Promise.all(
      Array.from({ length: 14 }, (_, i) =>
        call('POST', '/api/account/two-factor/disable', { current_password: `wrong-${i}` }, '198.51.100.7', [session]),
      ),
    );
    expect(answers.filter((a) => a.status === 400)).toHaveLength(MAX_WRONG_CURRENT_PASSWORDS);
    expect(answers.filter((a) => a.status === 429)).toHaveLength(14 - MAX_WRONG_CURRENT_PASSWORDS);
  });

  it('a right password clears the count', async () => {
    const session = await sessionOf();
    for (let i = 0; i < MAX_WRONG_CURRENT_PASSWORDS - 1; i++) {
      expect(
        (await call('POST', '/api/account/two-factor/recovery-codes', { current_password: 'wrong' }, '198.51.100.7', [session])).status,
      ).toBe(400);
    }
    expect(
      (await call('POST', '/api/account/two-factor/recovery-codes', { current_password: 'ann-password' }, '198.51.100.7', [session]))
        .status,
    ).toBe(200);
    for (let i = 0; i < MAX_WRONG_CURRENT_PASSWORDS; i++) {
      expect((await call('POST', '/api/account/two-factor/disable', { current_password: 'wrong' }, '198.51.100.7', [session])).status).toBe(
        400,
      );
    }
    expect((await call('POST', '/api/account/two-factor/disable', { current_password: 'wrong' }, '198.51.100.7', [session])).status).toBe(
      429,
    );
  });
});
