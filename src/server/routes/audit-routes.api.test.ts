import { sql } from 'drizzle-orm';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { AuditPage } from '#shared/schemas/audit';
import { ensureAdmin } from '../auth/accounts.ts';
import { ERASED } from '../audit/lead-audit.ts';
import { deleteExpiredAuditEntries } from '../db/queries/audit-log-queries.ts';
import { execute } from '../db/sql.ts';
import { createTestApp, signIn } from '../test/test-app.ts';
import { rowsOf, useTestDatabase } from '../test/database.ts';

const database = useTestDatabase();
let t: ReturnType<typeof createTestApp>;
let owner: string;
let ownerId: string;

beforeAll(() => {
  t = createTestApp(database);
});
beforeEach(async () => {
  await execute(database.db, sql`truncate users, sessions, leads, appointments, notifications, emails cascade`);
  await execute(database.db, sql`select set_config('crm.audit_maintenance', 'on', false)`);
  await execute(database.db, sql`delete from audit_log`);
  await execute(database.db, sql`select set_config('crm.audit_maintenance', 'off', false)`);
  ownerId = (await ensureAdmin(database.db, 'olive@example.com', 'olive-password', 'owner', 'Olive Owner')).user.id;
  owner = await signIn(t.json, 'olive@example.com', 'olive-password', { 'user-agent': 'Audit Browser' });
});

async function as<T>(method: string, path: string, body?: unknown, cookie = owner) {
  const res = await t.json(method, path, body, { cookie, 'user-agent': 'Audit Browser' });
  const text = await res.text();
  return { status: res.status, body: (text && res.headers.get('content-type')?.includes('json') ? JSON.parse(text) : text) as T };
}
const page = async (query = '') => (await as<AuditPage>('GET', `/api/audit${query}`)).body;
const LEAD = { full_name: 'Jane Doe', email: 'jane@example.com', phone: '301 555 0100', property_types: ['land'] };

describe('the audit log', () => {
  it('records lead and appointment changes with who, the fields changed (old and new), IP and user agent', async () => {
    const lead = (await as<{ id: string }>('POST', '/api/leads', LEAD)).body;
    await as('PATCH', `/api/leads/${lead.id}`, { status: 'Contacted', phone: '301 555 0199' });
    const appointment = (
      await as<{ id: string }>('POST', '/api/appointments', { lead_id: lead.id, date: '2030-03-04', time: '09:30', type: 'Call' })
    ).body;
    await as('PATCH', `/api/appointments/${appointment.id}`, { time: '10:00' });
    await as('DELETE', `/api/appointments/${appointment.id}`);
    await as('DELETE', `/api/leads/${lead.id}`);

    const { entries } = await page('?limit=20');
    const mine = entries.filter((e) => e.action !== 'sign_in');
    expect(mine.map((e) => e.action)).toEqual([
      'lead_deleted',
      'appointment_deleted',
      'appointment_updated',
      'appointment_created',
      'lead_updated',
      'lead_created',
    ]);
    const update = mine.find((e) => e.action === 'lead_updated')!;
    expect(update).toMatchObject({
      actor_email: 'olive@example.com',
      actor_name: 'Olive Owner',
      actor_id: ownerId,
      target_type: 'lead',
      target_id: lead.id,
      user_agent: 'Audit Browser',
      target_exists: false,
    });
    expect(update.details.changes).toEqual({
      status: { from: 'New', to: 'Contacted' },
      // The status alone moves the lead to that status's first stage.
      stage_name: { from: 'New', to: 'Call booked' },
      phone: { from: '301 555 0100', to: '301 555 0199' },
      contacted: { from: false, to: true },
    });
    expect(mine.find((e) => e.action === 'appointment_updated')!.details.changes).toEqual({ time: { from: '09:30', to: '10:00' } });
    // Which lead, even once it is gone.
    expect(mine.find((e) => e.action === 'lead_deleted')!.details).toMatchObject({ name: 'Jane Doe', appointments: 'keep' });
  });

  it('says which lead each entry is about, until the person is erased: then "[erased]", in every entry about them and their merged duplicates', async () => {
    const kept = (await as<{ id: string }>('POST', '/api/leads', LEAD)).body;
    const duplicate = (await as<{ id: string }>('POST', '/api/leads', { ...LEAD, full_name: 'Janet Doe' })).body;
    await as('PATCH', `/api/leads/${duplicate.id}`, { phone: '301 555 0111' });
    expect((await as('POST', `/api/leads/${kept.id}/merge`, { other_id: duplicate.id })).status).toBe(200);
    expect((await as('GET', `/api/leads/${kept.id}/export`)).status).toBe(200);
    const before = (await page()).entries.filter((e) => e.action !== 'sign_in');
    expect(before.map((e) => [e.action, e.details.name])).toEqual([
      ['lead_exported', 'Jane Doe'],
      ['leads_merged', 'Jane Doe'],
      ['lead_updated', 'Janet Doe'],
      ['lead_created', 'Janet Doe'],
      ['lead_created', 'Jane Doe'],
    ]);
    expect(before[1]!.details).toMatchObject({ merged: duplicate.id, merged_name: 'Janet Doe' });

    expect((await as('POST', `/api/leads/${kept.id}/erase`)).status).toBe(200);
    const after = (await page()).entries.filter((e) => e.action !== 'sign_in');
    expect(after.map((e) => [e.action, e.details.name])).toEqual([
      ['lead_erased', ERASED],
      ['lead_exported', ERASED],
      ['leads_merged', ERASED],
      ['lead_updated', ERASED],
      ['lead_created', ERASED],
      ['lead_created', ERASED],
    ]);
    expect(JSON.stringify(after)).not.toMatch(/Jane|Janet|0111/);
  });

  it('records an import with how many leads it added, updated and skipped', async () => {
    const rows = [
      { full_name: 'Ann Import', email: 'ann@example.com', phone: '1', property_type: 'Land' },
      { full_name: 'Bo Import', email: 'bo@example.com', phone: '2', property_type: 'Land' },
    ];
    const imported = await as('POST', '/api/leads/import', {
      rows,
      first_row: 2,
      duplicates: 'skip',
      dry_run: false,
      file_name: 'october.csv',
    });
    expect(imported.status).toBe(200);
    const [entry] = (await page('?action=leads_imported')).entries;
    expect(entry).toMatchObject({
      actor_name: 'Olive Owner',
      details: { file: 'october.csv', total: 2, created: 2, updated: 0, skipped: 0 },
    });
  });

  it('erasing a person keeps that it happened, and removes their values from earlier entries', async () => {
    const lead = (await as<{ id: string }>('POST', '/api/leads', LEAD)).body;
    await as('PATCH', `/api/leads/${lead.id}`, { full_name: 'Jane Q. Doe' });
    expect((await as('POST', `/api/leads/${lead.id}/erase`)).status).toBe(200);
    const { entries } = await page();
    const about = entries.filter((e) => e.target_id === lead.id);
    expect(about.map((e) => e.action)).toEqual(['lead_erased', 'lead_updated', 'lead_created']);
    expect(JSON.stringify(about)).not.toContain('Jane');
    expect(about[1]!.details.changes).toEqual({ full_name: { from: ERASED, to: ERASED } });
  });

  it('filters by person, action and dates, pages by cursor, and exports CSV safe for spreadsheets', async () => {
    for (let i = 0; i < 5; i++) await as('POST', '/api/leads', { ...LEAD, full_name: `=Lead ${i}`, email: `lead${i}@example.com` });
    const first = await page('?action=lead_created&limit=2');
    expect(first.entries).toHaveLength(2);
    const second = await page(`?action=lead_created&limit=2&cursor=${first.next_cursor}`);
    const third = await page(`?action=lead_created&limit=2&cursor=${second.next_cursor}`);
    expect(third.next_cursor).toBeNull();
    expect([...first.entries, ...second.entries, ...third.entries].map((e) => e.details.name)).toEqual([
      '=Lead 4',
      '=Lead 3',
      '=Lead 2',
      '=Lead 1',
      '=Lead 0',
    ]);
    expect((await page(`?actor=${ownerId}&action=lead_created`)).entries).toHaveLength(5);
    expect((await page('?actor=system')).entries).toHaveLength(0);
    expect((await page('?from=2000-01-01&to=2000-12-31')).entries).toHaveLength(0);
    expect((await as('GET', '/api/audit?action=nope')).status).toBe(400);

    const csv = (await as<string>('GET', '/api/audit/export?action=lead_created')).body;
    const lines = csv.trim().split('\r\n');
    expect(lines[0]).toBe('"When (UTC)","Who","Email","Action","Target","Target id","Details","IP","Device","User agent","API key"');
    expect(lines).toHaveLength(6);
    expect(lines[1]).toContain('"Olive Owner","olive@example.com","Created a lead","lead"');
    // The device in words, as on the page (this test's browser is unknown), and the user agent as sent.
    expect(lines[1]).toMatch(/,"Unknown device","Audit Browser",""$/);
    // The name inside the details cell is data, never a formula.
    expect(lines.every((l) => !l.includes(',"=Lead'))).toBe(true);
  });

  it('cannot be changed or deleted through SQL, except by the retention job', async () => {
    await as('POST', '/api/leads', LEAD);
    await expect(execute(database.db, sql`update audit_log set action = 'sign_in'`)).rejects.toThrow();
    await expect(execute(database.db, sql`delete from audit_log`)).rejects.toThrow();
    await execute(database.db, sql`insert into audit_log (at, action) values (now() - interval '800 days', 'backup')`);
    expect(await deleteExpiredAuditEntries(database.db, 730)).toBe(1);
    expect((await rowsOf<{ n: number }>(database.db, sql`select count(*)::int as n from audit_log`))[0]!.n).toBeGreaterThan(0);
  });

  it('names who did it, by their name now, and by their name then once the account is removed', async () => {
    const samId = (await ensureAdmin(database.db, 'sam@example.com', 'sam-password', 'staff', 'Sam Staff')).user.id;
    const sam = await signIn(t.json, 'sam@example.com', 'sam-password');
    await as('POST', '/api/leads', LEAD, sam);
    await as('PUT', '/api/account/profile', { display_name: 'Samuel Staff' }, sam);
    const renamed = (await page('?action=lead_created')).entries[0]!;
    expect(renamed).toMatchObject({ actor_id: samId, actor_email: 'sam@example.com', actor_name: 'Samuel Staff' });

    expect((await as('DELETE', `/api/team/members/${samId}`)).status).toBe(200);
    const removed = (await page('?action=lead_created')).entries[0]!;
    expect(removed).toMatchObject({ actor_id: null, actor_email: 'sam@example.com', actor_name: 'Sam Staff' });
    // The removal itself names them too.
    expect((await page('?action=account_removed')).entries[0]!.details).toEqual({
      email: 'sam@example.com',
      name: 'Samuel Staff',
      role: 'staff',
    });
  });

  it('is for owners only', async () => {
    await ensureAdmin(database.db, 'sam@example.com', 'sam-password', 'staff');
    const staff = await signIn(t.json, 'sam@example.com', 'sam-password');
    expect((await as('GET', '/api/audit', undefined, staff)).status).toBe(403);
    expect((await as('GET', '/api/audit/export', undefined, staff)).status).toBe(403);
  });
});
