import { sql } from 'drizzle-orm';
import * as z from 'zod';
import type { Db } from './client.ts';
import { queryRows } from './sql.ts';

/**
 * The database's clock, crm_now() (db/functions/crm_now.sql), answers the instant in the setting
 * crm.test_now when one is set: tests set it (test/database-clock.ts) to stand inside a window.
 * Set on a database that serves people, every expiry, limit and reminder would run on a frozen
 * clock, so a process outside tests that finds it set (ALTER DATABASE, ALTER ROLE, ALTER SYSTEM,
 * a copy of a test's data directory) refuses to open the database, naming it and the way out.
 */
export async function refuseTestClock(db: Db, allowed: boolean): Promise<void> {
  if (allowed) return;
  const [row] = await queryRows(
    db,
    sql`select coalesce(current_setting('crm.test_now', true), '') as test_now`,
    z.object({ test_now: z.string() }),
  );
  const testNow = row?.test_now ?? '';
  if (testNow !== '')
    throw new TestClockError(
      `the database sets a test clock (crm.test_now = '${testNow}'), which only tests (NODE_ENV=test) may use: ` +
        `remove it (ALTER DATABASE <name> RESET crm.test_now, or ALTER ROLE / ALTER SYSTEM, wherever it was set)`,
    );
}

export class TestClockError extends Error {}
