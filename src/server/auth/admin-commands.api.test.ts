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

describe('npm run admin -- deactivate, role and delete', () => {
  it('revoke the account’s API keys for good, each with an audit entry saying why', async () => {
    await create('first@example.com'); // the first account is the owner the team must keep
    const keysOf = async (email: string) => {
      await create(email);
      await runAdminCommand(database.db, { command: 'role', email, role: 'owner' });
      await execute(
        database.db,
        sql`insert into api_keys (name, key_hash, prefix, scopes, user_id)
            select 'Key of ' || email, md5(email), 'crm_abcdefgh', array['leads:read'], id from users where email = ${email}`,
      );
    };
    const keys = () => rowsOf<{ name: string }>(database.db, sql`select name from api_keys order by name`);
    await keysOf('dee@example.com');
    await keysOf('dem@example.com');
    await keysOf('del@example.com');
    expect(await keys()).toHaveLength(3);

    await runAdminCommand(database.db, { command: 'deactivate', email: 'dee@example.com' });
    await runAdminCommand(database.db, { command: 'reactivate', email: 'dee@example.com' });
    await runAdminCommand(database.db, { command: 'role', email: 'dem@example.com', role: 'staff' });
    await runAdminCommand(database.db, { command: 'role', email: 'dem@example.com', role: 'owner' });
    await runAdminCommand(database.db, { command: 'delete', email: 'del@example.com' });
    expect(await keys()).toEqual([]);
    expect(
      await rowsOf(database.db, sql`select details from audit_log where action = 'api_key_revoked' order by details->>'name'`),
    ).toEqual([
      { details: { name: 'Key of dee@example.com', reason: 'deactivated' } },
      { details: { name: 'Key of del@example.com', reason: 'removed' } },
      { details: { name: 'Key of dem@example.com', reason: 'demoted' } },
    ]);
  });
});

describe('npm run admin -- reset-password', () => {
  it('ends the sessions, names the API keys that still work, and emails the person saying so', async () => {
    await create('first@example.com');
    await execute(
      database.db,
      sql`insert into api_keys (name, key_hash, prefix, scopes, user_id)
          select 'Partner form', md5('k1'), 'crm_abcdefgh', array['leads:read'], id from users where email = 'first@example.com'`,
    );
    const mail = { domain: 'keystone.test', sending: true };
    const result = await runAdminCommand(
      database.db,
      { command: 'reset-password', email: 'first@example.com', password: 'a-new-long-password' },
      mail,
    );
    expect(result.output).toBe(
      'New password set for first@example.com; their sessions have ended.\n' +
        'Their API keys still work (a password change does not end them):\n' +
        '  Partner form (crm_abcdefgh…)\n' +
        'To end them: Settings → Integrations (any owner may revoke each; they may revoke all theirs at once).\n',
    );
    expect(await rowsOf(database.db, sql`select name from api_keys`)).toEqual([{ name: 'Partner form' }]);
    expect(await rowsOf(database.db, sql`select to_address, data from emails where kind = 'password-changed'`)).toEqual([
      { to_address: 'first@example.com', data: { how: 'admin_command', keys: [{ name: 'Partner form', prefix: 'crm_abcdefgh' }] } },
    ]);
    // No keys: nothing said of them.
    await execute(database.db, sql`delete from api_keys`);
    expect(
      (await runAdminCommand(database.db, { command: 'reset-password', email: 'first@example.com', password: 'another-long-one' }, mail))
        .output,
    ).toBe('New password set for first@example.com; their sessions have ended.\n');
  });
});
