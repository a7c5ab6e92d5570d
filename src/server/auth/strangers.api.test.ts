import { sql } from 'drizzle-orm';
import { beforeEach, describe, expect, it } from 'vitest';
import { createSession } from '../db/queries/sessions-queries.ts';
import { rememberSignInIp } from '../db/queries/sign-in-ips-queries.ts';
import { rememberDevice } from '../db/queries/two-factor-queries.ts';
import { execute } from '../db/sql.ts';
import { useTestDatabase } from '../test/database.ts';
import { signInRequestFrom } from '../test/sign-in-request.ts';
import { ensureAdmin } from './accounts.ts';
import { SLOW_DOWN_AFTER_ACCOUNT_FAILURES, SLOW_DOWN_STEP_MS } from './sign-in-limits.ts';
import { isOwnersSource, slowStrangers } from './strangers.ts';

const database = useTestDatabase();
let ann: string;
let bob: string;
beforeEach(async () => {
  await execute(database.db, sql`truncate users, sessions, sign_in_ips, trusted_devices cascade`);
  ann = (await ensureAdmin(database.db, 'ann@example.com', 'ann-password')).user.id;
  bob = (await ensureAdmin(database.db, 'bob@example.com', 'bob-password', 'staff')).user.id;
});
const source = (ip: string, extra: { sessionToken?: string; deviceToken?: string } = {}) => ({
  ip,
  sessionToken: undefined,
  deviceToken: undefined,
  ...extra,
});

describe('isOwnersSource', () => {
  it('is the owner from an address they signed in from, with a live session of theirs, or on a device remembered for them', async () => {
    expect(await isOwnersSource(database.db, ann, source('203.0.113.9'))).toBe(false);
    await rememberSignInIp(database.db, ann, '203.0.113.9');
    expect(await isOwnersSource(database.db, ann, source('203.0.113.9'))).toBe(true);
    expect(await isOwnersSource(database.db, bob, source('203.0.113.9'))).toBe(false);

    const annSession = await createSession(database.db, ann);
    expect(await isOwnersSource(database.db, ann, source('198.51.100.1', { sessionToken: annSession }))).toBe(true);
    expect(await isOwnersSource(database.db, bob, source('198.51.100.1', { sessionToken: annSession }))).toBe(false);

    const annDevice = await rememberDevice(database.db, ann, 'Firefox');
    expect(await isOwnersSource(database.db, ann, source('198.51.100.2', { deviceToken: annDevice }))).toBe(true);
    expect(await isOwnersSource(database.db, bob, source('198.51.100.2', { deviceToken: annDevice }))).toBe(false);
    expect(await isOwnersSource(database.db, ann, source('198.51.100.2', { deviceToken: 'made-up' }))).toBe(false);
  });
});

describe('slowStrangers', () => {
  it('waits nothing up to the bound; past it, a stranger waits (logged), the owner never', async () => {
    const waits: number[] = [];
    const wait = async (ms: number) => void waits.push(ms);
    const stranger = signInRequestFrom(database.db, '198.51.100.9');
    await slowStrangers(stranger.request, ann, SLOW_DOWN_AFTER_ACCOUNT_FAILURES, 'login_slowed', wait);
    expect(waits).toEqual([]);
    await slowStrangers(stranger.request, ann, SLOW_DOWN_AFTER_ACCOUNT_FAILURES + 2, 'login_slowed', wait);
    // An unknown email: nobody to be the owner of it.
    await slowStrangers(stranger.request, undefined, SLOW_DOWN_AFTER_ACCOUNT_FAILURES + 1, 'login_slowed', wait);
    expect(waits).toEqual([2 * SLOW_DOWN_STEP_MS, SLOW_DOWN_STEP_MS]);
    expect(stranger.logged.map((l) => ({ event: l.event, delayMs: l.delayMs }))).toEqual([
      { event: 'login_slowed', delayMs: 2 * SLOW_DOWN_STEP_MS },
      { event: 'login_slowed', delayMs: SLOW_DOWN_STEP_MS },
    ]);

    await rememberSignInIp(database.db, ann, '203.0.113.9');
    const owner = signInRequestFrom(database.db, '203.0.113.9');
    await slowStrangers(owner.request, ann, SLOW_DOWN_AFTER_ACCOUNT_FAILURES + 50, 'login_slowed', wait);
    expect(waits).toHaveLength(2);
    expect(owner.logged).toEqual([]);
  });
});
