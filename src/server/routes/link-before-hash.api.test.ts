import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { INVITE_NOT_VALID } from '../db/queries/team-queries.ts';
import { ensureAdmin } from '../auth/accounts.ts';
import { PASSWORD_HASH_CHANNEL } from '../auth/password.ts';
import { execute } from '../db/sql.ts';
import { createTestApp, signIn } from '../test/test-app.ts';
import { useTestDatabase } from '../test/database.ts';

/**
 * The public operations that take a link's token and a new password check the token before
 * hashing the password: argon2id is the costly part, so made-up tokens must cost nothing
 * (docs/security.md, "Two-factor and current-password limits"). The hash function is the
 * real one, counted through the channel it tells of each hash: no timing involved.
 */
const database = useTestDatabase();
let t: ReturnType<typeof createTestApp>;
let hashes = 0;
const countHash = () => {
  hashes++;
};

beforeAll(() => {
  t = createTestApp(database);
  subscribe(PASSWORD_HASH_CHANNEL, countHash);
});
afterAll(() => {
  unsubscribe(PASSWORD_HASH_CHANNEL, countHash);
});
beforeEach(async () => {
  await execute(database.db, sql`truncate users, sessions, account_tokens, rate_limits cascade`);
  await ensureAdmin(database.db, 'ann@example.com', 'ann-password');
  hashes = 0;
});

const MADE_UP = 'A'.repeat(43);
const body = (token: string) => ({ token, display_name: 'Sam Staff', password: 'sam-password-1', confirm: 'sam-password-1' });

/** An invitation for sam made by ann; its token. */
async function invite(): Promise<string> {
  const ann = await signIn(t.json, 'ann@example.com', 'ann-password');
  const made = await t.json('POST', '/api/team/invites', { email: 'sam@example.com', role: 'staff' }, { cookie: ann });
  expect(made.status).toBe(201);
  return ((await made.json()) as { link: string }).link.split('/invite/')[1]!;
}

describe('POST /api/auth/invites/accept checks the token before hashing', () => {
  it('answers 100 made-up tokens 404 without one hash', async () => {
    for (let i = 0; i < 100; i++) {
      const res = await t.json('POST', '/api/auth/invites/accept', body(`${MADE_UP.slice(0, 40)}${String(i).padStart(3, '0')}`));
      expect(res.status).toBe(404);
      expect(((await res.json()) as { error: { message: string } }).error.message).toBe(INVITE_NOT_VALID);
    }
    expect(hashes).toBe(0);
  });

  it('answers a used, a withdrawn and an expired invitation without hashing; a valid one hashes once', async () => {
    const used = await invite();
    hashes = 0;
    expect((await t.json('POST', '/api/auth/invites/accept', body(used))).status).toBe(201);
    expect(hashes).toBe(1);

    hashes = 0;
    expect((await t.json('POST', '/api/auth/invites/accept', body(used))).status).toBe(404);
    await execute(database.db, sql`delete from users where email = 'sam@example.com'`);
    const expired = await invite();
    await execute(database.db, sql`update account_tokens set expires_at = now() - interval '1 second' where used_at is null`);
    const withdrawn = await invite();
    await execute(
      database.db,
      sql`update account_tokens set revoked_at = now() where used_at is null and revoked_at is null and expires_at > now()`,
    );
    hashes = 0;
    for (const token of [used, expired, withdrawn])
      expect((await t.json('POST', '/api/auth/invites/accept', body(token))).status).toBe(404);
    expect(hashes).toBe(0);
  });
});

describe('the other token-and-password operations', () => {
  it('a made-up reset link and a made-up set-up link are answered without hashing', async () => {
    expect((await t.json('POST', '/api/auth/password-reset/confirm', body(MADE_UP))).status).toBe(404);
    expect((await t.json('POST', '/api/auth/setup', { ...body(MADE_UP), email: 'first@example.com' })).status).toBe(404);
    expect(hashes).toBe(0);
  });
});
