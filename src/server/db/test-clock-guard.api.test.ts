import { sql } from 'drizzle-orm';
import { afterEach, describe, expect, it } from 'vitest';
import { rowsOf, useTestDatabase } from '../test/database.ts';
import { clearDatabaseClock, databaseNow, middleOfWindow, setDatabaseClock } from '../test/database-clock.ts';
import { windowStart } from './queries/rate-limits-queries.ts';
import { refuseTestClock, TestClockError } from './test-clock-guard.ts';

const database = useTestDatabase();
afterEach(() => clearDatabaseClock(database));

const INSTANT = new Date('2031-03-04T05:06:07.000Z');

describe('crm_now(), the database clock the product reads', () => {
  it('is now(), the transaction’s start, while no test clock is set', async () => {
    const [row] = await rowsOf<{ same: boolean; later: boolean }>(
      database.db,
      sql`select crm_now() = now() as same, clock_timestamp() >= crm_now() as later`,
    );
    expect(row).toEqual({ same: true, later: true });
  });

  it('answers the instant a test sets, on every connection and in every default, until cleared', async () => {
    await setDatabaseClock(database, INSTANT);
    expect(await databaseNow(database)).toEqual(INSTANT);
    // Several statements at once: on PostgreSQL each takes a connection of the pool's own.
    const seen = await Promise.all(
      Array.from({ length: 5 }, () =>
        database.db.transaction(
          async (tx) => (await rowsOf<{ now: string }>(tx, sql`select pg_sleep(0.05), crm_now()::text as now`))[0]!.now,
        ),
      ),
    );
    for (const now of seen) expect(new Date(now)).toEqual(INSTANT);
    // A column default dates a row on the same clock the queries compare with.
    const [row] = await rowsOf<{ created_at: string }>(
      database.db,
      sql`insert into rate_limits (key, window_start, count, expires_at) values ('clock-test', crm_now(), 1, crm_now() + interval '1 minute')
          returning expires_at::text as created_at`,
    );
    expect(new Date(row!.created_at)).toEqual(new Date(INSTANT.getTime() + 60_000));
    const [{ created_at }] = (await rowsOf<{ created_at: string }>(
      database.db,
      sql`insert into app_secrets (name, value) values ('clock-test', 'x') returning created_at::text`,
    )) as [{ created_at: string }];
    expect(new Date(created_at)).toEqual(INSTANT);
    await database.db.execute(sql`delete from app_secrets where name = 'clock-test'`);
    await database.db.execute(sql`delete from rate_limits where key = 'clock-test'`);

    await clearDatabaseClock(database);
    const real = await databaseNow(database);
    expect(Math.abs(real.getTime() - Date.now())).toBeLessThan(60_000);
  });

  it('puts a rate-limit window where the test stands', async () => {
    const middle = middleOfWindow(900);
    expect(middle.getTime() % 900_000).toBe(450_000);
    expect(Math.abs(middle.getTime() - Date.now())).toBeLessThanOrEqual(450_000);
    await setDatabaseClock(database, middle);
    const [row] = await rowsOf<{ start: string }>(database.db, sql`select (${windowStart(900)})::text as start`);
    expect(new Date(row!.start)).toEqual(new Date(middle.getTime() - 450_000));
  });

  it('is inlined into the statements that call it (a plain SQL expression, no function call per row)', async () => {
    const plan = (
      await rowsOf<{ 'QUERY PLAN': string }>(
        database.db,
        sql`explain (verbose, costs off) select key from rate_limits where expires_at <= crm_now()`,
      )
    )
      .map((r) => r['QUERY PLAN'])
      .join('\n');
    expect(plan).not.toContain('crm_now');
    expect(plan).toContain("current_setting('crm.test_now'");
  });
});

describe('refuseTestClock, which the server runs as it opens the database', () => {
  it('refuses a database with a test clock outside tests, naming the setting and how to remove it', async () => {
    await setDatabaseClock(database, INSTANT);
    const refusal = refuseTestClock(database.db, false);
    await expect(refusal).rejects.toThrow(TestClockError);
    await expect(refusal).rejects.toThrow(/crm\.test_now = '2031-03-04.*RESET crm\.test_now/);
    // Under NODE_ENV=test the same database opens.
    await expect(refuseTestClock(database.db, true)).resolves.toBeUndefined();
  });

  it('opens a database on the real clock, and one whose test clock was cleared', async () => {
    await expect(refuseTestClock(database.db, false)).resolves.toBeUndefined();
    await setDatabaseClock(database, INSTANT);
    await clearDatabaseClock(database);
    await expect(refuseTestClock(database.db, false)).resolves.toBeUndefined();
  });
});
