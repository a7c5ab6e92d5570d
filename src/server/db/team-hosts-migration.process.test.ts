import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrationBefore } from '../test/migration-before.ts';

/**
 * The migration that gave appointments a host, on a database as it was just before it: each
 * call goes to its lead's owner when that account is active, else to the first owner; the
 * first owner alone takes website calls (as the one calendar did); two overlapping calls of
 * different people are allowed from then on, of one person still refused.
 */
const { client, query, before, migrate } = migrationBefore('_team_hosts');
const ids: Record<string, string> = {};

beforeAll(async () => {
  await before();
  for (const [name, role, gone] of [
    ['first', 'owner', false],
    ['second', 'owner', false],
    ['sam', 'staff', false],
    ['left', 'staff', true],
  ] as const) {
    const [row] = await query<{ id: string }>(
      `insert into users (email, password_hash, role, display_name, deactivated_at) values ($1, 'x', $2, $3, $4) returning id`,
      [`${name}@firm.com`, role, name, gone ? new Date() : null],
    );
    ids[name] = row!.id;
    // Created in order, a second apart: "first" is the oldest.
    await query(`update users set created_at = now() + make_interval(secs => $2) where id = $1`, [row!.id, Object.keys(ids).length]);
  }
  for (const [lead, owner] of [
    ['samslead', 'sam'],
    ['leftslead', 'left'],
    ['nobodys', null],
  ] as const) {
    const [row] = await query<{ id: string }>(
      `insert into leads (full_name, email, phone, property_types, owner_id) values ($1, $2, '555', '{land}', $3) returning id`,
      [lead, `${lead}@example.com`, owner ? ids[owner] : null],
    );
    ids[lead] = row!.id;
    await query(`insert into appointments (lead_id, date, time, type) values ($1, ('2030-01-0' || $2)::date, '10:00', 'Call')`, [
      row!.id,
      String(Object.keys(ids).length % 9 || 1),
    ]);
  }
  await migrate();
}, 120_000);
afterAll(async () => {
  await client.close();
});

describe('the team-hosts migration', () => {
  it('gives each call its lead’s active owner, else the first owner', async () => {
    const rows = await query<{ full_name: string; host: string }>(
      `select l.full_name, u.email as host from appointments a join leads l on l.id = a.lead_id join users u on u.id = a.host_id order by l.full_name`,
    );
    expect(rows).toEqual([
      { full_name: 'leftslead', host: 'first@firm.com' },
      { full_name: 'nobodys', host: 'first@firm.com' },
      { full_name: 'samslead', host: 'sam@firm.com' },
    ]);
  });

  it('lets the first owner alone take website calls, on the firm’s hours', async () => {
    expect(
      await query(`select u.email, a.bookable, a.hours, a.holidays_off from user_availability a join users u on u.id = a.user_id`),
    ).toEqual([{ email: 'first@firm.com', bookable: true, hours: null, holidays_off: true }]);
  });

  it('refuses one person two overlapping calls, and allows two people one time each', async () => {
    const at = `'2031-01-06', '10:00', 'Call'`;
    await query(`insert into appointments (date, time, type, host_id) values (${at}, $1)`, [ids.sam]);
    await expect(query(`insert into appointments (date, time, type, host_id) values (${at}, $1)`, [ids.sam])).rejects.toThrow(
      /appointments_no_overlap/,
    );
    await query(`insert into appointments (date, time, type, host_id) values (${at}, $1)`, [ids.second]);
  });
});
