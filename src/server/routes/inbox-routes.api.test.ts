import { sql } from 'drizzle-orm';
import { beforeEach, describe, expect, it } from 'vitest';
import type { InboxResponse } from '#shared/schemas/inbox';
import type { TimelineEntry } from '#shared/schemas/lead-workspace';
import { ensureAdmin } from '../auth/accounts.ts';
import { deleteDismissedInbox } from '../db/queries/inbound-emails-queries.ts';
import { execute } from '../db/sql.ts';
import { createTestApp, signIn, validLead } from '../test/test-app.ts';
import { rowsOf, useTestDatabase } from '../test/database.ts';

/**
 * The Inbox: mail that joined no lead waits there until staff put it on a lead's page, make a
 * lead of it (source "Email", nobody emailed), or dismiss it (deleted after 30 days).
 */
const database = useTestDatabase();
let t: ReturnType<typeof createTestApp>;
let cookie: string;
let uid = 0;

async function arrived(subject: string, from = 'newcomer@example.org'): Promise<string> {
  const [row] = await rowsOf<{ id: string }>(
    database.db,
    sql`insert into inbound_emails (mailbox, uidvalidity, uid, from_address, from_name, to_addresses, subject, body)
        values ('test', 1, ${++uid}, ${from}, 'Nora Newcomer', 'hello@keystone.test', ${subject}, 'I have a duplex to check.')
        returning id`,
  );
  await execute(
    database.db,
    sql`insert into inbound_attachments (email_id, filename, content_type, size, content) values (${row!.id}, 'plan.pdf', 'application/pdf', 3, '\\x010203')`,
  );
  return row!.id;
}
const inbox = async (view = 'open') =>
  (await (await t.json('GET', `/api/inbox?view=${view}`, undefined, { cookie })).json()) as InboxResponse;
const post = (path: string, body?: unknown) => t.json('POST', path, body, { cookie });

beforeEach(async () => {
  await execute(database.db, sql`truncate users, sessions, leads, notifications, emails, inbound_emails, audit_log cascade`);
  t = createTestApp(database, { SMTP_URL: 'smtp://127.0.0.1:9' });
  await ensureAdmin(database.db, 'sam@keystone.test', 'sam-password', 'staff', 'Sam Staff');
  cookie = await signIn(t.json, 'sam@keystone.test', 'sam-password');
});

describe('/api/inbox', () => {
  it('lists what joined no lead, newest first, with its files; staff put one on a lead’s page, where it shows read', async () => {
    const older = await arrived('Older');
    const newer = await arrived('Newer');
    const list = await inbox();
    expect(list.open).toBe(2);
    expect(list.messages.map((m) => m.subject)).toEqual(['Newer', 'Older']);
    expect(list.messages[0]).toMatchObject({
      from: 'newcomer@example.org',
      from_name: 'Nora Newcomer',
      attachments: [{ filename: 'plan.pdf', size: 3 }],
    });

    const lead = ((await (await post('/api/leads', validLead())).json()) as { id: string }).id;
    expect((await post(`/api/inbox/${older}/attach`, { lead_id: '00000000-0000-4000-8000-000000000000' })).status).toBe(400);
    expect((await post(`/api/inbox/${older}/attach`, { lead_id: lead })).status).toBe(200);
    expect((await post(`/api/inbox/${older}/attach`, { lead_id: lead })).status).toBe(409);
    expect((await inbox()).messages.map((m) => m.id)).toEqual([newer]);
    const { entries } = (await (await t.json('GET', `/api/leads/${lead}/timeline`, undefined, { cookie })).json()) as {
      entries: TimelineEntry[];
    };
    expect(entries.find((e) => e.kind === 'email_in')).toMatchObject({ subject: 'Older', unread: false, sender_verified: true });
  });

  it('makes a lead of a message (source Email, nobody emailed), once however many people try', async () => {
    const id = await arrived('Inspection for a duplex');
    const fields = { full_name: 'Nora Newcomer', email: 'newcomer@example.org', phone: '(202) 555-0133', property_types: ['multifamily'] };
    const [first, second] = await Promise.all([post(`/api/inbox/${id}/lead`, fields), post(`/api/inbox/${id}/lead`, fields)]);
    expect([first.status, second.status].sort()).toEqual([201, 409]);
    const made = (await (first.status === 201 ? first : second).json()) as { id: string; source: string | null };
    const leads = await rowsOf<{ id: string; source: string | null }>(database.db, sql`select id, source from leads`);
    expect(leads).toEqual([{ id: made.id, source: 'Email' }]);
    expect(await rowsOf(database.db, sql`select 1 from emails where kind = 'lead-acknowledgement'`)).toHaveLength(0);
    expect(await rowsOf(database.db, sql`select 1 from inbound_emails where lead_id = ${made.id}`)).toHaveLength(1);
    expect((await inbox()).open).toBe(0);
    // Invalid lead fields: refused, the message stays in the Inbox.
    const other = await arrived('Another');
    expect((await post(`/api/inbox/${other}/lead`, { ...fields, phone: '' })).status).toBe(400);
    expect((await inbox()).messages.map((m) => m.id)).toEqual([other]);
  });

  it('dismisses and restores; dismissed mail and its files are deleted after 30 days', async () => {
    const id = await arrived('Spam');
    expect((await post(`/api/inbox/${id}/dismiss`)).status).toBe(200);
    expect((await inbox()).open).toBe(0);
    expect((await inbox('dismissed')).messages.map((m) => m.id)).toEqual([id]);
    expect((await post(`/api/inbox/${id}/restore`)).status).toBe(200);
    expect((await inbox()).messages.map((m) => m.id)).toEqual([id]);
    await post(`/api/inbox/${id}/dismiss`);
    expect(await deleteDismissedInbox(database.db)).toBe(0);
    await execute(database.db, sql`update inbound_emails set dismissed_at = now() - interval '31 days' where id = ${id}`);
    expect(await deleteDismissedInbox(database.db)).toBe(1);
    expect(await rowsOf(database.db, sql`select 1 from inbound_attachments`)).toHaveLength(0);
    expect((await post(`/api/inbox/${id}/restore`)).status).toBe(404);
  });
});
