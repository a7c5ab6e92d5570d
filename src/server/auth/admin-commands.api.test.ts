import { sql } from 'drizzle-orm';
import { beforeEach, describe, expect, it } from 'vitest';
import { execute } from '../db/sql.ts';
import { rowsOf, useTestDatabase } from '../test/database.ts';
import { runAdminCommand } from './admin-commands.ts';

// The commands themselves (the CLI's parsing and its two ways to the database: cli/admin.test.ts).
const database = useTestDatabase();
beforeEach(async () => {
  await execute(database.db, sql`truncate users cascade`);
});

const create = (email: string, name?: string) =>
  runAdminCommand(database.db, { command: 'create', email, password: 'long-enough', role: 'staff', ...(name !== undefined && { name }) });

describe('npm run admin -- create --name', () => {
  it('names the account as the account page would (trimmed, 1 to 80 characters), or by the email before the @', async () => {
    await expect(create('x@example.com', '   ')).rejects.toThrow('Name is required');
    await expect(create('x@example.com', 'x'.repeat(81))).rejects.toThrow('Name must be at most 80 characters');
    expect((await create('ann@example.com', ' Ann Archer ')).output).toBe('Created owner Ann Archer <ann@example.com>.\n');
    expect((await create('Bo.Baker@Example.com')).output).toBe('Created staff bo.baker <bo.baker@example.com>.\n');
    expect(await rowsOf(database.db, sql`select email, display_name from users order by email`)).toEqual([
      { email: 'ann@example.com', display_name: 'Ann Archer' },
      { email: 'bo.baker@example.com', display_name: 'bo.baker' },
    ]);
    // The name is the list's last column; the audit log's entry names the account too.
    expect((await runAdminCommand(database.db, { command: 'list' })).output.split('\n')[0]).toMatch(
      /^ann@example\.com\towner\tactive\t-\t[^\t]+\tAnn Archer$/,
    );
    const [entry] = await rowsOf<{ details: unknown }>(
      database.db,
      sql`select details from audit_log where action = 'account_created' order by id limit 1`,
    );
    expect(entry!.details).toEqual({ email: 'ann@example.com', name: 'Ann Archer', role: 'owner' });
  });
});
