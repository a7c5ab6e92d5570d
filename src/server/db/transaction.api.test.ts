import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import { useTestDatabase } from '../test/database.ts';
import { execute, queryRows, transaction } from './sql.ts';

const database = useTestDatabase();
const count = async () =>
  (
    await queryRows(database.db, sql`select count(*)::int as n from app_secrets where name like 'tx-test:%'`, z.object({ n: z.number() }))
  )[0]!.n;

describe('transaction', () => {
  it('hands fn a Db that the query functions use, and commits what it did when fn resolves', async () => {
    const answer = await transaction(database.db, async (tx) => {
      await execute(tx, sql`insert into app_secrets (name, value) values ('tx-test:kept', 'x')`);
      return (
        await queryRows(tx, sql`select count(*)::int as n from app_secrets where name = 'tx-test:kept'`, z.object({ n: z.number() }))
      )[0]!.n;
    });
    expect(answer).toBe(1);
    expect(await count()).toBe(1);
  });

  it('rolls everything back when fn throws, and passes the error on', async () => {
    const before = await count();
    await expect(
      transaction(database.db, async (tx) => {
        await execute(tx, sql`insert into app_secrets (name, value) values ('tx-test:dropped', 'x')`);
        throw new Error('refused');
      }),
    ).rejects.toThrow('refused');
    expect(await count()).toBe(before);
  });
});
