import { sql } from 'drizzle-orm';
import { afterEach, describe, expect, it } from 'vitest';
import * as z from 'zod';
import { leadSchema } from '#shared/schemas/lead';
import { useTestDatabase } from '../test/database.ts';
import { createLead } from './queries/leads-queries.ts';
import { listNewestLeads } from './queries/lead-list-queries.ts';
import { queryRows, RowShapeError, setRowChecks } from './sql.ts';

const database = useTestDatabase();
afterEach(() => setRowChecks(true));

const row = z.object({ id: z.uuid(), n: z.number().int() });

describe('queryRows', () => {
  it('returns the rows, typed by their schema, on either driver', async () => {
    const rows = await queryRows(database.db, sql`select gen_random_uuid() as id, 41 + 1 as n`, row);
    expect(rows).toEqual([{ id: expect.any(String), n: 42 }]);
  });

  it('fails, naming the query and the column, when a column is renamed, missing or of another type', async () => {
    await expect(queryRows(database.db, sql`select gen_random_uuid() as id, 1 as count`, row)).rejects.toThrow(
      /a row of "select gen_random_uuid\(\) as id, 1 as count" does not match its schema: n: /,
    );
    await expect(queryRows(database.db, sql`select gen_random_uuid() as id, '1' as n`, row)).rejects.toThrow(RowShapeError);
  });

  it('fails when a row has a column its schema does not name (so nothing unplanned reaches a client)', async () => {
    await expect(queryRows(database.db, sql`select gen_random_uuid() as id, 1 as n, 'secret' as password_hash`, row)).rejects.toThrow(
      /has columns its schema does not name: password_hash/,
    );
  });

  it('checks nothing with row checks off (production): rows come back as the database sent them', async () => {
    setRowChecks(false);
    expect(await queryRows(database.db, sql`select 1 as count`, row)).toEqual([{ count: 1 }]);
  });

  it("holds for the app's own queries: a lead read back matches the shared Lead schema exactly", async () => {
    await createLead(database.db, {
      full_name: 'Row Check',
      email: 'row@example.com',
      phone: '1',
      property_types: ['land'],
      message: null,
    });
    const [lead] = await listNewestLeads(database.db, 1);
    expect(leadSchema.strict().parse(lead)).toMatchObject({ full_name: 'Row Check', status: 'New' });
  });
});
