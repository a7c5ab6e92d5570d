import { sql } from 'drizzle-orm';
import fc from 'fast-check';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Lead, LeadDetail, LeadListResponse } from '#shared/schemas/lead';
import type { LeadImportResult, LeadImportRow } from '#shared/schemas/lead-import';
import type { ErrorResponse } from '#shared/schemas/error';
import { ensureAdmin } from '../auth/accounts.ts';
import { execute } from '../db/sql.ts';
import { createTestApp, signIn, validLead } from '../test/test-app.ts';
import { rowsOf, useTestDatabase } from '../test/database.ts';
import { hostileString } from '../test/hostile.ts';
import { leadFieldsSchema, leadStatusSchema } from '#shared/schemas/lead';

const database = useTestDatabase();
let t: ReturnType<typeof createTestApp>;
let cookie: string;
let adminId: string;
beforeAll(() => {
  t = createTestApp(database, { BUSINESS_TIME_ZONE: 'America/New_York' });
});
beforeEach(async () => {
  await execute(database.db, sql`truncate users, sessions, leads, appointments, notifications, emails, rate_limits cascade`);
  adminId = (await ensureAdmin(database.db, 'staff@example.com', 'staff-password', 'owner', 'Stella Staff')).user.id;
  await ensureAdmin(database.db, 'other@example.com', 'other-password');
  cookie = await signIn(t.json, 'staff@example.com', 'staff-password');
});

const row = (n: number, fields: Partial<LeadImportRow> = {}): LeadImportRow => ({
  full_name: `Person ${n}`,
  email: `person${n}@example.com`,
  phone: `(301) 555-${String(n).padStart(4, '0')}`,
  property_type: 'Single Family',
  ...fields,
});
type Body = { rows: LeadImportRow[]; duplicates?: 'skip' | 'update'; dry_run?: boolean; file_name?: string; first_row?: number };
const post = async <T = LeadImportResult>(body: Body, headers: Record<string, string> = { cookie }) => {
  const res = await t.json('POST', '/api/leads/import', { duplicates: 'skip', dry_run: false, ...body }, headers);
  return { status: res.status, body: (await res.json()) as T };
};
const count = async (table: string) =>
  Number((await rowsOf<{ n: number }>(database.db, sql`select count(*)::int as n from ${sql.identifier(table)}`))[0]!.n);
const leads = async () => (await (await t.json('GET', '/api/leads?page_size=100', undefined, { cookie })).json()) as LeadListResponse;
const byEmail = async (email: string) => (await leads()).leads.find((l) => l.email === email)!;

describe('POST /api/leads/import', () => {
  it('needs a session', async () => {
    expect((await post({ rows: [row(1)] }, {})).status).toBe(401);
    expect(await count('leads')).toBe(0);
  });

  it('maps the labels people write and stores each field, with its status history and an imported entry, and no notification or email', async () => {
    const res = await post({
      file_name: 'october.csv',
      rows: [
        row(1, {
          full_name: '  Ada Lovelace ',
          email: 'ADA@Example.com',
          property_type: 'single-family',
          status: 'converted',
          message: 'Duplex',
          property_address: '1 Main St, Frederick, MD',
          target_closing_date: '12/31/2026',
          estimated_fee: '$12,500.00',
          created_at: '2025-03-04',
        }),
        row(2, { property_type: 'MULTIFAMILY', estimated_fee: 950.5, created_at: '2025-03-05T14:30:00.000Z' }),
        row(3, { property_type: 'Multi-family', status: '', target_closing_date: '2027-1-5' }),
        row(4, { property_type: 'land' }),
        row(5, { property_type: ' Other ' }),
        row(6, { property_type: 'Commercial', status: 'DROPPED' }),
      ],
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      dry_run: false,
      total: 6,
      created: 6,
      updated: 0,
      skipped: 0,
      error_rows: 0,
      errors: [],
      duplicate_rows: [],
    });
    const ada = await byEmail('ada@example.com');
    expect(ada).toMatchObject({
      full_name: 'Ada Lovelace',
      property_types: ['single-family'],
      status: 'Converted',
      contacted: true,
      message: 'Duplex',
      property_address: '1 Main St, Frederick, MD',
      target_closing_date: '2026-12-31',
      estimated_fee_cents: 1_250_000,
      // Midnight in New York.
      created_at: '2025-03-04T05:00:00.000Z',
      from_form: false,
    });
    expect(await byEmail('person2@example.com')).toMatchObject({
      property_types: ['multifamily'],
      estimated_fee_cents: 95_050,
      created_at: '2025-03-05T14:30:00.000Z',
      status: 'New',
    });
    expect(await byEmail('person3@example.com')).toMatchObject({
      property_types: ['multifamily'],
      target_closing_date: '2027-01-05',
      message: null,
      estimated_fee_cents: null,
    });
    expect((await byEmail('person6@example.com')).status).toBe('Dropped');
    const detail = (await (await t.json('GET', `/api/leads/${ada.id}`, undefined, { cookie })).json()) as LeadDetail;
    expect(detail.status_history).toEqual([
      { from_status: null, to_status: 'Converted', changed_by: 'Stella Staff', changed_at: expect.any(String) },
    ]);
    const events = await rowsOf<{ kind: string; actor_id: string; data: unknown }>(
      database.db,
      sql`select kind, actor_id, data from lead_events where lead_id = ${ada.id}`,
    );
    expect(events).toEqual([{ kind: 'imported', actor_id: adminId, data: { file: 'october.csv' } }]);
    expect(await count('lead_events')).toBe(6);
    expect(await count('lead_status_changes')).toBe(6);
    expect(await count('notifications')).toBe(0);
    expect(await count('emails')).toBe(0);
  });

  it('answers every row error with its row number and field, and stores nothing', async () => {
    const res = await post<ErrorResponse>({
      first_row: 2,
      rows: [
        row(1),
        row(2, { full_name: ' ', email: 'not-an-email', property_type: 'Condo' }),
        row(3, { phone: '', status: 'Hot', estimated_fee: '12,50', target_closing_date: '31/12/2026' }),
        row(4, { created_at: '2199-01-01', estimated_fee: '-$5', message: 'x'.repeat(5001) }),
        row(5, { property_type: undefined, property_address: 'y'.repeat(501), email: 'a\u0000@example.com' }),
      ],
    });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('validation_failed');
    expect(res.body.error.message).toBe('4 rows have errors. Nothing was imported.');
    expect(res.body.error.import_report).toMatchObject({ total: 5, created: 1, error_rows: 4, dry_run: true });
    expect(res.body.error.import_report!.errors).toEqual([
      { row: 3, field: 'full_name', message: 'Name is required' },
      { row: 3, field: 'email', message: 'Invalid email address' },
      { row: 3, field: 'property_type', message: 'Unknown property type: use Single family, Multifamily, Commercial, Land or Other.' },
      { row: 4, field: 'phone', message: 'Phone number is required' },
      { row: 4, field: 'status', message: 'Unknown status: use New, Contacted, Converted or Dropped.' },
      { row: 4, field: 'target_closing_date', message: 'Use a date like 2026-12-31 or 12/31/2026.' },
      { row: 4, field: 'estimated_fee', message: 'Estimated fee must be an amount in dollars' },
      { row: 5, field: 'message', message: 'Message must be at most 5000 characters' },
      { row: 5, field: 'estimated_fee', message: 'Estimated fee cannot be negative' },
      { row: 5, field: 'created_at', message: 'Created date cannot be in the future.' },
      { row: 6, field: 'email', message: 'Contains a character that is not allowed' },
      { row: 6, field: 'property_type', message: 'Property type is required' },
      { row: 6, field: 'property_address', message: 'Property address must be at most 500 characters' },
    ]);
    expect(await count('leads')).toBe(0);
  });

  it('a dry run answers the report and stores nothing', async () => {
    await post({ rows: [row(1)] });
    const res = await post({ dry_run: true, rows: [row(1), row(2), row(3, { email: 'bad' })], duplicates: 'update' });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      dry_run: true,
      total: 3,
      created: 1,
      updated: 1,
      skipped: 0,
      error_rows: 1,
      errors: [{ row: 3, field: 'email', message: 'Invalid email address' }],
      duplicate_rows: [1],
    });
    expect(await count('leads')).toBe(1);
  });

  it('an email twice in the file is an error on the later row', async () => {
    const res = await post<ErrorResponse>({ first_row: 2, rows: [row(1), row(2), row(3, { email: 'PERSON1@example.com ' })] });
    expect(res.status).toBe(400);
    expect(res.body.error.import_report!.errors).toEqual([{ row: 4, field: 'email', message: 'Same email as row 2.' }]);
    expect(await count('leads')).toBe(0);
  });

  it('skips a row whose email is already a lead, changing nothing', async () => {
    await post({ rows: [row(1, { full_name: 'Original Name', status: 'Contacted' })] });
    const before = await byEmail('person1@example.com');
    const res = await post({ rows: [row(1, { full_name: 'New Name', status: 'Dropped' }), row(2)], duplicates: 'skip' });
    expect(res.body).toMatchObject({ created: 1, updated: 0, skipped: 1, duplicate_rows: [1] });
    expect(await byEmail('person1@example.com')).toEqual(before);
    expect(await count('leads')).toBe(2);
  });

  it('updates a duplicate with only the fields the row gives, recording a new status by this admin', async () => {
    await post({ rows: [row(1, { status: 'Contacted', message: 'Old note', property_address: '1 Main St', estimated_fee: '100' })] });
    const res = await post({
      rows: [
        row(1, {
          full_name: 'Renamed Person',
          email: 'Person1@EXAMPLE.com',
          property_type: 'Land',
          status: 'Converted',
          message: '',
          property_address: ' ',
          estimated_fee: '$250',
        }),
      ],
      duplicates: 'update',
    });
    expect(res.body).toMatchObject({ created: 0, updated: 1, skipped: 0 });
    const lead = await byEmail('person1@example.com');
    expect(lead).toMatchObject({
      full_name: 'Renamed Person',
      property_types: ['land'],
      status: 'Converted',
      message: 'Old note',
      property_address: '1 Main St',
      estimated_fee_cents: 25_000,
    });
    const detail = (await (await t.json('GET', `/api/leads/${lead.id}`, undefined, { cookie })).json()) as LeadDetail;
    expect(detail.status_history.map((h) => [h.from_status, h.to_status, h.changed_by])).toEqual([
      [null, 'Contacted', 'Stella Staff'],
      ['Contacted', 'Converted', 'Stella Staff'],
    ]);
    // Still one imported entry: the update is not a new lead.
    expect(await count('lead_events')).toBe(1);
    expect(await count('leads')).toBe(1);
  });

  it('refuses to change the message of a lead who wrote through the public form', async () => {
    expect((await t.json('POST', '/api/public/leads', validLead({ email: 'person1@example.com', message: 'Their words' }))).status).toBe(
      201,
    );
    const notifications = await count('notifications');
    const res = await post<ErrorResponse>({ rows: [row(1, { message: 'Our words' })], duplicates: 'update' });
    expect(res.status).toBe(400);
    expect(res.body.error.import_report!.errors).toEqual([
      { row: 1, field: 'message', message: 'The customer’s message cannot be changed: add a note instead.' },
    ]);
    // The same message, or none, is fine.
    expect((await post({ rows: [row(1, { message: 'Their words', full_name: 'Jane Q' })], duplicates: 'update' })).body.updated).toBe(1);
    expect((await byEmail('person1@example.com')).message).toBe('Their words');
    expect(await count('notifications')).toBe(notifications);
  });

  it('refuses more than 10,000 rows, and a body without rows', async () => {
    const tooMany = await post<ErrorResponse>({ rows: Array.from({ length: 10_001 }, (_, i) => row(i)) });
    expect(tooMany.status).toBe(400);
    expect(tooMany.body.error.fields).toEqual({ rows: 'At most 10,000 leads can be imported at once.' });
    expect((await post<ErrorResponse>({ rows: [] })).body.error.fields).toEqual({ rows: 'The file has no leads.' });
  });

  it('accepts a body past the API-wide 64 KB limit, and refuses one past 8 MB', async () => {
    const big = Array.from({ length: 300 }, (_, i) => row(i, { message: 'm'.repeat(400) }));
    expect(JSON.stringify(big).length).toBeGreaterThan(64 * 1024);
    expect((await post({ rows: big })).body.created).toBe(300);
    const huge = await post<ErrorResponse>({ rows: Array.from({ length: 1800 }, (_, i) => row(i, { message: 'm'.repeat(4900) })) });
    expect(huge.status).toBe(413);
    expect(huge.body.error.message).toBe('The import must be at most 8 MB. Split the file and import each part.');
    // Other routes keep the 64 KB limit.
    const other = await t.json('POST', '/api/leads', { ...row(1), message: 'm'.repeat(70_000) }, { cookie });
    expect(other.status).toBe(413);
  });

  it('imports 10,000 rows at once, and with one bad row at the end stores none of them', async () => {
    const rows = Array.from({ length: 10_000 }, (_, i) =>
      row(i, { estimated_fee: `$${(i * 1000).toLocaleString('en-US')}.00`, status: ['New', 'Contacted', 'Converted', 'Dropped'][i % 4] }),
    );
    const bad = await post<ErrorResponse>({ rows: [...rows.slice(0, 9_999), row(99_999, { email: 'nope' })] });
    expect(bad.status).toBe(400);
    expect(bad.body.error.import_report).toMatchObject({
      error_rows: 1,
      errors: [{ row: 10_000, field: 'email', message: 'Invalid email address' }],
    });
    expect(await count('leads')).toBe(0);
    expect(await count('lead_events')).toBe(0);
    expect(await count('lead_status_changes')).toBe(0);

    const res = await post({ rows });
    expect(res.body).toMatchObject({ created: 10_000, error_rows: 0 });
    expect(await count('leads')).toBe(10_000);
    expect(await count('lead_events')).toBe(10_000);
    expect(await count('lead_status_changes')).toBe(10_000);
    expect(await count('notifications')).toBe(0);
    expect(await count('emails')).toBe(0);
    const converted = await rowsOf<{ n: number }>(database.db, sql`select count(*)::int as n from leads where status = 'Converted'`);
    expect(converted[0]!.n).toBe(2_500);
  }, 60_000);

  it('answers a lead list with the imported leads, newest created first', async () => {
    await post({ rows: [row(1, { created_at: '2024-01-01' }), row(2, { created_at: '2025-01-01' })] });
    expect((await leads()).leads.map((l: Lead) => l.email)).toEqual(['person2@example.com', 'person1@example.com']);
  });

  it('never answers 5xx to hostile cells, and stores only rows the lead rules accept', async () => {
    const stored = leadFieldsSchema.extend({ status: leadStatusSchema });
    const cellText = fc.oneof(hostileString, fc.constantFrom('Single Family', 'land', 'Converted', '$1,000', '2025-01-01', '1/2/2025'));
    const hostileRow = fc.record(
      {
        full_name: cellText,
        email: fc.oneof(cellText, fc.emailAddress()),
        phone: cellText,
        property_type: cellText,
        status: cellText,
        message: cellText,
        property_address: cellText,
        target_closing_date: cellText,
        estimated_fee: fc.oneof(cellText, fc.double()),
        created_at: cellText,
      },
      { requiredKeys: [] },
    );
    await fc.assert(
      fc.asyncProperty(
        fc.array(hostileRow, { minLength: 1, maxLength: 5 }),
        fc.boolean(),
        fc.constantFrom('skip' as const, 'update' as const),
        async (rows, dryRun, duplicates) => {
          const res = await t.json('POST', '/api/leads/import', { rows, duplicates, dry_run: dryRun }, { cookie });
          expect(res.status).toBeLessThan(500);
          await res.text();
          const all = await rowsOf<Record<string, unknown>>(
            database.db,
            sql`select full_name, email, phone, property_types, message, status from leads`,
          );
          for (const lead of all) expect(stored.parse(lead)).toEqual(lead);
        },
      ),
      { numRuns: 60 },
    );
    expect(await count('notifications')).toBe(0);
  }, 120_000);
});
