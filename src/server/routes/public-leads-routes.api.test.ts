import { sql } from 'drizzle-orm';
import { beforeEach, describe, expect, it } from 'vitest';
import { ensureAdmin } from '../auth/accounts.ts';
import { appSecret } from '../db/queries/app-secrets-queries.ts';
import { execute } from '../db/sql.ts';
import { deleteExpiredFormTokenUses } from '../db/queries/form-token-uses-queries.ts';
import { FORM_TOKEN_MAX_AGE_SECONDS, readFormToken, signFormToken } from '../lib/form-token.ts';
import { createTestApp, validLead } from '../test/test-app.ts';
import { useTestDatabase, rowsOf } from '../test/database.ts';

const database = useTestDatabase();
beforeEach(async () => {
  await database.db.execute(sql`truncate leads, notifications, rate_limits, users, form_token_uses cascade`);
});

const leadRows = () =>
  rowsOf<{
    full_name: string;
    email: string;
    phone: string;
    property_types: string[];
    message: string | null;
    status: string;
    contacted: boolean;
  }>(database.db, sql`select full_name, email, phone, property_types, message, status, contacted from leads order by created_at`);

describe('POST /api/public/leads', () => {
  it('stores a valid lead, trimmed and with a lower-cased email, as New', async () => {
    const { json } = createTestApp(database);
    const res = await json('POST', '/api/public/leads', validLead({ full_name: '  Jane Investor ', email: ' Jane@Example.COM ' }));
    expect(res.status).toBe(201);
    expect(await res.json()).toEqual({ status: 'received', booking_token: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/) });
    expect(await leadRows()).toEqual([
      {
        full_name: 'Jane Investor',
        email: 'jane@example.com',
        phone: '(301) 555-0199',
        property_types: ['multifamily'],
        message: 'A 12-unit building in Baltimore.',
        status: 'New',
        contacted: false,
      },
    ]);
  });

  it('stores an empty message as null', async () => {
    const { json } = createTestApp(database);
    await json('POST', '/api/public/leads', validLead({ message: '   ' }));
    expect((await leadRows())[0]?.message).toBeNull();
  });

  it('creates a lead notification naming the lead for every admin, in the same write', async () => {
    await ensureAdmin(database.db, 'a@example.com', 'password-a');
    await ensureAdmin(database.db, 'b@example.com', 'password-b');
    const { json } = createTestApp(database);
    await json('POST', '/api/public/leads', validLead());
    const rows = await rowsOf<{ email: string; type: string; message: string; read: boolean }>(
      database.db,
      sql`select u.email, n.type, n.message, n.read from notifications n join users u on u.id = n.user_id order by u.email`,
    );
    expect(rows).toEqual([
      { email: 'a@example.com', type: 'lead', message: 'New lead: Jane Investor (jane@example.com)', read: false },
      { email: 'b@example.com', type: 'lead', message: 'New lead: Jane Investor (jane@example.com)', read: false },
    ]);
  });

  it.each([
    ['full_name', { full_name: '' }, 'Name is required'],
    ['full_name', { full_name: '   ' }, 'Name is required'],
    ['email', { email: '' }, 'Email is required'],
    ['email', { email: 'not-an-email' }, 'Invalid email address'],
    ['phone', { phone: '' }, 'Phone number is required'],
    ['property_types', { property_types: [] }, 'Property type is required'],
    ['property_types', { property_types: ['castle'] }, 'Property type is required'],
    ['full_name', { full_name: 'x'.repeat(201) }, 'Name must be at most 200 characters'],
    ['email', { email: `${'x'.repeat(250)}@a.com` }, 'Email must be at most 254 characters'],
    ['phone', { phone: '1'.repeat(41) }, 'Phone number must be at most 40 characters'],
    ['message', { message: 'x'.repeat(5001) }, 'Message must be at most 5000 characters'],
    ['full_name', { full_name: 'Nul\u0000Byte' }, 'Contains a character that is not allowed'],
    ['message', { message: 'a\u0000b' }, 'Contains a character that is not allowed'],
  ])('rejects a bad %s with "%s" and stores nothing', async (field, overrides, message) => {
    const { json } = createTestApp(database);
    const res = await json('POST', '/api/public/leads', validLead(overrides));
    expect(res.status).toBe(400);
    const body = (await res.json()) as { error: { code: string; fields: Record<string, string> } };
    expect(body.error.code).toBe('validation_failed');
    expect(body.error.fields[field]).toBe(message);
    expect(await leadRows()).toEqual([]);
  });

  it('rejects a missing field as validation_failed, not a 500', async () => {
    const { json } = createTestApp(database);
    const res = await json('POST', '/api/public/leads', { submission_id: crypto.randomUUID() });
    expect(res.status).toBe(400);
    const body = (await res.json()) as { error: { fields: Record<string, string> } };
    expect(body.error.fields).toMatchObject({
      full_name: 'Name is required',
      email: 'Email is required',
      phone: 'Phone number is required',
      property_types: 'Property type is required',
    });
  });

  it('stores one lead for a repeated submission_id (double click, retry)', async () => {
    const { json } = createTestApp(database);
    const lead = validLead();
    const answers = await Promise.all([1, 2, 3].map(() => json('POST', '/api/public/leads', lead)));
    expect(answers.map((r) => r.status)).toEqual([201, 201, 201]);
    expect(await leadRows()).toHaveLength(1);
  });

  it('answers a filled honeypot as success and stores nothing', async () => {
    const { json } = createTestApp(database);
    const res = await json('POST', '/api/public/leads', validLead({ website: 'http://spam.example' }));
    expect(res.status).toBe(201);
    expect(await leadRows()).toEqual([]);
  });

  it('limits submissions per client IP per hour with 429 and Retry-After', async () => {
    const { json } = createTestApp(database, { LEAD_RATE_LIMIT: '2', TRUST_PROXY: 'on' });
    const from = (ip: string) => ({ 'x-forwarded-for': ip });
    const person = (n: number) => validLead({ email: `person${n}@example.com` });
    expect((await json('POST', '/api/public/leads', person(1), from('203.0.113.1'))).status).toBe(201);
    expect((await json('POST', '/api/public/leads', person(2), from('203.0.113.1'))).status).toBe(201);
    const limited = await json('POST', '/api/public/leads', person(3), from('203.0.113.1'));
    expect(limited.status).toBe(429);
    const retryAfter = Number(limited.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(3600);
    const body = (await limited.json()) as { error: { code: string; message: string } };
    expect(body.error.code).toBe('rate_limited');
    expect(body.error.message).toMatch(/^Too many requests\. Please try again in \d+ minutes?\.$/);
    // Another client is not affected; the limited one stored nothing more.
    expect((await json('POST', '/api/public/leads', person(4), from('203.0.113.2'))).status).toBe(201);
    expect(await leadRows()).toHaveLength(3);
  });

  it('ignores X-Forwarded-For unless TRUST_PROXY is on', async () => {
    const { json } = createTestApp(database, { LEAD_RATE_LIMIT: '1' });
    expect((await json('POST', '/api/public/leads', validLead(), { 'x-forwarded-for': '198.51.100.1' })).status).toBe(201);
    expect((await json('POST', '/api/public/leads', validLead(), { 'x-forwarded-for': '198.51.100.2' })).status).toBe(429);
  });

  it('turns the limit off with LEAD_RATE_LIMIT=0', async () => {
    const { json } = createTestApp(database, { LEAD_RATE_LIMIT: '0' });
    for (let i = 0; i < 15; i++) expect((await json('POST', '/api/public/leads', validLead())).status).toBe(201);
  });

  it('refuses a cross-site form post', async () => {
    const { json } = createTestApp(database);
    const res = await json('POST', 'http://localhost/api/public/leads', validLead(), {
      origin: 'https://evil.example',
      host: 'localhost',
    });
    expect(res.status).toBe(403);
    expect(await leadRows()).toEqual([]);
  });

  it('accepts a same-origin form post', async () => {
    const { json } = createTestApp(database);
    const res = await json('POST', 'http://localhost:3000/api/public/leads', validLead(), {
      origin: 'http://localhost:3000',
      host: 'localhost:3000',
    });
    expect(res.status).toBe(201);
  });

  it('accepts a same-origin post behind our proxy (X-Forwarded-Host) only with TRUST_PROXY', async () => {
    const headers = {
      origin: 'https://crm.example',
      host: '127.0.0.1:3000',
      'x-forwarded-host': 'crm.example',
      'x-forwarded-proto': 'https',
    };
    const behindProxy = createTestApp(database, { TRUST_PROXY: 'on' });
    expect((await behindProxy.json('POST', 'http://127.0.0.1:3000/api/public/leads', validLead(), headers)).status).toBe(201);
    const direct = createTestApp(database);
    expect((await direct.json('POST', 'http://127.0.0.1:3000/api/public/leads', validLead(), headers)).status).toBe(403);
  });

  it('answers a body that is not JSON with 400 and the error shape', async () => {
    const { app } = createTestApp(database);
    const res = await app.request('/api/public/leads', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"full_name": ',
    });
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ error: { code: 'bad_request' } });
  });

  it('answers a body over the size limit with 413', async () => {
    const { json } = createTestApp(database);
    const res = await json('POST', '/api/public/leads', validLead({ message: 'x'.repeat(70 * 1024) }));
    expect(res.status).toBe(413);
    expect(await res.json()).toMatchObject({ error: { code: 'payload_too_large' } });
  });

  it('answers a non-JSON content type with 415', async () => {
    const { app } = createTestApp(database);
    const res = await app.request('/api/public/leads', {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'full_name=x',
    });
    expect(res.status).toBe(415);
  });

  it('answers a JSON body sent with an empty Content-Type with 415 and the matching code', async () => {
    const { app } = createTestApp(database);
    const res = await app.request('/api/public/leads', {
      method: 'POST',
      headers: { 'content-type': '' },
      body: JSON.stringify(validLead()),
    });
    expect(res.status).toBe(415);
    expect(await res.json()).toEqual({
      error: { code: 'unsupported_media_type', message: 'Send the request body as application/json.', requestId: expect.any(String) },
    });
  });
});

describe('the time trap: a form token the server signed (LEAD_MIN_FILL_SECONDS on)', () => {
  const REFUSED = 'This form has expired. Please reload the page and send it again.';
  const trapOn = () => createTestApp(database, { LEAD_MIN_FILL_SECONDS: '2' });
  const secret = () => appSecret(database.db, 'lead_form_token');
  /** An honest token: signed with the server's secret, handed out `ageMs` ago. */
  const tokenAged = async (ageMs: number) => signFormToken(await secret(), Date.now() - ageMs);
  const human = async (overrides: Record<string, unknown> = {}) =>
    validLead({ website: '', form_token: await tokenAged(3_000), ...overrides });

  it('hands out a token signed with the secret stored in the database, and its age limits', async () => {
    const { json } = trapOn();
    const before = Date.now();
    const res = await json('GET', '/api/public/form-token');
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toContain('no-store');
    const body = (await res.json()) as { form_token: string; min_age_seconds: number; max_age_seconds: number };
    expect(body).toEqual({ form_token: expect.stringMatching(/^[A-Za-z0-9_-]{75}$/), min_age_seconds: 2, max_age_seconds: 86_400 });
    const issuedAt = readFormToken(await secret(), body.form_token);
    expect(issuedAt).toBeGreaterThanOrEqual(before);
    expect(issuedAt).toBeLessThanOrEqual(Date.now());
    const [row] = await rowsOf<{ n: number }>(database.db, sql`select count(*)::int as n from app_secrets where name = 'lead_form_token'`);
    expect(row?.n).toBe(1);
  });

  it('stores a submission whose token is older than the minimum', async () => {
    const { json } = trapOn();
    const res = await json('POST', '/api/public/leads', await human());
    expect(res.status).toBe(201);
    expect(await leadRows()).toHaveLength(1);
  });

  it('answers a token younger than the minimum as success and stores nothing', async () => {
    const { json } = trapOn();
    // Straight from the endpoint, sent at once: the server's clock says it is too fast.
    const { form_token } = (await (await json('GET', '/api/public/form-token')).json()) as { form_token: string };
    const fresh = await json('POST', '/api/public/leads', validLead({ website: '', form_token }));
    expect(fresh.status).toBe(201);
    expect(await fresh.json()).toEqual({ status: 'received', booking_token: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/) });
    expect((await json('POST', '/api/public/leads', await human({ form_token: await tokenAged(1_900) }))).status).toBe(201);
    expect(await leadRows()).toEqual([]);
    // The same form, past the minimum, is stored.
    expect((await json('POST', '/api/public/leads', await human({ form_token: await tokenAged(2_000) }))).status).toBe(201);
    expect(await leadRows()).toHaveLength(1);
  });

  it('no longer trusts the fill time the browser claims', async () => {
    const { json } = trapOn();
    const res = await json(
      'POST',
      '/api/public/leads',
      validLead({
        website: '',
        fill_ms: 600_000,
        form_token: ((await (await json('GET', '/api/public/form-token')).json()) as { form_token: string }).form_token,
      }),
    );
    expect(res.status).toBe(201);
    expect(await leadRows()).toEqual([]);
  });

  it.each([
    ['no token', async () => undefined],
    ['an empty token', async () => ''],
    ['a made-up token', async () => 'A'.repeat(75)],
    ['a token of another shape', async () => 'not-a-token'],
    ['a token signed by another secret', async () => signFormToken(Buffer.alloc(32, 7), Date.now() - 3_000)],
    [
      'a token whose issue time was moved back',
      async () => {
        const bytes = Buffer.from(await tokenAged(0), 'base64url');
        bytes.writeBigUInt64BE(bytes.readBigUInt64BE(0) - 60_000n, 0);
        return bytes.toString('base64url');
      },
    ],
    [
      'a token with its signature changed',
      async () => {
        const bytes = Buffer.from(await tokenAged(3_000), 'base64url');
        bytes[bytes.length - 1]! ^= 1;
        return bytes.toString('base64url');
      },
    ],
    ['a token older than 24 hours', async () => tokenAged(FORM_TOKEN_MAX_AGE_SECONDS * 1000 + 1_000)],
  ])('refuses %s with 400 on form_token and stores nothing', async (_, token) => {
    const { json } = trapOn();
    const res = await json('POST', '/api/public/leads', await human({ form_token: await token() }));
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({
      error: { code: 'validation_failed', message: REFUSED, fields: { form_token: REFUSED }, requestId: expect.any(String) },
    });
    expect(await leadRows()).toEqual([]);
  });

  it('still accepts a token just under 24 hours old', async () => {
    const { json } = trapOn();
    expect(
      (await json('POST', '/api/public/leads', await human({ form_token: await tokenAged(FORM_TOKEN_MAX_AGE_SECONDS * 1000 - 60_000) })))
        .status,
    ).toBe(201);
    expect(await leadRows()).toHaveLength(1);
  });

  it('answers a honeypot filled in or left out as success and stores nothing', async () => {
    const { json } = trapOn();
    expect((await json('POST', '/api/public/leads', await human({ website: 'http://spam.example' }))).status).toBe(201);
    expect((await json('POST', '/api/public/leads', await human({ website: undefined, fill_ms: 8000 }))).status).toBe(201);
    expect(await leadRows()).toEqual([]);
    expect((await json('POST', '/api/public/leads', await human({ website: '' }))).status).toBe(201);
    expect(await leadRows()).toHaveLength(1);
  });

  it('takes a token for one submission: a retry of it still succeeds, another submission is refused, in any process', async () => {
    const form_token = await tokenAged(3_000);
    const first = await human({ form_token, submission_id: crypto.randomUUID() });
    // Two apps on one database stand for two processes: nothing about the use is kept in memory.
    const [a, b] = [trapOn(), trapOn()];
    const stored = await a.json('POST', '/api/public/leads', first);
    expect(stored.status).toBe(201);
    // The same submission again (a lost answer, a double click), in either process: answered as before, stored once.
    for (const app of [a, b]) {
      const retry = await app.json('POST', '/api/public/leads', first);
      expect(retry.status).toBe(201);
      expect(await retry.json()).toEqual({ status: 'received', booking_token: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/) });
    }
    // Another submission with that token: refused as a stale token, so the page fetches a fresh one.
    for (const app of [a, b]) {
      const replay = await app.json(
        'POST',
        '/api/public/leads',
        await human({ form_token, submission_id: crypto.randomUUID(), email: 'replay@example.com' }),
      );
      expect(replay.status).toBe(400);
      expect(await replay.json()).toEqual({
        error: { code: 'validation_failed', message: REFUSED, fields: { form_token: REFUSED }, requestId: expect.any(String) },
      });
    }
    expect(await leadRows()).toHaveLength(1);
    // A fresh token for that other submission is taken.
    expect((await b.json('POST', '/api/public/leads', await human({ email: 'replay@example.com' }))).status).toBe(201);
    expect(await leadRows()).toHaveLength(2);
  });

  it('lets exactly one of many submissions sent at once with one token through', async () => {
    const { json } = trapOn();
    const form_token = await tokenAged(3_000);
    const answers = await Promise.all(
      Array.from(
        { length: 8 },
        async (_, i) => (await json('POST', '/api/public/leads', await human({ form_token, email: `burst${i}@example.com` }))).status,
      ),
    );
    expect(answers.filter((s) => s === 201)).toHaveLength(1);
    expect(answers.filter((s) => s === 400)).toHaveLength(7);
    expect(await leadRows()).toHaveLength(1);
  });

  it('claims the token in the lead’s own transaction: a lead not stored keeps no claim, and its retry goes through', async () => {
    const { json } = trapOn();
    const form_token = await tokenAged(3_000);
    const submission = await human({ form_token, full_name: 'Refused Once', email: 'refused-once@example.com' });
    const uses = async () => (await rowsOf<{ n: number }>(database.db, sql`select count(*)::int as n from form_token_uses`))[0]?.n;
    const before = await uses();
    // The database refuses this lead (a constraint for the test's sake): the claim is rolled back with it.
    await execute(database.db, sql`alter table leads add constraint test_refuse_once check (full_name <> 'Refused Once')`);
    try {
      expect((await json('POST', '/api/public/leads', submission)).status).toBe(500);
      expect(await uses()).toBe(before);
    } finally {
      await execute(database.db, sql`alter table leads drop constraint test_refuse_once`);
    }
    // The visitor sends the same form again: the token is still theirs.
    expect((await json('POST', '/api/public/leads', submission)).status).toBe(201);
    expect(await uses()).toBe((before ?? 0) + 1);
    expect(await leadRows()).toHaveLength(1);
  });

  it('forgets a token’s use once the token has expired anyway', async () => {
    const { json } = trapOn();
    expect((await json('POST', '/api/public/leads', await human())).status).toBe(201);
    const count = async () => (await rowsOf<{ n: number }>(database.db, sql`select count(*)::int as n from form_token_uses`))[0]?.n;
    expect(await count()).toBe(1);
    expect(await deleteExpiredFormTokenUses(database.db)).toBe(0);
    // Kept past the token's 24 hours (and an hour for clocks), not longer.
    const [kept] = await rowsOf<{ hours: number }>(
      database.db,
      sql`select round(extract(epoch from expires_at - now()) / 3600)::int as hours from form_token_uses`,
    );
    expect(kept?.hours).toBe(25);
    await database.db.execute(sql`update form_token_uses set expires_at = now() - interval '1 second'`);
    expect(await deleteExpiredFormTokenUses(database.db)).toBe(1);
    expect(await count()).toBe(0);
  });

  it('needs no token and no honeypot with LEAD_MIN_FILL_SECONDS=0', async () => {
    const { json } = createTestApp(database, { LEAD_MIN_FILL_SECONDS: '0' });
    expect((await json('POST', '/api/public/leads', validLead({ website: undefined, form_token: undefined }))).status).toBe(201);
    // A token it is sent is not looked at.
    expect((await json('POST', '/api/public/leads', validLead({ form_token: 'anything', email: 'other@example.com' }))).status).toBe(201);
    expect(await leadRows()).toHaveLength(2);
  });
});

describe('the same person twice', () => {
  const timelineOf = (email: string) =>
    rowsOf<{ kind: string; message: string | null; source: string | null }>(
      database.db,
      sql`select e.kind, e.data->>'message' as message, e.data->>'source' as source
          from lead_events e join leads l on l.id = e.lead_id where l.email = ${email} order by e.created_at`,
    );

  it('adds a second form from a known email to that lead as an inquiry, tells every admin "… wrote again", and stores no second lead', async () => {
    await ensureAdmin(database.db, 'a@example.com', 'password-a');
    const { json } = createTestApp(database);
    await json('POST', '/api/public/leads', validLead({ full_name: 'Jane Doe', message: 'First question' }));
    // The visitor came back through a campaign: the inquiry keeps that visit.
    await database.db.execute(sql`insert into analytics_sessions (session_id, last_hour, source, utm_campaign, landing_page, page_views)
      values ('sess-again-000000000001', now(), 'google.com', 'spring', '/', 3)`);
    const again = await json(
      'POST',
      '/api/public/leads',
      validLead({
        full_name: 'Jane D.',
        email: ' JANE@example.com',
        message: 'Second question',
        analytics_session_id: 'sess-again-000000000001',
      }),
    );
    expect(again.status).toBe(201);
    expect(await again.json()).toEqual({ status: 'received', booking_token: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/) });

    const leads = await leadRows();
    expect(leads).toHaveLength(1);
    expect(leads[0]).toMatchObject({ full_name: 'Jane Doe', message: 'First question' }); // the original words stay
    expect(await timelineOf('jane@example.com')).toEqual([{ kind: 'inquiry', message: 'Second question', source: 'google.com' }]);
    const notices = await rowsOf<{ message: string; lead_id: string | null }>(
      database.db,
      sql`select message, lead_id from notifications order by created_at`,
    );
    expect(notices.map((n) => n.message)).toEqual(['New lead: Jane Doe (jane@example.com)', 'Jane Doe wrote again']);
    expect(new Set(notices.map((n) => n.lead_id)).size).toBe(1);
    // Both forms' tokens book the same lead's call.
    const tokens = await rowsOf<{ n: number }>(database.db, sql`select count(distinct lead_id)::int as n from booking_tokens`);
    expect(tokens[0]!.n).toBe(1);
  });

  it('brings a Dropped lead back to New, recorded in its history', async () => {
    const { json } = createTestApp(database);
    await json('POST', '/api/public/leads', validLead());
    await database.db.execute(sql`update leads set status = 'Dropped'`);
    await json('POST', '/api/public/leads', validLead({ message: 'Still interested' }));
    expect((await leadRows())[0]).toMatchObject({ status: 'New', contacted: false });
    const history = await rowsOf<{ from_status: string | null; to_status: string }>(
      database.db,
      sql`select from_status, to_status from lead_status_changes order by changed_at, id`,
    );
    expect(history.at(-1)).toEqual({ from_status: 'Dropped', to_status: 'New' });
  });

  it('stores a repeated inquiry once for one submission_id, and makes one lead of two people’s first forms sent at once', async () => {
    const { json } = createTestApp(database);
    await json('POST', '/api/public/leads', validLead());
    const retry = validLead({ message: 'Again' });
    await Promise.all([1, 2, 3].map(() => json('POST', '/api/public/leads', retry)));
    expect(await timelineOf('jane@example.com')).toHaveLength(1);

    // Two different first forms from one new address, at the same moment: one lead, one inquiry.
    await Promise.all(['One', 'Two'].map((m) => json('POST', '/api/public/leads', validLead({ email: 'twice@example.com', message: m }))));
    const twice = await rowsOf<{ n: number }>(database.db, sql`select count(*)::int as n from leads where email = 'twice@example.com'`);
    expect(twice[0]!.n).toBe(1);
    expect(await timelineOf('twice@example.com')).toHaveLength(1);
  });
});
