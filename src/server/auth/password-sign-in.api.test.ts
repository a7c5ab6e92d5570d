import { sql } from 'drizzle-orm';
import { beforeEach, describe, expect, it } from 'vitest';
import { execute } from '../db/sql.ts';
import { rowsOf, useTestDatabase } from '../test/database.ts';
import { middleOfWindow, setDatabaseClock } from '../test/database-clock.ts';
import { refusalOf } from '../test/refusal.ts';
import { signInRequestFrom } from '../test/sign-in-request.ts';
import { ensureAdmin } from './accounts.ts';
import { ACCOUNT_DEACTIVATED, checkPassword } from './password-sign-in.ts';
import { MAX_FAILURES_PER_ACCOUNT_AND_IP, SIGN_IN_WINDOW_SECONDS } from './sign-in-limits.ts';

const database = useTestDatabase();
let ann: string;
beforeEach(async () => {
  // The counts must fall in one 15-minute window: the database's clock stands still in the middle of one.
  await setDatabaseClock(database, middleOfWindow(SIGN_IN_WINDOW_SECONDS));
  await execute(database.db, sql`truncate users, sessions, rate_limits, sign_in_ips, audit_log cascade`);
  ann = (await ensureAdmin(database.db, 'ann@example.com', 'ann-password')).user.id;
});
const from = (ip = '203.0.113.9') => signInRequestFrom(database.db, ip);
const failures = () =>
  rowsOf<{ actor_email: string; target_id: string | null }>(
    database.db,
    sql`select actor_email, target_id from audit_log where action = 'sign_in_failed' order by id`,
  );

describe('checkPassword', () => {
  it('answers the account for the right password, whatever the email’s case', async () => {
    const account = await checkPassword(from().request, 'Ann@Example.com', 'ann-password');
    expect(account).toMatchObject({ id: ann, email: 'ann@example.com', deactivated: false, two_factor: false });
  });

  it('answers an unknown email and a wrong password the same 401, each audited and logged', async () => {
    const wrong = from();
    expect(await refusalOf(checkPassword(wrong.request, 'ann@example.com', 'nope'))).toMatchObject({
      status: 401,
      message: 'Invalid credentials',
    });
    expect(await refusalOf(checkPassword(wrong.request, 'who@example.com', 'nope'))).toMatchObject({
      status: 401,
      message: 'Invalid credentials',
    });
    expect(await failures()).toEqual([
      { actor_email: 'ann@example.com', target_id: ann },
      { actor_email: 'who@example.com', target_id: null },
    ]);
    expect(wrong.logged.map((l) => l.event)).toEqual(['login_failed', 'login_failed']);
  });

  it('says a deactivated account is so only to someone who knows its password', async () => {
    const { user: bob } = await ensureAdmin(database.db, 'bob@example.com', 'bob-password', 'staff');
    await execute(database.db, sql`update users set deactivated_at = crm_now() where id = ${bob.id}`);
    expect(await refusalOf(checkPassword(from().request, 'bob@example.com', 'nope'))).toMatchObject({ status: 401 });
    expect(await refusalOf(checkPassword(from().request, 'bob@example.com', 'bob-password'))).toMatchObject({
      status: 403,
      message: ACCOUNT_DEACTIVATED,
    });
  });

  it('a right password takes its count back; past the pair’s limit even the right one is refused', async () => {
    for (let i = 0; i < MAX_FAILURES_PER_ACCOUNT_AND_IP - 1; i++) await refusalOf(checkPassword(from().request, 'ann@example.com', 'typo'));
    await checkPassword(from().request, 'ann@example.com', 'ann-password');
    for (let i = 0; i < MAX_FAILURES_PER_ACCOUNT_AND_IP; i++) {
      expect(await refusalOf(checkPassword(from().request, 'ann@example.com', 'typo'))).toMatchObject({ status: 401 });
    }
    expect(await refusalOf(checkPassword(from().request, 'ann@example.com', 'ann-password'))).toMatchObject({ status: 429 });
    expect(await checkPassword(from('198.51.100.7').request, 'ann@example.com', 'ann-password')).toMatchObject({ id: ann });
  });
});
