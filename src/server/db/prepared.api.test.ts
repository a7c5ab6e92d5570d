import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import { useTestDatabase, rowsOf } from '../test/database.ts';
import { execute, queryRows, transaction } from './sql.ts';
import { sqlState } from './database-faults.ts';

// Named prepared statements (db/sql.ts) on either engine; on PGlite, embedded/pglite-prepared.ts
// runs them, which drizzle's PGlite driver does not.
const database = useTestDatabase();

const anyRow = z.record(z.string(), z.unknown());

/** A statement with a value of every kind the app reads back, so both paths' parsing is compared. */
const everyType = (n: number, when: string) => sql`
  select ${n}::int as n, ${n}::bigint as big, ${String(n / 4)}::numeric as num, (${n} % 2 = 0) as even,
    ${`text ${n}`}::text as t, ${when}::timestamptz as at, ${when}::timestamp as local_at, ${when}::date as day,
    interval '1 day 2 hours' as span, array[${n}, 2]::int[] as ints, array['a', ${`b${n}`}]::text[] as texts,
    array[${when}::timestamptz] as ats, array[1.5, ${n}]::numeric[] as nums,
    jsonb_build_object('n', ${n}::int, 'tags', array['x']) as doc, ${'00000000-0000-4000-8000-000000000001'}::uuid as id,
    null::text as nothing`;

describe('named prepared statements', () => {
  it('return the rows an unnamed query returns, value for value, at the first call and after', async () => {
    for (const [n, when] of [
      [1, '2026-11-28T10:00:00Z'],
      [2, '2026-03-08T07:30:00.123Z'],
      [3, '2025-12-31T23:59:59Z'],
      [4, '2026-01-01T00:00:00Z'],
      [5, '2026-06-15T12:00:00Z'],
      [6, '2026-07-04T16:20:00Z'],
      [7, '2026-02-28T00:00:01Z'],
    ] as const) {
      const plain = await queryRows(database.db, everyType(n, when), anyRow);
      const named = await queryRows(database.db, everyType(n, when), anyRow, { prepared: 'test_every_type' });
      expect(named).toEqual(plain);
      expect(named[0]).toMatchObject({ n, t: `text ${n}`, nothing: null });
    }
  });

  it('are parsed once per connection and then run from their kept plan', async () => {
    await transaction(database.db, async (tx) => {
      // One transaction: one connection on PostgreSQL too, so its statements are the ones counted.
      for (let i = 0; i < 8; i++)
        await queryRows(tx, sql`select count(*)::int as n from users where email = ${`u${i}@example.com`}`, anyRow, {
          prepared: 'test_plan_kept',
        });
      const [kept] = await rowsOf<{ statement: string; generic: number; custom: number }>(
        tx,
        sql`select statement, generic_plans::int as generic, custom_plans::int as custom from pg_prepared_statements where name = 'test_plan_kept'`,
      );
      expect(kept?.statement).toContain('from users where email = $1');
      // PostgreSQL plans the first five calls for their values, then keeps a generic plan.
      expect(kept!.generic + kept!.custom).toBe(8);
      expect(kept!.generic).toBeGreaterThan(0);
    });
  });

  it('run inside the transaction they are called in: rolled back with it, seen by it', async () => {
    const marker = `prepared-${crypto.randomUUID()}`;
    const insert = () =>
      execute(database.db, sql`insert into app_secrets (name, value) values (${marker}, 'x')`, { prepared: 'test_insert_marker' });
    const count = async () =>
      (await rowsOf<{ n: number }>(database.db, sql`select count(*)::int as n from app_secrets where name = ${marker}`))[0]!.n;
    await expect(
      transaction(database.db, async (tx) => {
        await execute(tx, sql`insert into app_secrets (name, value) values (${marker}, 'x')`, { prepared: 'test_insert_marker' });
        const seen = await queryRows(tx, sql`select count(*)::int as n from app_secrets where name = ${marker}`, anyRow, {
          prepared: 'test_count_marker',
        });
        expect(seen).toEqual([{ n: 1 }]);
        throw new Error('roll back');
      }),
    ).rejects.toThrow('roll back');
    expect(await count()).toBe(0);
    await insert();
    expect(await count()).toBe(1);
  });

  it('outside a transaction, wait for the one under way rather than run inside it', async () => {
    const marker = `waits-${crypto.randomUUID()}`;
    let inserted!: () => void;
    const hasInserted = new Promise<void>((r) => (inserted = r));
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    const open = transaction(database.db, async (tx) => {
      await execute(tx, sql`insert into app_secrets (name, value) values (${marker}, 'x')`, { prepared: 'test_insert_marker_2' });
      inserted();
      await held;
      throw new Error('roll back');
    }).catch((e: Error) => e.message);
    await hasInserted;
    // Asked while the transaction holds its uncommitted row: on PGlite (one connection) it runs
    // once the transaction has ended, on PostgreSQL on another connection; either way it never
    // sees, nor joins, the insert that is rolled back.
    const outside = queryRows(database.db, sql`select count(*)::int as n from app_secrets where name = ${marker}`, anyRow, {
      prepared: 'test_count_marker_2',
    });
    setTimeout(release, 50);
    expect(await open).toBe('roll back');
    expect(await outside).toEqual([{ n: 0 }]);
  });

  it("report the database's error as a failed unnamed query does, and stay usable after it", async () => {
    const name = `dup-${crypto.randomUUID()}`;
    const insert = () =>
      execute(database.db, sql`insert into app_secrets (name, value) values (${name}, 'x')`, { prepared: 'test_insert_secret' });
    await insert();
    const error = await insert().catch((e: unknown) => e);
    expect(sqlState(error)).toBe('23505');
    const plainError = await database.db.execute(sql`insert into app_secrets (name, value) values (${name}, 'x')`).catch((e: unknown) => e);
    expect(sqlState(plainError)).toBe('23505');
    // A failed call leaves nothing half done: the next runs.
    expect(
      await queryRows(database.db, sql`select count(*)::int as n from app_secrets where name = ${name}`, anyRow, {
        prepared: 'test_count_secret',
      }),
    ).toEqual([{ n: 1 }]);
  });

  it('refuse a name given to another text', async () => {
    await queryRows(database.db, sql`select 1 as n`, anyRow, { prepared: 'test_one_text' });
    await expect(queryRows(database.db, sql`select 2 as n`, anyRow, { prepared: 'test_one_text' })).rejects.toThrow(
      /the prepared statement "test_one_text" changed its text/,
    );
  });
});
