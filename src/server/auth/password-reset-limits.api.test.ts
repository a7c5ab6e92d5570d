import { sql } from 'drizzle-orm';
import { beforeEach, describe, expect, it } from 'vitest';
import { execute } from '../db/sql.ts';
import { useTestDatabase } from '../test/database.ts';
import { middleOfWindow, setDatabaseClock } from '../test/database-clock.ts';
import { refusalOf } from '../test/refusal.ts';
import { limitResetRequests, MAX_RESETS_PER_EMAIL_AND_IP, MAX_RESETS_PER_IP } from './password-reset-limits.ts';
import { SIGN_IN_WINDOW_SECONDS } from './sign-in-limits.ts';

const database = useTestDatabase();
beforeEach(async () => {
  // The counts must fall in one 15-minute window: the database's clock stands still in the middle of one.
  await setDatabaseClock(database, middleOfWindow(SIGN_IN_WINDOW_SECONDS));
  await execute(database.db, sql`truncate rate_limits`);
});

describe('limitResetRequests', () => {
  it('takes MAX_RESETS_PER_EMAIL_AND_IP requests for one email from one address, then 429 for that pair alone', async () => {
    for (let i = 0; i < MAX_RESETS_PER_EMAIL_AND_IP; i++) await limitResetRequests(database.db, 'ann@example.com', '203.0.113.9');
    expect(await refusalOf(limitResetRequests(database.db, 'ann@example.com', '203.0.113.9'))).toMatchObject({
      status: 429,
      message: expect.stringMatching(/^Too many reset requests for this email from your network\. /),
    });
    await limitResetRequests(database.db, 'ann@example.com', '198.51.100.7');
    await limitResetRequests(database.db, 'bob@example.com', '203.0.113.9');
  });

  it('takes MAX_RESETS_PER_IP requests from one address across emails, then 429 for every email', async () => {
    for (let i = 0; i < MAX_RESETS_PER_IP; i++) await limitResetRequests(database.db, `u${i}@example.com`, '203.0.113.9');
    expect(await refusalOf(limitResetRequests(database.db, 'new@example.com', '203.0.113.9'))).toMatchObject({
      status: 429,
      message: expect.stringMatching(/^Too many reset requests from your network\. /),
    });
  });
});
