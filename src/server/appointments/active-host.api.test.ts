import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { execute } from '../db/sql.ts';
import { useAppointmentStaff } from '../test/appointment-staff.ts';
import { useTestDatabase } from '../test/database.ts';
import { refusalOf } from '../test/refusal.ts';
import { NO_SUCH_HOST, requireActiveHost } from './active-host.ts';

const database = useTestDatabase();
const people = useAppointmentStaff(database);

describe('requireActiveHost', () => {
  it('takes a team member who can sign in; refuses someone deactivated or not on the team', async () => {
    await requireActiveHost(database.db, people.staff);
    await execute(database.db, sql`update users set deactivated_at = now() where id = ${people.staff}`);
    for (const id of [people.staff, crypto.randomUUID()])
      expect(await refusalOf(requireActiveHost(database.db, id))).toMatchObject({ status: 400, fields: { host_id: NO_SUCH_HOST } });
  });
});
