import { sql } from 'drizzle-orm';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { CURRENT_PASSWORD_WRONG, PASSWORD_RESET_SENT, type AccountSession } from '#shared/schemas/account';
import { ensureAdmin } from '../auth/accounts.ts';
import { MAX_RESETS_PER_ACCOUNT_PER_HOUR } from '../db/queries/account-queries.ts';
import { markEmailSent } from '../db/queries/emails-queries.ts';
import { execute } from '../db/sql.ts';
import { createTestApp, signIn } from '../test/test-app.ts';
import { rowsOf, useTestDatabase } from '../test/database.ts';
import { MAX_RESETS_PER_EMAIL_AND_IP } from '../auth/password-reset-limits.ts';

const database = useTestDatabase();
let t: ReturnType<typeof createTestApp>;
let userId: string;

beforeAll(() => {
  t = createTestApp(database, { PUBLIC_URL: 'https://crm.example.com', SMTP_URL: 'smtp://127.0.0.1:2525', TRUST_PROXY: 'on' });
});
beforeEach(async () => {
  await execute(
    database.db,
    sql`truncate users, sessions, emails, account_tokens, rate_limits, calendar_feeds, api_keys, audit_log cascade`,
  );
  userId = (await ensureAdmin(database.db, 'ann@example.com', 'ann-password')).user.id;
});

async function as<T>(cookie: string | undefined, method: string, path: string, body?: unknown, headers: Record<string, string> = {}) {
  const res = await t.json(method, path, body, { cookie, ...headers });
  const text = await res.text();
  return { status: res.status, body: (text ? JSON.parse(text) : undefined) as T };
}
const stillSignedIn = async (cookie: string) => (await as<{ user: unknown }>(cookie, 'GET', '/api/auth/session')).body.user !== null;

describe('own account', () => {
  it('changes one’s name and phone (checked, trimmed; a blank phone is none), shown by the session, the team and the admins list, and audited', async () => {
    const here = await signIn(t.json, 'ann@example.com', 'ann-password');
    // Made without a name: the part of the email before the @.
    expect((await as<{ user: unknown }>(here, 'GET', '/api/auth/session')).body.user).toMatchObject({ display_name: 'ann', phone: null });

    for (const [body, fields] of [
      [{ display_name: '  ', phone: null }, { display_name: 'Name is required' }],
      [{ phone: '555' }, { display_name: 'Name is required' }],
      [{ display_name: 'x'.repeat(81) }, { display_name: 'Name must be at most 80 characters' }],
      [{ display_name: 'Ann', phone: '5'.repeat(41) }, { phone: 'Phone number must be at most 40 characters' }],
      [{ display_name: 'A\u0000nn' }, { display_name: 'Contains a character that is not allowed' }],
    ] as const) {
      const refused = await as<{ error: { fields: Record<string, string> } }>(here, 'PUT', '/api/account/profile', body);
      expect(refused.status, JSON.stringify(body)).toBe(400);
      expect(refused.body.error.fields).toEqual(fields);
    }

    const saved = await as(here, 'PUT', '/api/account/profile', { display_name: ' Ann Archer ', phone: ' (301) 555-0142 ' });
    expect(saved).toEqual({ status: 200, body: { display_name: 'Ann Archer', phone: '(301) 555-0142' } });
    expect((await as<{ user: unknown }>(here, 'GET', '/api/auth/session')).body.user).toMatchObject({
      display_name: 'Ann Archer',
      phone: '(301) 555-0142',
    });
    expect((await as<{ members: unknown[] }>(here, 'GET', '/api/team')).body.members).toEqual([
      expect.objectContaining({ display_name: 'Ann Archer', phone: '(301) 555-0142' }),
    ]);
    expect((await as<{ admins: unknown[] }>(here, 'GET', '/api/admins')).body.admins).toEqual([
      { id: userId, email: 'ann@example.com', display_name: 'Ann Archer' },
    ]);
    expect((await as(here, 'PUT', '/api/account/profile', { display_name: 'Ann Archer', phone: '' })).body).toEqual({
      display_name: 'Ann Archer',
      phone: null,
    });
    // The same again changes nothing, and is not recorded.
    expect((await as(here, 'PUT', '/api/account/profile', { display_name: 'Ann Archer' })).body).toEqual({
      display_name: 'Ann Archer',
      phone: null,
    });

    const audit = await rowsOf<{ action: string; details: unknown }>(
      database.db,
      sql`select action, details from audit_log where action = 'profile_changed' order by id`,
    );
    expect(audit).toEqual([
      {
        action: 'profile_changed',
        details: { changes: { display_name: { from: 'ann', to: 'Ann Archer' }, phone: { from: null, to: '(301) 555-0142' } } },
      },
      { action: 'profile_changed', details: { changes: { phone: { from: '(301) 555-0142', to: null } } } },
    ]);
    expect((await as(undefined, 'PUT', '/api/account/profile', { display_name: 'Nobody' })).status).toBe(401);
  });

  it('changes the password with the current one, and every other session ends', async () => {
    const here = await signIn(t.json, 'ann@example.com', 'ann-password', {
      'user-agent': 'Mozilla/5.0 (X11; Linux x86_64) Chrome/131.0 Safari/537.36',
    });
    const phone = await signIn(t.json, 'ann@example.com', 'ann-password');
    const wrong = await as<{ error: { fields: Record<string, string> } }>(here, 'POST', '/api/account/password', {
      current_password: 'nope-nope',
      password: 'ann-new-password',
      confirm: 'ann-new-password',
    });
    expect(wrong.status).toBe(400);
    expect(wrong.body.error.fields).toEqual({ current_password: CURRENT_PASSWORD_WRONG });
    expect(
      (
        await as(here, 'POST', '/api/account/password', {
          current_password: 'ann-password',
          password: 'ann-new-password',
          confirm: 'other',
        })
      ).status,
    ).toBe(400);

    const changed = await as<{ other_sessions_ended: number }>(here, 'POST', '/api/account/password', {
      current_password: 'ann-password',
      password: 'ann-new-password',
      confirm: 'ann-new-password',
    });
    expect(changed.status).toBe(200);
    expect(changed.body.other_sessions_ended).toBe(1);
    expect(await stillSignedIn(here)).toBe(true);
    expect(await stillSignedIn(phone)).toBe(false);
    await signIn(t.json, 'ann@example.com', 'ann-new-password');
    expect((await t.json('POST', '/api/auth/login', { email: 'ann@example.com', password: 'ann-password' })).status).toBe(401);
    const audit = await rowsOf<{ action: string }>(database.db, sql`select action from audit_log where action = 'password_changed'`);
    expect(audit).toHaveLength(1);
  });

  it('wrong current passwords are limited like sign-in', async () => {
    const here = await signIn(t.json, 'ann@example.com', 'ann-password');
    const statuses: number[] = [];
    for (let i = 0; i < 11; i++)
      statuses.push((await as(here, 'POST', '/api/account/email', { email: 'x@example.com', current_password: `wrong-${i}` })).status);
    expect(statuses).toEqual([...Array(10).fill(400), 429]);
  });

  it('changes the email (unique), and lists and ends sessions', async () => {
    await ensureAdmin(database.db, 'bob@example.com', 'bob-password');
    const here = await signIn(t.json, 'ann@example.com', 'ann-password', { 'user-agent': 'Here' });
    const there = await signIn(t.json, 'ann@example.com', 'ann-password', { 'user-agent': 'There', 'x-forwarded-for': '203.0.113.7' });
    expect((await as(here, 'POST', '/api/account/email', { email: 'bob@example.com', current_password: 'ann-password' })).status).toBe(409);

    const list = await as<{ sessions: AccountSession[] }>(here, 'GET', '/api/account/sessions');
    expect(list.body.sessions.map((s) => [s.user_agent, s.current])).toEqual([
      ['Here', true],
      ['There', false],
    ]);
    expect(list.body.sessions[1]!.ip).toBe('203.0.113.7');
    const other = list.body.sessions[1]!.id;
    expect((await as(here, 'DELETE', `/api/account/sessions/${other}`)).status).toBe(200);
    expect(await stillSignedIn(there)).toBe(false);
    expect((await as(here, 'DELETE', `/api/account/sessions/${other}`)).status).toBe(404);

    const third = await signIn(t.json, 'ann@example.com', 'ann-password');
    const changed = await as<{ email: string; other_sessions_ended: number }>(here, 'POST', '/api/account/email', {
      email: 'Ann.New@Example.com',
      current_password: 'ann-password',
    });
    expect(changed.body).toEqual({ email: 'ann.new@example.com', other_sessions_ended: 1 });
    expect(await stillSignedIn(third)).toBe(false);
    expect((await as<{ user: { email: string } }>(here, 'GET', '/api/auth/session')).body.user.email).toBe('ann.new@example.com');
    // A session of another account cannot be ended from here.
    const bob = await signIn(t.json, 'bob@example.com', 'bob-password');
    const bobs = await as<{ sessions: AccountSession[] }>(bob, 'GET', '/api/account/sessions');
    expect((await as(here, 'DELETE', `/api/account/sessions/${bobs.body.sessions[0]!.id}`)).status).toBe(404);
    expect(await stillSignedIn(bob)).toBe(true);
  });
});

describe('a password change and the API keys it leaves working', () => {
  const makeKey = async (cookie: string, name: string) =>
    (await as<{ id: string; key: string }>(cookie, 'POST', '/api/api-keys', { name, scopes: ['leads:read'] })).body;
  const keyWorks = async (key: string) =>
    (await t.json('GET', '/api/leads', undefined, { authorization: `Bearer ${key}`, origin: undefined })).status;
  const securityMails = () =>
    rowsOf<{ to_address: string; how: string; keys: { name: string; prefix: string }[] }>(
      database.db,
      sql`select to_address, data->>'how' as how, data->'keys' as keys from emails where kind = 'password-changed' order by created_at`,
    );

  it('on the account page: the answer and the security mail name each key, which still works, and one click revokes them all', async () => {
    const here = await signIn(t.json, 'ann@example.com', 'ann-password');
    const first = await makeKey(here, 'Partner form');
    const second = await makeKey(here, 'Zap');
    // Another owner's key is theirs to keep.
    await ensureAdmin(database.db, 'bo@example.com', 'bo-password', 'owner');
    const theirs = await makeKey(await signIn(t.json, 'bo@example.com', 'bo-password'), 'Bo’s script');

    const changed = await as<{ api_keys: { id: string; name: string; prefix: string }[] }>(here, 'POST', '/api/account/password', {
      current_password: 'ann-password',
      password: 'ann-new-password',
      confirm: 'ann-new-password',
    });
    expect(changed.status).toBe(200);
    expect(changed.body.api_keys).toEqual([
      { id: first.id, name: 'Partner form', prefix: first.key.slice(0, 12) },
      { id: second.id, name: 'Zap', prefix: second.key.slice(0, 12) },
    ]);
    expect(await keyWorks(first.key)).toBe(200);
    expect(await securityMails()).toEqual([
      {
        to_address: 'ann@example.com',
        how: 'account',
        keys: [
          { name: 'Partner form', prefix: first.key.slice(0, 12) },
          { name: 'Zap', prefix: second.key.slice(0, 12) },
        ],
      },
    ]);

    expect(await as(here, 'POST', '/api/api-keys/revoke-mine')).toEqual({ status: 200, body: { revoked: 2 } });
    expect([await keyWorks(first.key), await keyWorks(second.key), await keyWorks(theirs.key)]).toEqual([401, 401, 200]);
    const audit = await rowsOf<{ reason: string }>(
      database.db,
      sql`select details->>'reason' as reason from audit_log where action = 'api_key_revoked' order by target_id`,
    );
    expect(audit).toEqual([{ reason: 'revoked_by_maker' }, { reason: 'revoked_by_maker' }]);
    expect(await as(here, 'POST', '/api/api-keys/revoke-mine')).toEqual({ status: 200, body: { revoked: 0 } });
  });

  it('with a reset link: the answer counts the keys, and the mail names them', async () => {
    const here = await signIn(t.json, 'ann@example.com', 'ann-password');
    const key = await makeKey(here, 'Partner form');
    await as(undefined, 'POST', '/api/auth/password-reset', { email: 'ann@example.com' }, { 'x-forwarded-for': '198.51.100.9' });
    const [mail] = await rowsOf<{ link: string }>(database.db, sql`select data->>'link' as link from emails where kind = 'password-reset'`);
    const token = mail!.link.split('/').pop()!;
    const done = await as(undefined, 'POST', '/api/auth/password-reset/confirm', {
      token,
      password: 'ann-reset-password',
      confirm: 'ann-reset-password',
    });
    expect(done).toEqual({ status: 200, body: { email: 'ann@example.com', active_api_keys: 1 } });
    expect(await securityMails()).toEqual([
      { to_address: 'ann@example.com', how: 'reset_link', keys: [{ name: 'Partner form', prefix: key.key.slice(0, 12) }] },
    ]);
    expect(await keyWorks(key.key)).toBe(200);
  });
});

describe('forgot password', () => {
  const ask = (email: string, ip = '198.51.100.1') =>
    as<{ message: string }>(undefined, 'POST', '/api/auth/password-reset', { email }, { 'x-forwarded-for': ip });

  it('answers the same for a known and an unknown email, and emails a 30-minute single-use link only to a real account', async () => {
    const known = await ask('ann@example.com');
    const unknown = await ask('nobody@example.com');
    expect(known).toEqual({ status: 200, body: { message: PASSWORD_RESET_SENT } });
    expect(unknown).toEqual(known);
    const mails = await rowsOf<{ to_address: string; kind: string; link: string }>(
      database.db,
      sql`select to_address, kind, data->>'link' as link from emails`,
    );
    expect(mails).toHaveLength(1);
    expect(mails[0]).toMatchObject({ to_address: 'ann@example.com', kind: 'password-reset' });
    expect(mails[0]!.link).toMatch(/^https:\/\/crm\.example\.com\/reset-password\/[A-Za-z0-9_-]{43}$/);
    const [token] = await rowsOf<{ minutes: number; token_hash: string }>(
      database.db,
      sql`select round(extract(epoch from expires_at - created_at) / 60)::int as minutes, token_hash from account_tokens`,
    );
    expect(token!.minutes).toBe(30);
    expect(token!.token_hash).not.toContain(mails[0]!.link.split('/').pop());

    // Once sent, the message keeps no usable link.
    const [{ id }] = (await rowsOf<{ id: string }>(database.db, sql`select id from emails`)) as [{ id: string }];
    await markEmailSent(database.db, id);
    expect(await rowsOf(database.db, sql`select 1 from emails where data ? 'link'`)).toHaveLength(0);
  });

  it('the link sets a new password once, and ends every session, feed and remembered device', async () => {
    const session = await signIn(t.json, 'ann@example.com', 'ann-password');
    await execute(database.db, sql`insert into calendar_feeds (user_id, token_hash) values (${userId}, 'feed')`);
    await execute(
      database.db,
      sql`insert into trusted_devices (token_hash, user_id, expires_at) values ('device', ${userId}, now() + interval '30 days')`,
    );
    await ask('ann@example.com');
    const [mail] = await rowsOf<{ link: string }>(database.db, sql`select data->>'link' as link from emails`);
    const token = mail!.link.split('/').pop()!;
    expect((await as(undefined, 'GET', `/api/auth/password-reset/${token}`)).body).toEqual({ email: 'ann@example.com' });
    expect(
      (await as(undefined, 'POST', '/api/auth/password-reset/confirm', { token, password: 'ann-reset-password', confirm: 'different' }))
        .status,
    ).toBe(400);
    const done = await as(undefined, 'POST', '/api/auth/password-reset/confirm', {
      token,
      password: 'ann-reset-password',
      confirm: 'ann-reset-password',
    });
    expect(done).toEqual({ status: 200, body: { email: 'ann@example.com', active_api_keys: 0 } });
    expect(await stillSignedIn(session)).toBe(false);
    expect(await rowsOf(database.db, sql`select 1 from calendar_feeds union all select 1 from trusted_devices`)).toHaveLength(0);
    await signIn(t.json, 'ann@example.com', 'ann-reset-password');
    // Used: it works no more.
    expect(
      (
        await as(undefined, 'POST', '/api/auth/password-reset/confirm', {
          token,
          password: 'ann-again-password',
          confirm: 'ann-again-password',
        })
      ).status,
    ).toBe(404);
    expect((await as(undefined, 'GET', `/api/auth/password-reset/${token}`)).status).toBe(404);
  });

  it('an expired link, a newer link, and a deactivated account do not reset', async () => {
    await ask('ann@example.com');
    await ask('ann@example.com');
    const links = await rowsOf<{ link: string }>(database.db, sql`select data->>'link' as link from emails order by created_at, id`);
    const [older, newer] = links.map((l) => l.link.split('/').pop()!);
    expect((await as(undefined, 'GET', `/api/auth/password-reset/${older}`)).status).toBe(404);
    await execute(database.db, sql`update account_tokens set expires_at = now() - interval '1 second'`);
    expect(
      (
        await as(undefined, 'POST', '/api/auth/password-reset/confirm', {
          token: newer,
          password: 'ann-late-password',
          confirm: 'ann-late-password',
        })
      ).status,
    ).toBe(404);
    // A deactivated account gets no link (and the answer is the same).
    await ensureAdmin(database.db, 'bob@example.com', 'bob-password');
    await execute(database.db, sql`update users set deactivated_at = now() where id = ${userId}`);
    const before = (await rowsOf(database.db, sql`select 1 from emails`)).length;
    expect((await ask('ann@example.com', '198.51.100.2')).body.message).toBe(PASSWORD_RESET_SENT);
    expect(await rowsOf(database.db, sql`select 1 from emails`)).toHaveLength(before);
  });

  it('sends one account at most 3 links an hour, whatever the addresses asking, with the same answer', async () => {
    // 5 addresses, each within its own limit of 3: 15 requests, 15 times the same answer.
    const answers = [];
    for (let n = 0; n < 5; n++)
      for (let i = 0; i < MAX_RESETS_PER_EMAIL_AND_IP; i++) answers.push(await ask('ann@example.com', `203.0.113.${n + 1}`));
    expect(answers).toEqual(Array(15).fill({ status: 200, body: { message: PASSWORD_RESET_SENT } }));
    const mails = async () =>
      rowsOf<{ link: string }>(
        database.db,
        sql`select data->>'link' as link from emails where kind = 'password-reset' and to_address = 'ann@example.com' order by created_at, id`,
      );
    expect(await mails()).toHaveLength(MAX_RESETS_PER_ACCOUNT_PER_HOUR);
    // The last link sent still works: the refused requests did not replace it.
    const last = (await mails()).at(-1)!.link.split('/').pop()!;
    expect((await as(undefined, 'GET', `/api/auth/password-reset/${last}`)).status).toBe(200);
    // Another account is not held by ann's limit.
    await ensureAdmin(database.db, 'bob@example.com', 'bob-password');
    await ask('bob@example.com', '203.0.113.1');
    expect(await rowsOf(database.db, sql`select 1 from emails where to_address = 'bob@example.com'`)).toHaveLength(1);
    // An hour after the first link, one more may go (a sliding hour, not a clock hour).
    await execute(
      database.db,
      sql`update account_tokens set created_at = created_at - interval '60 minutes 1 second' where token_hash = (
      select token_hash from account_tokens where email = 'ann@example.com' order by created_at limit 1)`,
    );
    await ask('ann@example.com', '203.0.113.9');
    await ask('ann@example.com', '203.0.113.9');
    expect(await mails()).toHaveLength(MAX_RESETS_PER_ACCOUNT_PER_HOUR + 1);
  });

  it('two addresses asking at once cannot pass the account limit together', async () => {
    await Promise.all(Array.from({ length: 8 }, (_, n) => ask('ann@example.com', `203.0.113.${n + 1}`)));
    expect(await rowsOf(database.db, sql`select 1 from emails where kind = 'password-reset'`)).toHaveLength(
      MAX_RESETS_PER_ACCOUNT_PER_HOUR,
    );
  });

  it('is rate-limited per email and network', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 4; i++) statuses.push((await ask('ann@example.com', '198.51.100.9')).status);
    expect(statuses).toEqual([200, 200, 200, 429]);
    // Another email from that network is still answered.
    expect((await ask('bob@example.com', '198.51.100.9')).status).toBe(200);
  });
});
