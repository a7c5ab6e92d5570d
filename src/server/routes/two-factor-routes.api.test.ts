import { sql } from 'drizzle-orm';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { TWO_FACTOR_SETUP_REQUIRED } from '#shared/schemas/auth';
import type { TwoFactorSetup } from '#shared/schemas/two-factor';
import { ensureAdmin } from '../auth/accounts.ts';
import { totpCode, TOTP_PERIOD_SECONDS } from '../auth/totp.ts';
import { execute } from '../db/sql.ts';
import { cookieOf, createTestApp, signIn } from '../test/test-app.ts';
import { rowsOf, useTestDatabase } from '../test/database.ts';

const database = useTestDatabase();
let t: ReturnType<typeof createTestApp>;

beforeAll(() => {
  t = createTestApp(database, { TRUST_PROXY: 'on' });
});
beforeEach(async () => {
  await execute(database.db, sql`truncate users, sessions, rate_limits, sign_in_challenges, trusted_devices, recovery_codes cascade`);
  await execute(database.db, sql`update team_settings set require_two_factor = false`);
  await ensureAdmin(database.db, 'ann@example.com', 'ann-password');
});

async function call<T>(method: string, path: string, body?: unknown, cookies: (string | undefined)[] = [], ip = '198.51.100.20') {
  const res = await t.json(method, path, body, { cookie: cookies.filter(Boolean).join('; ') || undefined, 'x-forwarded-for': ip });
  const text = await res.text();
  return { status: res.status, body: (text ? JSON.parse(text) : undefined) as T, res };
}

/** Turns two-factor on for ann; the secret and the recovery codes. */
async function enable(): Promise<{ session: string; secret: string; codes: string[] }> {
  const session = await signIn(t.json, 'ann@example.com', 'ann-password');
  const setup = await call<TwoFactorSetup>('POST', '/api/account/two-factor/setup', undefined, [session]);
  expect(setup.body.qr_code).toMatch(/^data:image\/svg\+xml;base64,/);
  expect(setup.body.otpauth_uri).toContain(`secret=${setup.body.secret}`);
  expect((await call('POST', '/api/account/two-factor/confirm', { code: '000000' }, [session])).status).toBe(400);
  // The previous step's code: the first one the account uses.
  const confirmed = await call<{ recovery_codes: string[] }>(
    'POST',
    '/api/account/two-factor/confirm',
    { code: await totpCode(setup.body.secret, Date.now() / 1000 - TOTP_PERIOD_SECONDS) },
    [session],
  );
  expect(confirmed.status).toBe(200);
  expect(confirmed.body.recovery_codes).toHaveLength(10);
  return { session, secret: setup.body.secret, codes: confirmed.body.recovery_codes };
}

/** The password step; the challenge cookie it sets. */
async function password(cookies: (string | undefined)[] = []) {
  const res = await call<{ two_factor_required?: true; user?: unknown }>(
    'POST',
    '/api/auth/login',
    { email: 'ann@example.com', password: 'ann-password' },
    cookies,
  );
  expect(res.status).toBe(200);
  return { body: res.body, challenge: cookieOf(res.res, 'sign_in_challenge'), session: cookieOf(res.res, 'session') };
}

describe('two-factor sign-in', () => {
  it('asks for a code after the password, signs in with it, and refuses the same code again', async () => {
    const { secret } = await enable();
    const first = await password();
    expect(first.body).toEqual({ two_factor_required: true });
    expect(first.session).toBeUndefined();
    expect((await call('POST', '/api/auth/login/two-factor', { code: '123456' }, [first.challenge])).status).toBe(401);
    const code = await totpCode(secret);
    const done = await call<{ user: { email: string } }>('POST', '/api/auth/login/two-factor', { code }, [first.challenge]);
    expect(done.status).toBe(200);
    expect(done.body.user.email).toBe('ann@example.com');
    const session = cookieOf(done.res, 'session');
    expect((await call<{ user: unknown }>('GET', '/api/auth/session', undefined, [session])).body.user).not.toBeNull();

    // Replayed in its window: refused, even with a fresh password step.
    const again = await password();
    const replay = await call('POST', '/api/auth/login/two-factor', { code }, [again.challenge]);
    expect(replay.status).toBe(401);
    // The challenge was used up by the sign-in that worked.
    expect((await call('POST', '/api/auth/login/two-factor', { code }, [first.challenge])).status).toBe(401);
    const entries = await rowsOf<{ action: string }>(
      database.db,
      sql`select action from audit_log where action in ('two_factor_enabled', 'sign_in', 'two_factor_failed') order by id`,
    );
    // A used-up challenge is an expired sign-in, not a wrong code.
    expect(entries.map((e) => e.action)).toEqual(['sign_in', 'two_factor_enabled', 'two_factor_failed', 'sign_in', 'two_factor_failed']);
  });

  it('a recovery code works once', async () => {
    const { codes } = await enable();
    const first = await password();
    const used = await call('POST', '/api/auth/login/two-factor', { recovery_code: codes[3]!.toUpperCase().replace(/-/g, ' ') }, [
      first.challenge,
    ]);
    expect(used.status).toBe(200);
    const second = await password();
    expect((await call('POST', '/api/auth/login/two-factor', { recovery_code: codes[3] }, [second.challenge])).status).toBe(401);
    expect((await rowsOf<{ n: number }>(database.db, sql`select count(*)::int as n from recovery_codes where used_at is null`))[0]!.n).toBe(
      9,
    );
  });

  it('wrong codes are limited: the sixth is 429 even when right', async () => {
    const { secret } = await enable();
    const first = await password();
    const statuses: number[] = [];
    for (let i = 0; i < 5; i++)
      statuses.push((await call('POST', '/api/auth/login/two-factor', { code: String(100000 + i) }, [first.challenge])).status);
    statuses.push((await call('POST', '/api/auth/login/two-factor', { code: await totpCode(secret) }, [first.challenge])).status);
    expect(statuses).toEqual([401, 401, 401, 401, 401, 429]);
  });

  it('remembers the device for 30 days when asked', async () => {
    const { secret } = await enable();
    const first = await password();
    const done = await call('POST', '/api/auth/login/two-factor', { code: await totpCode(secret), remember_device: true }, [
      first.challenge,
    ]);
    const device = cookieOf(done.res, 'trusted_device');
    expect(device).toBeDefined();
    expect(done.res.headers.getSetCookie().find((c) => c.startsWith('trusted_device='))).toMatch(/Max-Age=2592000/);
    const next = await password([device]);
    expect(next.body).toMatchObject({ user: { email: 'ann@example.com' } });
    expect(next.session).toBeDefined();
  });

  it('turning it off needs the password; new recovery codes replace the old', async () => {
    const { session, codes } = await enable();
    expect((await call('POST', '/api/account/two-factor/recovery-codes', { current_password: 'wrong' }, [session])).status).toBe(400);
    const fresh = await call<{ recovery_codes: string[] }>(
      'POST',
      '/api/account/two-factor/recovery-codes',
      { current_password: 'ann-password' },
      [session],
    );
    expect(fresh.body.recovery_codes).not.toContain(codes[0]);
    const first = await password();
    expect((await call('POST', '/api/auth/login/two-factor', { recovery_code: codes[0] }, [first.challenge])).status).toBe(401);
    expect((await call('POST', '/api/account/two-factor/disable', { current_password: 'ann-password' }, [session])).status).toBe(200);
    expect((await password()).body).toMatchObject({ user: { email: 'ann@example.com' } });
  });
});

describe('required for everyone', () => {
  it('an owner can require it only with it on; then staff without it reach only their account page', async () => {
    const owner = await signIn(t.json, 'ann@example.com', 'ann-password');
    expect((await call('PUT', '/api/settings/security', { require_two_factor: true }, [owner])).status).toBe(409);
    await ensureAdmin(database.db, 'sam@example.com', 'sam-password', 'staff');
    const { session } = await enable();
    expect((await call('PUT', '/api/settings/security', { require_two_factor: true }, [session])).body).toEqual({
      require_two_factor: true,
    });

    const sam = await signIn(t.json, 'sam@example.com', 'sam-password');
    expect(
      (await call<{ user: { must_set_up_two_factor?: boolean } }>('GET', '/api/auth/session', undefined, [sam])).body.user
        .must_set_up_two_factor,
    ).toBe(true);
    const refused = await call<{ error: { message: string } }>('GET', '/api/leads', undefined, [sam]);
    expect(refused.status).toBe(403);
    expect(refused.body.error.message).toBe(TWO_FACTOR_SETUP_REQUIRED);
    const setup = await call<TwoFactorSetup>('POST', '/api/account/two-factor/setup', undefined, [sam]);
    expect(setup.status).toBe(200);
    expect((await call('POST', '/api/account/two-factor/confirm', { code: await totpCode(setup.body.secret) }, [sam])).status).toBe(200);
    expect((await call('GET', '/api/leads', undefined, [sam])).status).toBe(200);
    // Required: it cannot be turned off.
    expect((await call('POST', '/api/account/two-factor/disable', { current_password: 'sam-password' }, [sam])).status).toBe(409);
  });
});
