import { sql } from 'drizzle-orm';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { CALENDAR_FEED_PAUSED, type CalendarFeed } from '#shared/schemas/appointment';
import type { TwoFactorSetup, TwoFactorStatus } from '#shared/schemas/two-factor';
import { ensureAdmin } from '../auth/accounts.ts';
import { totpCode, TOTP_PERIOD_SECONDS } from '../auth/totp.ts';
import { execute } from '../db/sql.ts';
import { cookieOf, createTestApp, signIn } from '../test/test-app.ts';
import { rowsOf, useTestDatabase } from '../test/database.ts';

// What a password opened ends with it, whichever way it is changed: the other sessions, the
// calendar feed URL and the devices remembered for two-factor. And the team's two-factor rule
// holds an account's calendar feed back as it holds back its sessions.

const database = useTestDatabase();
let t: ReturnType<typeof createTestApp>;

beforeAll(() => {
  t = createTestApp(database, { TRUST_PROXY: 'on' });
});
beforeEach(async () => {
  await execute(
    database.db,
    sql`truncate users, sessions, rate_limits, sign_in_challenges, trusted_devices, recovery_codes, calendar_feeds cascade`,
  );
  await execute(database.db, sql`update team_settings set require_two_factor = false`);
  await ensureAdmin(database.db, 'ann@example.com', 'ann-password');
});

async function call<T>(method: string, path: string, body?: unknown, cookies: (string | undefined)[] = []) {
  const res = await t.json(method, path, body, {
    cookie: cookies.filter(Boolean).join('; ') || undefined,
    'x-forwarded-for': '198.51.100.30',
  });
  const text = await res.text();
  return { status: res.status, body: (text ? JSON.parse(text) : undefined) as T, res };
}

const signedIn = async (session: string | undefined) =>
  (await call<{ user: unknown }>('GET', '/api/auth/session', undefined, [session])).body.user !== null;

/** Turns two-factor on for the account signed in as `session`; the secret. */
async function enableTwoFactor(session: string): Promise<string> {
  const setup = await call<TwoFactorSetup>('POST', '/api/account/two-factor/setup', undefined, [session]);
  const confirmed = await call('POST', '/api/account/two-factor/confirm', { code: await totpCode(setup.body.secret) }, [session]);
  expect(confirmed.status).toBe(200);
  return setup.body.secret;
}

/** The password step with `password` (and the cookies given, a remembered device's among them). */
const passwordStep = (password: string, cookies: (string | undefined)[] = []) =>
  call<{ two_factor_required?: true; user?: { email: string } }>(
    'POST',
    '/api/auth/login',
    { email: 'ann@example.com', password },
    cookies,
  );

/** Creates the account's calendar feed; its path, which answers 200. */
async function createFeed(session: string): Promise<string> {
  const created = await call<CalendarFeed>('POST', '/api/calendar-feed', undefined, [session]);
  expect(created.status).toBe(201);
  const path = new URL(created.body.url!).pathname;
  expect((await t.app.request(path)).status).toBe(200);
  return path;
}

describe('a password change on the account page', () => {
  it('ends the calendar feed, the remembered devices and the other sessions; the session that changed it stays', async () => {
    const here = await signIn(t.json, 'ann@example.com', 'ann-password');
    const secret = await enableTwoFactor(here);
    // A phone that signed in with a code and asked to be remembered.
    const step = await passwordStep('ann-password');
    // The next step's code (accepted one step ahead): later than the one that turned it on, whenever the clock turns.
    const next = await totpCode(secret, Date.now() / 1000 + TOTP_PERIOD_SECONDS);
    const phone = await call('POST', '/api/auth/login/two-factor', { code: next, remember_device: true }, [
      cookieOf(step.res, 'sign_in_challenge'),
    ]);
    expect(phone.status).toBe(200);
    const device = cookieOf(phone.res, 'trusted_device');
    const phoneSession = cookieOf(phone.res, 'session');
    expect(device).toBeDefined();
    // Remembered: the password alone signs it in again.
    expect((await passwordStep('ann-password', [device])).body.user?.email).toBe('ann@example.com');
    const feed = await createFeed(here);

    const changed = await call<{ other_sessions_ended: number }>(
      'POST',
      '/api/account/password',
      { current_password: 'ann-password', password: 'ann-new-password', confirm: 'ann-new-password' },
      [here],
    );
    expect(changed.status).toBe(200);
    // The phone's two sessions (the code's and the remembered one's).
    expect(changed.body.other_sessions_ended).toBe(2);

    const revoked = await t.app.request(feed);
    expect(revoked.status).toBe(404);
    expect(await revoked.text()).not.toContain('BEGIN:VCALENDAR');
    // The remembered device asks for the code again, with the new password.
    expect((await passwordStep('ann-new-password', [device])).body).toEqual({ two_factor_required: true });
    expect(await signedIn(phoneSession)).toBe(false);
    expect(await signedIn(here)).toBe(true);
    // The session that changed it can make a new feed, which works.
    await createFeed(here);
    expect(await rowsOf(database.db, sql`select 1 from trusted_devices`)).toHaveLength(0);
  });
});

describe('while the team requires two-factor', () => {
  it('the feed of an account without it answers 403 and no appointments, until it sets it up; the account page says so', async () => {
    const ann = await signIn(t.json, 'ann@example.com', 'ann-password');
    await enableTwoFactor(ann);
    await ensureAdmin(database.db, 'sam@example.com', 'sam-password', 'staff');
    await ensureAdmin(database.db, 'kim@example.com', 'kim-password', 'staff');
    const sam = await signIn(t.json, 'sam@example.com', 'sam-password');
    const kim = await signIn(t.json, 'kim@example.com', 'kim-password');
    const samFeed = await createFeed(sam);
    const annFeed = await createFeed(ann);
    const status = async (session: string) => (await call<TwoFactorStatus>('GET', '/api/account/two-factor', undefined, [session])).body;

    expect((await call('PUT', '/api/settings/security', { require_two_factor: true }, [ann])).status).toBe(200);
    const paused = await t.app.request(samFeed);
    expect(paused.status).toBe(403);
    expect(paused.headers.get('content-type')).toMatch(/^application\/json/);
    expect(paused.headers.get('cache-control')).toContain('no-store');
    const body = await paused.text();
    expect((JSON.parse(body) as { error: { code: string; message: string } }).error).toMatchObject({
      code: 'forbidden',
      message: CALENDAR_FEED_PAUSED,
    });
    expect(body).not.toContain('VCALENDAR');
    // An account with two-factor keeps its feed.
    expect((await t.app.request(annFeed)).status).toBe(200);
    // The account page (the only page open to Sam) tells him; Kim, who has no feed, is told nothing of one.
    expect(await status(sam)).toEqual({ enabled: false, recovery_codes_left: 0, required: true, calendar_feed_paused: true });
    expect((await status(kim)).calendar_feed_paused).toBe(false);

    await enableTwoFactor(sam);
    expect((await status(sam)).calendar_feed_paused).toBe(false);
    const back = await t.app.request(samFeed);
    expect(back.status).toBe(200);
    expect(await back.text()).toContain('BEGIN:VCALENDAR');
  });
});
