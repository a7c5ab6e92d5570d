import { sql } from 'drizzle-orm';
import { beforeEach, describe, expect, it } from 'vitest';
import { execute } from '../db/sql.ts';
import { rowsOf, useTestDatabase } from '../test/database.ts';
import { middleOfWindow, setDatabaseClock } from '../test/database-clock.ts';
import { refusalOf } from '../test/refusal.ts';
import { countFailure } from './count-failure.ts';
import { MAX_FAILURES_PER_ACCOUNT_AND_IP, MAX_FAILURES_PER_IP, SIGN_IN_WINDOW_SECONDS, signInKeys } from './sign-in-limits.ts';

const database = useTestDatabase();
const refused = { ip: 'failed sign-ins from your network', pair: 'failed sign-ins for this email from your network' };
const count = (email: string, ip: string) => countFailure(database.db, signInKeys(email, ip), refused);
const rateLimitRows = async () => (await rowsOf<{ n: number }>(database.db, sql`select count(*)::int as n from rate_limits`))[0]!.n;

beforeEach(async () => {
  // The counts must fall in one 15-minute window: the database's clock stands still in the middle of one.
  await setDatabaseClock(database, middleOfWindow(SIGN_IN_WINDOW_SECONDS));
  await execute(database.db, sql`truncate rate_limits`);
});

describe('countFailure', () => {
  it('counts each attempt on the pair, the address and the account; past the pair’s limit, 429 with its message', async () => {
    for (let i = 1; i <= MAX_FAILURES_PER_ACCOUNT_AND_IP; i++) {
      const hit = await count('ann@example.com', '203.0.113.9');
      expect(hit.counts.get(signInKeys('ann@example.com', '203.0.113.9').account)).toBe(i);
    }
    const blocked = await refusalOf(count('ann@example.com', '203.0.113.9'));
    expect(blocked).toMatchObject({
      status: 429,
      message: expect.stringMatching(/^Too many failed sign-ins for this email from your network\. /),
    });
    // The same account from elsewhere, and another account from here, go on.
    await count('ann@example.com', '198.51.100.7');
    await count('bob@example.com', '203.0.113.9');
  });

  it('past the address’s limit across accounts, 429 with its message, and a blocked attempt writes nothing', async () => {
    for (let i = 0; i < MAX_FAILURES_PER_IP; i++) await count(`user${i}@example.com`, '203.0.113.9');
    const rows = await rateLimitRows();
    const blocked = await refusalOf(count('new@example.com', '203.0.113.9'));
    expect(blocked).toMatchObject({ status: 429, message: expect.stringMatching(/^Too many failed sign-ins from your network\. /) });
    expect(await rateLimitRows()).toBe(rows);
  });

  it('never refuses for the account’s own count: that only slows strangers', async () => {
    for (let i = 0; i < 3 * MAX_FAILURES_PER_ACCOUNT_AND_IP; i++) await count('ann@example.com', `203.0.113.${i}`);
    const hit = await count('ann@example.com', '192.0.2.1');
    expect(hit.counts.get(signInKeys('ann@example.com', '192.0.2.1').account)).toBe(3 * MAX_FAILURES_PER_ACCOUNT_AND_IP + 1);
  });
});
