import { sql } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPostgresDatabaseUrl, rowsOf, testEngine } from '../test/database.ts';
import { openPostgres, type Database } from './client.ts';

/**
 * The app's PostgreSQL pool (one connection here, so every query shares it): a statement the
 * server refuses leaves the connection open for the next one; a connection the server ends
 * mid-query is replaced.
 */
describe.runIf(testEngine === 'postgres')('the PostgreSQL pool', () => {
  let database: Database;
  let drop: () => Promise<void>;
  let url: string;
  beforeAll(async () => {
    ({ url, drop } = await createPostgresDatabaseUrl());
    database = openPostgres(url, 1);
  });
  afterAll(async () => {
    await database?.close();
    await drop?.();
  });

  const backendPid = async () => (await rowsOf<{ pid: number }>(database.db, sql`select pg_backend_pid() as pid`))[0]!.pid;

  it('keeps the connection after the server refuses a statement', async () => {
    const before = await backendPid();
    await expect(database.db.execute(sql`select 1 / 0`)).rejects.toMatchObject({ cause: { code: '22012' } });
    await expect(
      database.db.execute(sql`insert into users (id, email, display_name, password_hash) values (gen_random_uuid(), null, 'x', 'x')`),
    ).rejects.toThrow();
    expect(await backendPid()).toBe(before);
  });

  it('replaces a connection the server ended during a query', async () => {
    const before = await backendPid();
    // then() starts it now (drizzle runs a query when it is awaited).
    const sleeping = database.db.execute(sql`select pg_sleep(10)`).then(
      () => 'finished',
      (error: unknown) => error,
    );
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    try {
      // Wait until the sleep runs, then end that backend.
      for (let i = 0; i < 100; i++) {
        const { rows } = await admin.query(
          `select 1 from pg_stat_activity where pid = $1 and query like '%pg_sleep%' and state = 'active'`,
          [before],
        );
        if (rows.length) break;
        await new Promise((r) => setTimeout(r, 20));
      }
      await admin.query('select pg_terminate_backend($1)', [before]);
    } finally {
      await admin.end();
    }
    expect(await sleeping).toBeInstanceOf(Error);
    const after = await backendPid();
    expect(after).not.toBe(before);
  });
});
