import { sql } from 'drizzle-orm';
import pg from 'pg';
import type { Database } from '../db/client.ts';
import { rowsOf } from './database.ts';

/**
 * The database's clock for tests: crm_now() (db/functions/crm_now.sql), which every statement of
 * the product asks instead of now(), answers the instant in the setting crm.test_now when one is
 * set. These set it on one test database (useTestDatabase) and clear it. A server refuses to
 * open a database with it set outside NODE_ENV=test (db/test-clock-guard.ts).
 *
 * PGlite is one connection: the setting is set on its session. A PostgreSQL test database is a
 * pool of connections: the setting goes on the test file's own database (ALTER DATABASE, read by
 * every connection opened after) and on each connection the pool holds now, taken all at once so
 * none is missed. Call it between requests, not while the test holds a connection (a transaction).
 */
export async function setDatabaseClock(database: Database, instant: Date): Promise<void> {
  await setTestNow(database, instant.toISOString());
}

/** Back to the real clock: crm_now() is now() again. */
export async function clearDatabaseClock(database: Database): Promise<void> {
  await setTestNow(database, null);
}

/** What crm_now() answers now, for a test to see where it stands. */
export async function databaseNow(database: Database): Promise<Date> {
  const [row] = await rowsOf<{ now: string }>(database.db, sql`select crm_now()::text as now`);
  return new Date(row!.now);
}

/**
 * An instant in the middle of the current window of `windowSeconds` (fixed windows aligned to the
 * epoch, as the rate limits count them: db/queries/rate-limits-queries.ts), by this process's
 * clock: at most half a window from the real time, and half a window from either edge.
 */
export function middleOfWindow(windowSeconds: number, now = Date.now()): Date {
  const ms = windowSeconds * 1000;
  return new Date(Math.floor(now / ms) * ms + ms / 2);
}

async function setTestNow(database: Database, value: string | null): Promise<void> {
  if (database.kind === 'pglite') {
    await database.db.execute(sql`select set_config('crm.test_now', ${value ?? ''}, false)`);
    return;
  }
  const pool = (database.db as unknown as { $client: pg.Pool }).$client;
  const held: pg.PoolClient[] = [];
  try {
    held.push(await pool.connect());
    const [{ name }] = (await held[0]!.query<{ name: string }>('select current_database() as name')).rows as [{ name: string }];
    const target = pg.escapeIdentifier(name);
    await held[0]!.query(
      value === null
        ? `alter database ${target} reset crm.test_now`
        : `alter database ${target} set crm.test_now = ${pg.escapeLiteral(value)}`,
    );
    // Every connection the pool may hand out: the idle ones and, waited for, any in use.
    while (held.length < (pool.options.max ?? 10)) held.push(await pool.connect());
    for (const client of held) await client.query(`select set_config('crm.test_now', $1, false)`, [value ?? '']);
  } finally {
    for (const client of held) client.release();
  }
}
