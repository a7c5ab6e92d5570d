import { sql } from 'drizzle-orm';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { CalendarFeed } from '#shared/schemas/appointment';
import { ensureAdmin, resetPassword } from '../auth/accounts.ts';
import { deleteUser } from '../db/queries/users-queries.ts';
import { execute } from '../db/sql.ts';
import { createTestApp, signIn } from '../test/test-app.ts';
import { useTestDatabase } from '../test/database.ts';

// A feed URL is a credential: whatever ends an admin's sessions ends their feed too.
const database = useTestDatabase();
let t: ReturnType<typeof createTestApp>;
beforeAll(() => {
  t = createTestApp(database);
});
beforeEach(async () => {
  await execute(database.db, sql`truncate users, sessions, calendar_feeds cascade`);
});

/** Signs in a new admin, creates their feed, checks it answers, and returns its path. */
async function feedOf(email: string): Promise<string> {
  await ensureAdmin(database.db, email, 'feed-password');
  const cookie = await signIn(t.json, email, 'feed-password');
  const res = await t.json('POST', '/api/calendar-feed', undefined, { cookie });
  expect(res.status).toBe(201);
  const path = new URL(((await res.json()) as CalendarFeed).url!).pathname;
  expect((await t.app.request(path)).status).toBe(200);
  return path;
}

describe('calendar feeds end with the credentials of their admin', () => {
  it('a password reset (npm run admin -- reset-password) revokes that admin’s feed, and no one else’s', async () => {
    const mine = await feedOf('reset-feed@example.com');
    const theirs = await feedOf('other-feed@example.com');
    expect(await resetPassword(database.db, 'reset-feed@example.com', 'a-new-password')).toBe(true);
    const revoked = await t.app.request(mine);
    expect(revoked.status).toBe(404);
    expect(((await revoked.json()) as { error: { code: string } }).error.code).toBe('not_found');
    expect((await t.app.request(theirs)).status).toBe(200);
    // Signed in with the new password, the admin sees no feed and may create a new one.
    const cookie = await signIn(t.json, 'reset-feed@example.com', 'a-new-password');
    expect(await (await t.json('GET', '/api/calendar-feed', undefined, { cookie })).json()).toEqual({ active: false, created_at: null });
  });

  it('deleting an admin (npm run admin -- delete) revokes their feed', async () => {
    const path = await feedOf('gone-feed@example.com');
    expect(await deleteUser(database.db, 'gone-feed@example.com')).toBe(true);
    expect((await t.app.request(path)).status).toBe(404);
  });
});
