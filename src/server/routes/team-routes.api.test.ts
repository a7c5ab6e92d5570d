import { sql } from 'drizzle-orm';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Team, TeamMember, InviteCreated } from '#shared/schemas/team';
import { ensureAdmin } from '../auth/accounts.ts';
import { NEEDS_AN_OWNER, NOT_YOURSELF } from '../db/queries/team-queries.ts';
import { execute } from '../db/sql.ts';
import { createTestApp, signIn } from '../test/test-app.ts';
import { rowsOf, useTestDatabase } from '../test/database.ts';

const database = useTestDatabase();
let t: ReturnType<typeof createTestApp>;
let owner: string;
let ownerId: string;

beforeAll(() => {
  // A mail server is named (the outbox is not started: messages stay queued for the test to read).
  t = createTestApp(database, { PUBLIC_URL: 'https://crm.example.com', SMTP_URL: 'smtp://127.0.0.1:2525' });
});
beforeEach(async () => {
  await execute(database.db, sql`truncate users, sessions, leads, notifications, emails, account_tokens cascade`);
  ownerId = (await ensureAdmin(database.db, 'olive@example.com', 'olive-password', 'owner', 'Olive Owner')).user.id;
  owner = await signIn(t.json, 'olive@example.com', 'olive-password');
});

async function as<T>(cookie: string | undefined, method: string, path: string, body?: unknown) {
  const res = await t.json(method, path, body, { cookie });
  const text = await res.text();
  return { status: res.status, body: (text ? JSON.parse(text) : undefined) as T, res };
}
const errorOf = (body: unknown) => (body as { error: { message: string } }).error.message;

/** Invites `email` as `role` and accepts with `password`; the new account's cookie and id. */
async function join(email: string, role: 'owner' | 'staff', password = 'new-member-password') {
  const invited = await as<InviteCreated>(owner, 'POST', '/api/team/invites', { email, role });
  expect(invited.status).toBe(201);
  const token = invited.body.link.split('/invite/')[1]!;
  const accepted = await as<{ user: { id: string } }>(undefined, 'POST', '/api/auth/invites/accept', {
    token,
    display_name: 'New Member',
    password,
    confirm: password,
  });
  expect(accepted.status).toBe(201);
  return { cookie: accepted.res.headers.get('set-cookie')!.split(';')[0]!, id: accepted.body.user.id, token };
}

describe('invitations', () => {
  it('makes a single-use link, stored hashed, emailed with its link, that creates the account signed in with its role', async () => {
    const invited = await as<InviteCreated>(owner, 'POST', '/api/team/invites', { email: ' Sam@Example.com ', role: 'staff' });
    expect(invited.status).toBe(201);
    expect(invited.body.link).toMatch(/^https:\/\/crm\.example\.com\/invite\/[A-Za-z0-9_-]{43}$/);
    // Who invited: by name on the team page; by name and address in the email.
    expect(invited.body.invite).toMatchObject({ email: 'sam@example.com', role: 'staff', invited_by: 'Olive Owner' });
    const token = invited.body.link.split('/invite/')[1]!;
    const stored = await rowsOf<{ token_hash: string; hours: number }>(
      database.db,
      sql`select token_hash, round(extract(epoch from expires_at - created_at) / 3600)::int as hours from account_tokens`,
    );
    expect(stored).toHaveLength(1);
    expect(stored[0]!.token_hash).not.toContain(token);
    expect(stored[0]!.hours).toBe(72);
    const [mail] = await rowsOf<{ kind: string; to_address: string; link: string; invited_by: string }>(
      database.db,
      sql`select kind, to_address, data->>'link' as link, data->>'invited_by' as invited_by from emails`,
    );
    expect(mail).toEqual({
      kind: 'invite',
      to_address: 'sam@example.com',
      link: invited.body.link,
      invited_by: 'Olive Owner (olive@example.com)',
    });
    expect(invited.body.emailed).toBe(true);

    expect((await as(undefined, 'GET', `/api/auth/invites/${token}`)).body).toMatchObject({ email: 'sam@example.com', role: 'staff' });
    const mismatch = await as(undefined, 'POST', '/api/auth/invites/accept', {
      token,
      display_name: 'Sam Staff',
      password: 'sam-password-1',
      confirm: 'sam-password-2',
    });
    expect(mismatch.status).toBe(400);
    // A name is asked for, with the account page's rules.
    for (const [display_name, message] of [
      [undefined, 'Name is required'],
      ['   ', 'Name is required'],
      ['x'.repeat(81), 'Name must be at most 80 characters'],
    ] as const) {
      const nameless = await as<{ error: { fields: Record<string, string> } }>(undefined, 'POST', '/api/auth/invites/accept', {
        token,
        display_name,
        password: 'sam-password-1',
        confirm: 'sam-password-1',
      });
      expect(nameless.status).toBe(400);
      expect(nameless.body.error.fields).toEqual({ display_name: message });
    }
    const accepted = await as<{ user: { email: string; role: string } }>(undefined, 'POST', '/api/auth/invites/accept', {
      token,
      display_name: ' Sam Staff ',
      password: 'sam-password-1',
      confirm: 'sam-password-1',
    });
    expect(accepted.status).toBe(201);
    expect(accepted.body.user).toEqual({
      id: expect.any(String),
      email: 'sam@example.com',
      display_name: 'Sam Staff',
      phone: null,
      role: 'staff',
    });
    const cookie = accepted.res.headers.get('set-cookie')!.split(';')[0]!;
    expect((await as<{ user: { role: string } }>(cookie, 'GET', '/api/auth/session')).body.user).toMatchObject({
      display_name: 'Sam Staff',
      phone: null,
      role: 'staff',
    });
    // The team page names everyone, with their email and phone.
    const members = (await as<Team>(owner, 'GET', '/api/team')).body.members;
    expect(members.map((m) => [m.display_name, m.email, m.phone])).toEqual([
      ['Olive Owner', 'olive@example.com', null],
      ['Sam Staff', 'sam@example.com', null],
    ]);
    // Used: the link works no more, and the password works at sign-in.
    expect((await as(undefined, 'GET', `/api/auth/invites/${token}`)).status).toBe(404);
    expect(
      (
        await as(undefined, 'POST', '/api/auth/invites/accept', {
          token,
          display_name: 'Other',
          password: 'other-password',
          confirm: 'other-password',
        })
      ).status,
    ).toBe(404);
    await signIn(t.json, 'sam@example.com', 'sam-password-1');
  });

  it('with email off, returns the link to copy and never stores it', async () => {
    const off = createTestApp(database, { PUBLIC_URL: 'https://crm.example.com' });
    const res = await off.json('POST', '/api/team/invites', { email: 'sam@example.com', role: 'staff' }, { cookie: owner });
    const body = (await res.json()) as InviteCreated;
    expect(body.emailed).toBe(false);
    expect(body.link).toMatch(/\/invite\//);
    const [mail] = await rowsOf<{ status: string; has_link: boolean }>(
      database.db,
      sql`select status, data ? 'link' as has_link from emails`,
    );
    expect(mail).toEqual({ status: 'not_sent', has_link: false });
  });

  it('refuses someone already on the team, replaces a pending invitation, and withdraws one', async () => {
    expect((await as(owner, 'POST', '/api/team/invites', { email: 'olive@example.com', role: 'staff' })).status).toBe(409);
    const first = await as<InviteCreated>(owner, 'POST', '/api/team/invites', { email: 'kim@example.com', role: 'staff' });
    const second = await as<InviteCreated>(owner, 'POST', '/api/team/invites', { email: 'kim@example.com', role: 'owner' });
    const firstToken = first.body.link.split('/invite/')[1]!;
    expect((await as(undefined, 'GET', `/api/auth/invites/${firstToken}`)).status).toBe(404);
    const team = await as<Team>(owner, 'GET', '/api/team');
    expect(team.body.invites.map((i) => [i.email, i.role])).toEqual([['kim@example.com', 'owner']]);
    expect((await as(owner, 'DELETE', `/api/team/invites/${second.body.invite.id}`)).status).toBe(200);
    expect((await as(owner, 'DELETE', `/api/team/invites/${second.body.invite.id}`)).status).toBe(404);
    expect((await as<Team>(owner, 'GET', '/api/team')).body.invites).toEqual([]);
    expect((await as(undefined, 'GET', `/api/auth/invites/${second.body.link.split('/invite/')[1]}`)).status).toBe(404);
  });

  it('expires after 72 hours', async () => {
    const invited = await as<InviteCreated>(owner, 'POST', '/api/team/invites', { email: 'late@example.com', role: 'staff' });
    await execute(database.db, sql`update account_tokens set expires_at = now() - interval '1 second'`);
    const token = invited.body.link.split('/invite/')[1]!;
    const res = await as(undefined, 'POST', '/api/auth/invites/accept', {
      token,
      display_name: 'Late',
      password: 'late-password',
      confirm: 'late-password',
    });
    expect(res.status).toBe(404);
    expect(errorOf(res.body)).toMatch(/not valid any more/);
  });

  it('two accepts of one link at once make one account', async () => {
    const invited = await as<InviteCreated>(owner, 'POST', '/api/team/invites', { email: 'twice@example.com', role: 'staff' });
    const token = invited.body.link.split('/invite/')[1]!;
    const results = await Promise.all(
      [1, 2].map((n) =>
        as(undefined, 'POST', '/api/auth/invites/accept', {
          token,
          display_name: `Twice ${n}`,
          password: `password-${n}x`,
          confirm: `password-${n}x`,
        }),
      ),
    );
    expect(results.map((r) => r.status).sort()).toEqual([201, 404]);
    expect(await rowsOf(database.db, sql`select id from users where email = 'twice@example.com'`)).toHaveLength(1);
  });
});

describe('roles, deactivation and removal', () => {
  it('changes roles but always keeps an active owner', async () => {
    const sam = await join('sam@example.com', 'staff');
    const promoted = await as<TeamMember>(owner, 'PATCH', `/api/team/members/${sam.id}`, { role: 'owner' });
    expect(promoted.body.role).toBe('owner');
    // Olive steps down: Sam is an owner now.
    expect((await as<TeamMember>(owner, 'PATCH', `/api/team/members/${ownerId}`, { role: 'staff' })).body.role).toBe('staff');
    // Olive is staff: the team page is closed to her.
    expect((await as(owner, 'GET', '/api/team')).status).toBe(403);
    const last = await as(sam.cookie, 'PATCH', `/api/team/members/${sam.id}`, { role: 'staff' });
    expect(last.status).toBe(409);
    expect(errorOf(last.body)).toBe(NEEDS_AN_OWNER);
    expect((await as(sam.cookie, 'PATCH', `/api/team/members/00000000-0000-4000-8000-000000000000`, { role: 'staff' })).status).toBe(404);
  });

  it('deactivation ends their sessions at once, refuses their sign-in, and keeps their leads until reassigned', async () => {
    const sam = await join('sam@example.com', 'staff', 'sam-password');
    const lead = await as<{ id: string }>(sam.cookie, 'POST', '/api/leads', {
      full_name: 'Jane Doe',
      email: 'jane@example.com',
      phone: '555',
      property_types: ['land'],
    });
    expect((await as(sam.cookie, 'PATCH', `/api/leads/${lead.body.id}`, { owner_id: sam.id })).status).toBe(200);
    await execute(database.db, sql`insert into calendar_feeds (user_id, token_hash) values (${sam.id}, 'feed-hash')`);

    const deactivated = await as<TeamMember>(owner, 'POST', `/api/team/members/${sam.id}/deactivate`);
    expect(deactivated.status).toBe(200);
    expect(deactivated.body.deactivated_at).not.toBeNull();
    expect(deactivated.body.owned_leads).toBe(1);
    expect((await as(sam.cookie, 'GET', '/api/leads')).status).toBe(401);
    expect(await rowsOf(database.db, sql`select 1 from sessions where user_id = ${sam.id}`)).toHaveLength(0);
    expect(await rowsOf(database.db, sql`select 1 from calendar_feeds where user_id = ${sam.id}`)).toHaveLength(0);
    expect((await t.json('POST', '/api/auth/login', { email: 'sam@example.com', password: 'sam-password' })).status).toBe(403);

    const moved = await as<{ moved: number }>(owner, 'POST', `/api/team/members/${sam.id}/reassign`, { to: ownerId });
    expect(moved.body.moved).toBe(1);
    const [row] = await rowsOf<{ owner_id: string }>(database.db, sql`select owner_id from leads where id = ${lead.body.id}`);
    expect(row!.owner_id).toBe(ownerId);
    expect(
      await rowsOf(
        database.db,
        sql`select 1 from lead_events where lead_id = ${lead.body.id} and kind = 'owner' and data->>'from' = 'New Member' and data->>'to' = 'Olive Owner'`,
      ),
    ).toHaveLength(1);
    // Leads cannot go to a deactivated account.
    expect((await as(owner, 'POST', `/api/team/members/${ownerId}/reassign`, { to: sam.id })).status).toBe(409);

    expect((await as<TeamMember>(owner, 'POST', `/api/team/members/${sam.id}/reactivate`)).body.deactivated_at).toBeNull();
    await signIn(t.json, 'sam@example.com', 'sam-password');
  });

  it('an owner cannot deactivate or remove themselves', async () => {
    for (const [method, path] of [
      ['POST', `/api/team/members/${ownerId}/deactivate`],
      ['DELETE', `/api/team/members/${ownerId}`],
    ] as const) {
      const res = await as(owner, method, path);
      expect(res.status).toBe(409);
      expect(errorOf(res.body)).toBe(NOT_YOURSELF);
    }
  });

  it('removing an account keeps its leads, without an owner, and ends its sessions', async () => {
    const sam = await join('sam@example.com', 'staff');
    const lead = await as<{ id: string }>(sam.cookie, 'POST', '/api/leads', {
      full_name: 'Jane Doe',
      email: 'jane@example.com',
      phone: '555',
      property_types: ['land'],
    });
    await as(sam.cookie, 'PATCH', `/api/leads/${lead.body.id}`, { owner_id: sam.id });
    expect((await as(owner, 'DELETE', `/api/team/members/${sam.id}`)).status).toBe(200);
    expect((await as(sam.cookie, 'GET', '/api/leads')).status).toBe(401);
    const [row] = await rowsOf<{ owner_id: string | null }>(database.db, sql`select owner_id from leads where id = ${lead.body.id}`);
    expect(row!.owner_id).toBeNull();
    expect((await as(owner, 'DELETE', `/api/team/members/${sam.id}`)).status).toBe(404);
  });

  it('records every change in the audit log', async () => {
    const sam = await join('sam@example.com', 'staff');
    await as(owner, 'PATCH', `/api/team/members/${sam.id}`, { role: 'owner' });
    await as(owner, 'POST', `/api/team/members/${sam.id}/deactivate`);
    await as(owner, 'POST', `/api/team/members/${sam.id}/reactivate`);
    await as(owner, 'DELETE', `/api/team/members/${sam.id}`);
    const entries = await rowsOf<{ action: string; actor_email: string | null }>(
      database.db,
      sql`select action, actor_email from audit_log where action not in ('sign_in') order by id`,
    );
    expect(entries).toEqual([
      { action: 'invite_sent', actor_email: 'olive@example.com' },
      { action: 'invite_accepted', actor_email: 'sam@example.com' },
      { action: 'role_changed', actor_email: 'olive@example.com' },
      { action: 'account_deactivated', actor_email: 'olive@example.com' },
      { action: 'account_reactivated', actor_email: 'olive@example.com' },
      { action: 'account_removed', actor_email: 'olive@example.com' },
    ]);
  });
});

describe('first run', () => {
  beforeEach(async () => {
    await execute(database.db, sql`truncate users, sessions cascade`);
  });

  it('says a set-up is needed, and the link creates the first owner once', async () => {
    expect((await as(undefined, 'GET', '/api/auth/session')).body).toEqual({ user: null, setup_needed: true });
    const token = t.firstRun.issue();
    expect((await as(undefined, 'GET', `/api/auth/setup/${token}`)).status).toBe(200);
    expect((await as(undefined, 'GET', `/api/auth/setup/${'x'.repeat(43)}`)).status).toBe(404);
    const body = { token, display_name: 'Fran First', email: 'First@Example.com', password: 'first-password', confirm: 'first-password' };
    expect((await as(undefined, 'POST', '/api/auth/setup', { ...body, confirm: 'other' })).status).toBe(400);
    const nameless = await as<{ error: { fields: Record<string, string> } }>(undefined, 'POST', '/api/auth/setup', {
      ...body,
      display_name: ' ',
    });
    expect(nameless.status).toBe(400);
    expect(nameless.body.error.fields).toEqual({ display_name: 'Name is required' });
    const created = await as<{ user: { email: string; role: string } }>(undefined, 'POST', '/api/auth/setup', body);
    expect(created.status).toBe(201);
    expect(created.body.user).toMatchObject({ email: 'first@example.com', display_name: 'Fran First', phone: null, role: 'owner' });
    const cookie = created.res.headers.get('set-cookie')!.split(';')[0]!;
    expect((await as<Team>(cookie, 'GET', '/api/team')).body.members.map((m) => m.display_name)).toEqual(['Fran First']);
    // Used up, and nobody can set up again, even with a fresh link.
    expect((await as(undefined, 'POST', '/api/auth/setup', body)).status).toBe(404);
    const again = t.firstRun.issue();
    expect((await as(undefined, 'POST', '/api/auth/setup', { ...body, token: again, email: 'second@example.com' })).status).toBe(404);
    expect((await as(undefined, 'GET', '/api/auth/session')).body).toEqual({ user: null, setup_needed: false });
  });
});
