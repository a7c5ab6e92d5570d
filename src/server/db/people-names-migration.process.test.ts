import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrationBefore } from '../test/migration-before.ts';

/**
 * The migration that gave people names, on a database as it was just before it: the accounts
 * already there get a name (the part of their email before the @), their audit log entries
 * keep it, and the owner changes on lead timelines, which named owners by email, name them by
 * name.
 */
const { client, query, before, migrate } = migrationBefore('_people_names');
beforeAll(async () => {
  await before();
  const [ann] = await query<{ id: string }>(
    `insert into users (email, password_hash, role) values ('ann.archer@firm.com', 'x', 'owner'), ('bo@firm.com', 'x', 'staff') returning id`,
  );
  const [lead] = await query<{ id: string }>(
    `insert into leads (full_name, email, phone, property_types) values ('Jane Doe', 'jane@example.com', '555', '{land}') returning id`,
  );
  // Two owner changes as they were written: by email. The second names someone whose account is gone.
  await query(`insert into lead_events (lead_id, kind, actor_id, data) values ($1, 'owner', $2, $3), ($1, 'owner', $2, $4)`, [
    lead!.id,
    ann!.id,
    JSON.stringify({ from: null, to: 'ann.archer@firm.com' }),
    JSON.stringify({ from: 'gone@firm.com', to: 'bo@firm.com' }),
  ]);
  // Audit entries: Ann's, and one of an account removed before (its email alone).
  await query(
    `insert into audit_log (actor_id, actor_email, action) values ($1, 'ann.archer@firm.com', 'sign_in'), (null, 'gone@firm.com', 'sign_in')`,
    [ann!.id],
  );
  await migrate();
}, 120_000);
afterAll(async () => {
  await client.close();
});

describe('the people-names migration', () => {
  it('names the existing accounts by their email before the @, and they have no phone', async () => {
    expect(await query(`select email, display_name, phone from users order by email`)).toEqual([
      { email: 'ann.archer@firm.com', display_name: 'ann.archer', phone: null },
      { email: 'bo@firm.com', display_name: 'bo', phone: null },
    ]);
  });

  it('names the owners on lead timelines by name, where their account still exists', async () => {
    expect(await query(`select data from lead_events where kind = 'owner' order by data->>'to'`)).toEqual([
      { data: { from: null, to: 'ann.archer' } },
      { data: { from: 'gone@firm.com', to: 'bo' } },
    ]);
  });

  it('keeps the name of each entry’s actor in the audit log, which stays append-only, and keeps it when the account is removed', async () => {
    expect(await query(`select actor_email, actor_name from audit_log order by id`)).toEqual([
      { actor_email: 'ann.archer@firm.com', actor_name: 'ann.archer' },
      { actor_email: 'gone@firm.com', actor_name: null },
    ]);
    await expect(query(`update audit_log set actor_name = 'someone else'`)).rejects.toThrow(/cannot be changed/);
    await query(`update users set role = 'owner' where email = 'bo@firm.com'`);
    await query(`delete from users where email = 'ann.archer@firm.com'`);
    expect(await query(`select actor_id, actor_name from audit_log where actor_email = 'ann.archer@firm.com'`)).toEqual([
      { actor_id: null, actor_name: 'ann.archer' },
    ]);
  });

  it('from then on, an account needs a name of 1 to 80 characters, trimmed', async () => {
    await expect(query(`insert into users (email, password_hash) values ('x@firm.com', 'x')`)).rejects.toThrow(/display_name/);
    await expect(query(`insert into users (email, display_name, password_hash) values ('x@firm.com', ' X', 'x')`)).rejects.toThrow(
      /users_display_name_check/,
    );
    await expect(
      query(`insert into users (email, display_name, password_hash) values ('x@firm.com', $1, 'x')`, ['x'.repeat(81)]),
    ).rejects.toThrow(/users_display_name_check/);
    await expect(
      query(`insert into users (email, display_name, phone, password_hash) values ('x@firm.com', 'X', '', 'x')`),
    ).rejects.toThrow(/users_phone_check/);
  });
});
