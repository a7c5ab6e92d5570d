import { sql } from 'drizzle-orm';
import { beforeEach, describe, expect, it } from 'vitest';
import { CODE_INVALID } from '#shared/schemas/two-factor';
import { createChallenge } from '../db/queries/two-factor-queries.ts';
import { execute } from '../db/sql.ts';
import { rowsOf, useTestDatabase } from '../test/database.ts';
import { middleOfWindow, setDatabaseClock } from '../test/database-clock.ts';
import { refusalOf } from '../test/refusal.ts';
import { signInRequestFrom } from '../test/sign-in-request.ts';
import { ensureAdmin } from './accounts.ts';
import { MAX_FAILURES_PER_ACCOUNT_AND_IP, SIGN_IN_WINDOW_SECONDS } from './sign-in-limits.ts';
import { hashRecoveryCode, newTotpSecret, totpCode } from './totp.ts';
import { checkSecondFactor, openChallenge, SIGN_IN_EXPIRED } from './two-factor-sign-in.ts';

const database = useTestDatabase();
const RECOVERY_CODE = 'abcd-efgh-jkmn';
let ann: string;
let secret: string;
beforeEach(async () => {
  // The counts must fall in one 15-minute window: the database's clock stands still in the middle of one.
  await setDatabaseClock(database, middleOfWindow(SIGN_IN_WINDOW_SECONDS));
  await execute(
    database.db,
    sql`truncate users, sessions, rate_limits, sign_in_ips, sign_in_challenges, recovery_codes, audit_log cascade`,
  );
  ann = (await ensureAdmin(database.db, 'ann@example.com', 'ann-password')).user.id;
  secret = newTotpSecret();
  await execute(database.db, sql`update users set totp_secret = ${secret}, totp_enabled_at = crm_now() where id = ${ann}`);
  await execute(database.db, sql`insert into recovery_codes (user_id, code_hash) values (${ann}, ${hashRecoveryCode(RECOVERY_CODE)})`);
});
const challenge = async () => openChallenge(database.db, await createChallenge(database.db, ann, '203.0.113.9'));
const from = (ip = '203.0.113.9') => signInRequestFrom(database.db, ip).request;
const audited = async () =>
  (await rowsOf<{ action: string }>(database.db, sql`select action from audit_log order by id`)).map((r) => r.action);

describe('openChallenge', () => {
  it('opens the half-done sign-in of the challenge cookie; 401 for none, an unknown one or one without two-factor', async () => {
    expect(await challenge()).toMatchObject({ user_id: ann, email: 'ann@example.com', secret });
    for (const token of [undefined, 'made-up'])
      expect(await refusalOf(openChallenge(database.db, token))).toMatchObject({ status: 401, message: SIGN_IN_EXPIRED });
  });
});

describe('checkSecondFactor', () => {
  it('takes the app’s code once: the same code again is refused', async () => {
    const code = await totpCode(secret);
    await checkSecondFactor(from(), await challenge(), { code });
    expect(await refusalOf(checkSecondFactor(from(), await challenge(), { code }))).toMatchObject({ status: 401, message: CODE_INVALID });
    expect(await audited()).toEqual(['two_factor_failed']);
  });

  it('takes a recovery code once, audited as used', async () => {
    await checkSecondFactor(from(), await challenge(), { recovery_code: RECOVERY_CODE });
    expect(await refusalOf(checkSecondFactor(from(), await challenge(), { recovery_code: RECOVERY_CODE }))).toMatchObject({ status: 401 });
    expect(await audited()).toEqual(['recovery_code_used', 'two_factor_failed']);
  });

  it('asks for a code when given neither; past the pair’s limit of wrong codes, even the right one is refused', async () => {
    expect(await refusalOf(checkSecondFactor(from(), await challenge(), {}))).toMatchObject({
      status: 400,
      fields: { code: 'Code is required' },
    });
    for (let i = 0; i < MAX_FAILURES_PER_ACCOUNT_AND_IP; i++)
      expect(await refusalOf(checkSecondFactor(from(), await challenge(), { recovery_code: 'zzzz-zzzz-zzzz' }))).toMatchObject({
        status: 401,
      });
    const blocked = await refusalOf(checkSecondFactor(from(), await challenge(), { code: await totpCode(secret) }));
    expect(blocked).toMatchObject({
      status: 429,
      message: expect.stringMatching(/^Too many wrong codes for this account from your network\. /),
    });
    // Never per account: from another address the owner goes on.
    await checkSecondFactor(from('198.51.100.7'), await challenge(), { recovery_code: RECOVERY_CODE });
  });
});
