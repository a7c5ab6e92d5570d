import { readFileSync } from 'node:fs';
import pg from 'pg';
import type { SQL } from 'drizzle-orm';
import { afterAll, beforeAll } from 'vitest';
import { createPglite, fromPglite, openPostgres, type Database, type Db } from '../db/client.ts';
import { PG_TEMPLATE_DB, TEMPLATE_FILE } from './run-files.ts';

/** Which engine this test run uses: the postgres project sets TEST_DB=postgres. */
export const testEngine = process.env.TEST_DB === 'postgres' ? 'postgres' : 'pglite';

/**
 * A fresh, migrated database for one test file, copied from the run's template.
 * Always close it: an open PGlite keeps the process alive.
 */
export async function createTestDatabase(): Promise<Database> {
  if (testEngine === 'postgres') return createPostgresCopy();
  const client = createPglite({ loadDataDir: new Blob([readFileSync(TEMPLATE_FILE)]) });
  await client.waitReady;
  return fromPglite(client);
}

/**
 * A new PostgreSQL database on TEST_DATABASE_URL's server, copied from the migrated template
 * (or `empty`: no tables at all): its URL and how to drop it.
 */
export async function createPostgresDatabaseUrl({ empty = false } = {}): Promise<{ url: string; drop: () => Promise<void> }> {
  const url = process.env.TEST_DATABASE_URL;
  if (!url) throw new Error('TEST_DB=postgres needs TEST_DATABASE_URL');
  const name = `crm_test_${crypto.randomUUID().replaceAll('-', '').slice(0, 16)}`;
  await adminQuery(url, `create database ${name} template ${empty ? 'template0' : PG_TEMPLATE_DB}`);
  const u = new URL(url);
  u.pathname = `/${name}`;
  return { url: u.toString(), drop: () => adminQuery(url, `drop database if exists ${name} with (force)`) };
}

async function createPostgresCopy(): Promise<Database> {
  const { url, drop } = await createPostgresDatabaseUrl();
  const database = openPostgres(url, 5);
  return {
    ...database,
    close: async () => {
      await database.close();
      await drop();
    },
  };
}

/** A connection of its own to `url` for `use`, closed after. */
export async function withPgClient<T>(url: string, use: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await use(client);
  } finally {
    await client.end();
  }
}

/** The embedded database in `dataDir`, opened for `use` and closed after (no server may hold it). */
export async function withPgliteDir<T>(dataDir: string, use: (client: ReturnType<typeof createPglite>) => Promise<T>): Promise<T> {
  const client = createPglite({ dataDir });
  await client.waitReady;
  try {
    return await use(client);
  } finally {
    await client.close();
  }
}

const adminQuery = async (url: string, query: string) => {
  await withPgClient(url, (client) => client.query(query));
};

/** A test's own look at the database: the rows of any query, unchecked (queryRows is for the app's queries). */
export async function rowsOf<T>(db: Db, query: SQL): Promise<T[]> {
  return ((await db.execute(query)) as unknown as { rows: T[] }).rows;
}

/**
 * A fresh, migrated database for the test file that calls this at its top level: created
 * before its tests (beforeAll), closed after them (afterAll). The returned object stands for
 * that database from the moment the tests run, so it can be handed to createTestApp() or
 * read as `database.db` anywhere in the file.
 */
export function useTestDatabase(): Database {
  let current: Database | undefined;
  beforeAll(async () => {
    current = await createTestDatabase();
  });
  afterAll(async () => {
    await current?.close();
    current = undefined;
  });
  const open = () => {
    if (!current) throw new Error('useTestDatabase(): the database exists only while the file’s tests run');
    return current;
  };
  return {
    get db() {
      return open().db;
    },
    get kind() {
      return open().kind;
    },
    migrate: () => open().migrate(),
    listen: (...args) => open().listen(...args),
    get poolStats() {
      return open().poolStats;
    },
    close: async () => {
      throw new Error('useTestDatabase(): the database is closed after the file’s tests');
    },
  };
}

/** A count from `query` (its column `n`) on the database at `url`, over a connection of its own. */
export const countAt = (url: string, query: string) =>
  withPgClient(url, async (c) => Number((await c.query<{ n: string }>(query)).rows[0]!.n));

/**
 * Waits until `check` answers true, asking again every `everyMs`: for what other processes do
 * to a database, which nothing here can be told of. Throws naming `what` after `timeoutMs`.
 */
export async function untilTrue(what: string, check: () => Promise<boolean>, timeoutMs: number, everyMs = 250) {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting until ${what}`);
    await new Promise((r) => setTimeout(r, everyMs));
  }
}
