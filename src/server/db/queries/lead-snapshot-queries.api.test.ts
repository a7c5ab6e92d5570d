import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import { useTestDatabase } from '../../test/database.ts';
import { composeEmail } from '../../mail/messages.ts';
import { pgArray, queryRows } from '../sql.ts';
import { leadSnapshot } from './lead-snapshot-queries.ts';

const database = useTestDatabase();
const ctx = {
  site: { name: 'Keystone', email: 'hello@example.com', phone: '+1 555 0100', address: '' },
  publicUrl: 'https://crm.example.com',
  from: { name: 'Keystone', address: 'crm@example.com' },
  domain: 'example.com',
  transport: 'smtp',
};

describe('leadSnapshot', () => {
  it('builds the JSON the lead emails read, property types as an array and nulls kept', async () => {
    const [row] = await queryRows(
      database.db,
      sql`select ${leadSnapshot({
        lead_id: sql`${'0b6c7f0e-4a59-4b8e-9f51-2f3a0c7d1e22'}::uuid`,
        full_name: sql`${'Jane Doe'}::text`,
        email: sql`${'jane@example.com'}::text`,
        phone: sql`${'555-0100'}::text`,
        property_types: sql`${pgArray(['Office', 'Retail'])}::text[]`,
        message: sql`null::text`,
        source: sql`${'google.com'}::text`,
        utm_source: sql`null::text`,
        utm_medium: sql`null::text`,
        utm_campaign: sql`null::text`,
        landing_page: sql`${'/'}::text`,
      })} as data`,
      z.object({ data: z.record(z.string(), z.unknown()) }),
    );
    expect(row!.data).toEqual({
      lead_id: '0b6c7f0e-4a59-4b8e-9f51-2f3a0c7d1e22',
      full_name: 'Jane Doe',
      email: 'jane@example.com',
      phone: '555-0100',
      property_types: ['Office', 'Retail'],
      message: null,
      source: 'google.com',
      utm_source: null,
      utm_medium: null,
      utm_campaign: null,
      landing_page: '/',
    });
    expect(composeEmail('new-lead', row!.data, ctx).subject).toBe('New lead: Jane Doe');
    expect(composeEmail('lead-acknowledgement', row!.data, ctx).text).toContain('office, retail');
  });
});
