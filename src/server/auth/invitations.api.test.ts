import { sql } from 'drizzle-orm';
import { beforeEach, describe, expect, it } from 'vitest';
import { INVITE_NOT_VALID } from '../db/queries/team-queries.ts';
import { findPasswordHash } from '../db/queries/users-queries.ts';
import { execute } from '../db/sql.ts';
import { createTestApp } from '../test/test-app.ts';
import { rowsOf, useTestDatabase } from '../test/database.ts';
import { refusalOf } from '../test/refusal.ts';
import { ensureAdmin } from './accounts.ts';
import { acceptInvitation, inviteMember } from './invitations.ts';
import { verifyPassword } from './password.ts';

const database = useTestDatabase();
const actor = { id: null, email: null, ip: '203.0.113.9', userAgent: 'test' };
let owner: { id: string; email: string };
beforeEach(async () => {
  await execute(database.db, sql`truncate users, account_tokens, emails, audit_log cascade`);
  owner = (await ensureAdmin(database.db, 'olive@example.com', 'olive-password')).user;
});
const config = (env: Record<string, string> = {}) => createTestApp(database, { PUBLIC_URL: 'https://crm.example.com', ...env }).config;

describe('inviteMember', () => {
  it('makes a single-use link under PUBLIC_URL, stored only as its hash, and says whether it was emailed', async () => {
    const invited = await inviteMember(database.db, config(), { email: 'sam@example.com', role: 'staff' }, { ...actor, ...owner });
    expect(invited.link).toMatch(/^https:\/\/crm\.example\.com\/invite\/[A-Za-z0-9_-]{43}$/);
    expect(invited.emailed).toBe(false);
    expect(invited.invite).toMatchObject({ email: 'sam@example.com', role: 'staff' });
    const token = invited.link.split('/').at(-1)!;
    expect(JSON.stringify(await rowsOf(database.db, sql`select * from account_tokens`))).not.toContain(token);
    const withMail = await inviteMember(
      database.db,
      config({ SMTP_URL: 'smtp://127.0.0.1:9' }),
      { email: 'tess@example.com', role: 'owner' },
      { ...actor, ...owner },
    );
    expect(withMail.emailed).toBe(true);
  });

  it('refuses someone already on the team (409)', async () => {
    expect(
      await refusalOf(inviteMember(database.db, config(), { email: 'olive@example.com', role: 'staff' }, { ...actor, ...owner })),
    ).toMatchObject({
      status: 409,
    });
  });
});

describe('acceptInvitation', () => {
  it('makes the account with the invited role, its name and password, once', async () => {
    const { link } = await inviteMember(database.db, config(), { email: 'sam@example.com', role: 'staff' }, { ...actor, ...owner });
    const token = link.split('/').at(-1)!;
    const user = await acceptInvitation(database.db, { token, displayName: 'Sam Staff', password: 'sam-password-1' }, actor);
    expect(user).toMatchObject({ email: 'sam@example.com', display_name: 'Sam Staff', role: 'staff' });
    const stored = await findPasswordHash(database.db, 'sam@example.com');
    expect(await verifyPassword(stored!.password_hash, 'sam-password-1')).toBe(true);
    expect(
      await refusalOf(acceptInvitation(database.db, { token, displayName: 'Again', password: 'sam-password-2' }, actor)),
    ).toMatchObject({
      status: 404,
      message: INVITE_NOT_VALID,
    });
  });

  it('answers a made-up token 404', async () => {
    expect(
      await refusalOf(acceptInvitation(database.db, { token: 'A'.repeat(43), displayName: 'X', password: 'whatever-123' }, actor)),
    ).toMatchObject({ status: 404, message: INVITE_NOT_VALID });
  });
});
