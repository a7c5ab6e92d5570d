import { defaultWebsiteContent } from '#shared/website-content';
import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { SIGN_IN_EXPIRED } from './two-factor-sign-in.ts';
import { DEFAULT_BOOKING_SETTINGS } from '#shared/schemas/booking';
import { API_KEY_SCOPES } from '#shared/schemas/api-keys';
import { execute } from '../db/sql.ts';
import { ensureAdmin } from './accounts.ts';
import { deleteUser } from '../db/queries/users-queries.ts';
import { createTestApp, signIn, validLead } from '../test/test-app.ts';
import { useTestDatabase, rowsOf } from '../test/database.ts';

/**
 * Walks /api/openapi.json and calls every operation not marked public without a session,
 * with an expired one, a forged one and the still-unexpired session of a deleted admin: each
 * must answer 401 with no data. Every state-changing operation sent with a valid admin
 * cookie but another site's Origin must be refused (CSRF), and every public operation must
 * answer without stored data. Routes added later are covered without touching this file.
 */
type Operation = { security?: Record<string, string[]>[]; parameters?: { name: string; in: string }[] };
type Doc = { security?: Record<string, string[]>[]; paths: Record<string, Record<string, Operation>> };

const database = useTestDatabase();
let expiredCookie: string;
let deletedUserCookie: string;
beforeAll(async () => {
  await ensureAdmin(database.db, 'walker@example.com', 'walker-password');
  await ensureAdmin(database.db, 'gone@example.com', 'gone-password');
  const { json } = createTestApp(database);
  expiredCookie = await signIn(json, 'walker@example.com', 'walker-password');
  await execute(database.db, sql`update sessions set expires_at = now() - interval '1 minute'`);
  deletedUserCookie = await signIn(json, 'gone@example.com', 'gone-password');
  await deleteUser(database.db, 'gone@example.com');
});

async function openApiDoc(): Promise<Doc> {
  const { app } = createTestApp(database);
  return (await (await app.request('/api/openapi.json')).json()) as Doc;
}

async function protectedOperations() {
  const doc = await openApiDoc();
  const ops: { method: string; path: string }[] = [];
  for (const [path, methods] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(methods)) {
      const security = op.security ?? doc.security ?? [];
      if (security.length === 0) continue; // public
      // A session, an owner's session, or a session or an API key with one scope (api-key-walk.api.test.ts).
      const keyScopes = API_KEY_SCOPES.map((scope) => [{ sessionCookie: [] }, { bearerApiKey: [scope] }]);
      expect([[{ sessionCookie: [] }], [{ sessionCookie: ['owner'] }], ...keyScopes]).toContainEqual(security);
      // Fill path parameters with a well-formed id, so the request reaches the auth check.
      ops.push({ method: method.toUpperCase(), path: path.replace(/\{[^}]+\}/g, '00000000-0000-4000-8000-000000000000') });
    }
  }
  return ops;
}

describe('every admin operation without a valid session', () => {
  it('finds the admin operations in the OpenAPI document', async () => {
    const ops = await protectedOperations();
    expect(ops.length).toBeGreaterThanOrEqual(5);
    expect(ops).toContainEqual({ method: 'GET', path: '/api/notifications' });
  });

  it.each([
    ['no cookie', () => ({})],
    ['an expired session', () => ({ cookie: expiredCookie })],
    ['a forged session', () => ({ cookie: `session=${'A'.repeat(43)}` })],
    ['a malformed cookie', () => ({ cookie: 'session=%%%' })],
    ['the unexpired session of a deleted admin', () => ({ cookie: deletedUserCookie })],
  ])('answers 401 with no data for %s', async (_name, headers) => {
    const { app } = createTestApp(database);
    for (const { method, path } of await protectedOperations()) {
      const res = await app.request(path, {
        method,
        // With our Origin, as the admin app sends it, so that each write reaches the session check.
        headers: { 'content-type': 'application/json', origin: 'http://localhost', ...headers() },
        body: method === 'GET' || method === 'HEAD' ? undefined : '{}',
      });
      expect({ method, path, status: res.status }).toEqual({ method, path, status: 401 });
      const body = (await res.json()) as Record<string, unknown>;
      expect(Object.keys(body)).toEqual(['error']);
      expect(body.error).toMatchObject({ code: 'unauthorized' });
    }
  });
});

/** Every operation in the document, with its template path and whether it is public. */
async function allOperations() {
  const doc = await openApiDoc();
  return Object.entries(doc.paths).flatMap(([path, methods]) =>
    Object.entries(methods).map(([method, op]) => ({
      method: method.toUpperCase(),
      path,
      isPublic: (op.security ?? doc.security ?? []).length === 0,
    })),
  );
}

/** A digest of every table a request could change, to prove a refused request changed nothing. */
async function snapshot(): Promise<Record<string, string>> {
  const tables = [
    'users',
    'sessions',
    'leads',
    'lead_status_changes',
    'appointments',
    'notifications',
    'calendar_feeds',
    'analytics_events',
    'rate_limits',
    'sign_in_ips',
    'emails',
    'email_templates',
    'inbound_emails',
    'booking_settings',
    'booking_tokens',
  ];
  const digest: Record<string, string> = {};
  for (const table of tables) {
    const [row] = await rowsOf<{ d: string }>(
      database.db,
      sql`select md5(coalesce(string_agg(t::text, '|' order by t::text), '')) as d from ${sql.identifier(table)} t`,
    );
    digest[table] = row!.d;
  }
  return digest;
}

describe('every state-changing operation with a valid admin cookie from another origin', () => {
  it('is refused with 403 and changes nothing, while the same request from our origin goes through', async () => {
    const t = createTestApp(database);
    await ensureAdmin(database.db, 'csrf-admin@example.com', 'csrf-admin-password');
    const cookie = await signIn(t.json, 'csrf-admin@example.com', 'csrf-admin-password');
    const call = async (method: string, path: string, body?: unknown) => {
      const res = await t.json(method, path, body, { cookie });
      return (await res.json()) as { id: string; notifications: { id: string }[] };
    };
    // Real rows, so that each request would change something if the Origin check let it through.
    const lead = await call('POST', '/api/leads', validLead({ submission_id: undefined, fill_ms: undefined }));
    const appointment = await call('POST', '/api/appointments', { lead_id: lead.id, date: '2030-01-02', time: '10:00', type: 'Call' });
    const notification = (await call('GET', '/api/notifications')).notifications[0]!;
    await call('POST', '/api/calendar-feed');
    const [email] = await rowsOf<{ id: string }>(
      database.db,
      sql`update emails set status = 'failed' where id = (select id from emails limit 1) returning id`,
    );
    const ids: Record<string, string> = { leads: lead.id, appointments: appointment.id, notifications: notification.id, email: email!.id };
    const bodies: Record<string, unknown> = {
      'POST /api/leads': validLead({ submission_id: undefined, fill_ms: undefined }),
      'PATCH /api/leads/{id}': { full_name: 'Changed by another site', contacted: true },
      'POST /api/appointments': { lead_id: lead.id, date: '2030-01-03', time: '11:00', type: 'Zoom' },
      'PATCH /api/appointments/{id}': { notes: 'Changed by another site' },
      'POST /api/appointments/bulk-cancel': { network: '203.0.113.0/24', notify: false },
      'POST /api/public/leads': validLead({ email: 'csrf@example.com' }),
      'POST /api/public/events': { session_id: 'AbCdEfGhIjKlMnOpQrStUv', event_type: 'pageview', page_path: '/' },
      'POST /api/auth/login': { email: 'csrf-admin@example.com', password: 'csrf-admin-password' },
      'PATCH /api/account/preferences': { email_appointments: true },
      'PUT /api/account/profile': { display_name: 'Changed by another site' },
      'PUT /api/booking-settings': { ...DEFAULT_BOOKING_SETTINGS, slot_minutes: 45 },
      'PUT /api/website': { ...defaultWebsiteContent('Another Site'), headline: 'Changed by another site' },
    };
    const writes = (await allOperations())
      .filter((op) => !['GET', 'HEAD', 'OPTIONS'].includes(op.method))
      .map((op) => ({
        ...op,
        key: `${op.method} ${op.path}`,
        url: op.path.replace(/\{[^}]+\}/g, () => ids[op.path.split('/')[2]!] ?? '00000000-0000-4000-8000-000000000000'),
      }));
    expect(writes.filter((op) => !op.isPublic).length).toBeGreaterThanOrEqual(8);

    const before = await snapshot();
    for (const origin of ['https://evil.example', 'http://localhost:8080', 'null']) {
      for (const op of writes) {
        const res = await t.json(op.method, op.url, bodies[op.key] ?? {}, { cookie, origin });
        expect({ op: op.key, origin, status: res.status }).toEqual({ op: op.key, origin, status: 403 });
        expect(await res.json()).toEqual({
          error: { code: 'forbidden', message: 'Cross-site request refused.', requestId: expect.any(String) },
        });
      }
    }
    expect(await snapshot()).toEqual(before);

    // The control: the same requests from our own origin reach their handlers. Sign-in and
    // sign-out go last, since each ends the session the others use.
    const last = ['POST /api/auth/login', 'POST /api/auth/logout'];
    const ordered = [...writes.filter((op) => !last.includes(op.key)), ...writes.filter((op) => last.includes(op.key))];
    for (const op of ordered) {
      const res = await t.json(op.method, op.url, bodies[op.key] ?? {}, { cookie, origin: 'http://localhost' });
      // A 401 from the handler itself (the two-factor step without a sign-in in progress) still reached it.
      const message = res.status === 401 ? ((await res.json()) as { error: { message: string } }).error.message : '';
      const reached = res.status < 500 && res.status !== 403 && (res.status !== 401 || message === SIGN_IN_EXPIRED);
      expect({ op: op.key, status: res.status, reached }).toMatchObject({ op: op.key, reached: true });
    }
    expect(await snapshot()).not.toEqual(before);
  });
});

describe('every state-changing operation without Origin or Sec-Fetch-Site (not a browser)', () => {
  it('is refused with 403 for the admin API and sign-in/out, and accepted for the public operations under /api/public/', async () => {
    const t = createTestApp(database);
    await ensureAdmin(database.db, 'headless@example.com', 'headless-password');
    const cookie = await signIn(t.json, 'headless@example.com', 'headless-password');
    const writes = (await allOperations()).filter((op) => !['GET', 'HEAD', 'OPTIONS'].includes(op.method));
    // The exemption follows the document: public (security: []) and under /api/public/, or sign-in/out.
    for (const op of writes) {
      const exempt = op.path.startsWith('/api/public/');
      expect({ op: `${op.method} ${op.path}`, exempt }).toEqual({
        op: `${op.method} ${op.path}`,
        exempt: op.isPublic && !op.path.startsWith('/api/auth/'),
      });
    }
    expect(writes.filter((op) => op.path.startsWith('/api/public/')).length).toBeGreaterThanOrEqual(4);

    const before = await snapshot();
    for (const op of writes.filter((w) => !w.path.startsWith('/api/public/'))) {
      const url = op.path.replace(/\{[^}]+\}/g, '00000000-0000-4000-8000-000000000000');
      const res = await t.json(op.method, url, {}, { cookie, origin: undefined });
      expect({ op: `${op.method} ${op.path}`, status: res.status }).toEqual({ op: `${op.method} ${op.path}`, status: 403 });
      expect(await res.json()).toEqual({
        error: {
          code: 'forbidden',
          message: 'This request needs an Origin header. Send it from the pages of this site.',
          requestId: expect.any(String),
        },
      });
    }
    expect(await snapshot()).toEqual(before);

    // A browser that sends Sec-Fetch-Site but no Origin: same-origin goes through, anything else is refused.
    expect(
      (
        await t.json(
          'PATCH',
          '/api/account/preferences',
          { email_appointments: true },
          { cookie, origin: undefined, 'sec-fetch-site': 'same-origin' },
        )
      ).status,
    ).toBe(200);
    for (const site of ['cross-site', 'same-site', 'none']) {
      expect(
        (
          await t.json(
            'PATCH',
            '/api/account/preferences',
            { email_appointments: true },
            { cookie, origin: undefined, 'sec-fetch-site': site },
          )
        ).status,
      ).toBe(403);
    }
    // The public operations keep answering programs that send neither header.
    const lead = await t.json('POST', '/api/public/leads', validLead({ email: 'headless-lead@example.com' }), { origin: undefined });
    expect(lead.status).toBe(201);
    const event = await t.json(
      'POST',
      '/api/public/events',
      { session_id: 'HeAdLeSsHeAdLeSsHeAdLe', event_type: 'pageview', page_path: '/' },
      { origin: undefined, 'user-agent': 'Mozilla/5.0 (X11; Linux x86_64) Chrome/130.0' },
    );
    expect(event.status).toBe(204);
    const booking = await t.json('DELETE', `/api/public/bookings/${'A'.repeat(43)}`, undefined, { origin: undefined });
    expect(booking.status).toBe(404);
  });
});

describe('every public operation', () => {
  it('answers without any stored data, whatever it is asked', async () => {
    const t = createTestApp(database);
    await ensureAdmin(database.db, 'secret-admin@example.com', 'secret-admin-password');
    const cookie = await signIn(t.json, 'secret-admin@example.com', 'secret-admin-password');
    const submissionId = crypto.randomUUID();
    const stored = validLead({
      full_name: 'Quentin Storedrow',
      email: 'quentin.storedrow@example.com',
      phone: '(410) 555-7321',
      message: 'stored-message-7321',
      submission_id: submissionId,
    });
    expect((await t.json('POST', '/api/public/leads', stored)).status).toBe(201);
    const [lead] = await rowsOf<{ id: string }>(database.db, sql`select id from leads where submission_id = ${submissionId}`);
    const appointment = (await (
      await t.json(
        'POST',
        '/api/appointments',
        { lead_id: lead!.id, date: '2030-05-06', time: '09:30', type: 'Zoom', notes: 'stored-notes-7321' },
        { cookie },
      )
    ).json()) as { id: string };
    const feed = (await (await t.json('POST', '/api/calendar-feed', undefined, { cookie })).json()) as { url: string };
    const [user] = await rowsOf<{ id: string }>(database.db, sql`select id from users where email = 'secret-admin@example.com'`);
    const [notification] = await rowsOf<{ id: string }>(database.db, sql`select id from notifications limit 1`);
    const [session] = await rowsOf<{ token_hash: string }>(database.db, sql`select token_hash from sessions limit 1`);
    const secrets = [
      lead!.id,
      appointment.id,
      user!.id,
      notification!.id,
      session!.token_hash,
      cookie.split('=')[1]!,
      'Storedrow',
      'quentin.storedrow',
      '555-7321',
      'stored-message-7321',
      'stored-notes-7321',
      'secret-admin@example.com',
      'walker@example.com',
    ];

    // What each public operation is sent besides an empty request: the requests most likely
    // to leak, such as a replayed submission_id (answered without the stored row).
    const probes: Record<string, { body?: unknown; url?: string; headers?: Record<string, string> }[]> = {
      'POST /api/public/leads': [
        { body: stored },
        { body: { ...stored, full_name: 'Someone Else', email: 'else@example.com' } },
        { body: validLead({ email: 'quentin.storedrow@example.com' }) },
        { body: { ...stored, email: 'not an email' } },
      ],
      'POST /api/public/events': [
        { body: { session_id: 'AbCdEfGhIjKlMnOpQrStUv', event_type: 'pageview', page_path: '/' } },
        { body: { page_path: 'x'.repeat(5000) } },
      ],
      'POST /api/auth/login': [
        { body: { email: 'secret-admin@example.com', password: 'wrong-password' } },
        { body: { email: 'quentin.storedrow@example.com', password: 'wrong-password' } },
        { body: { email: 'secret-admin@example.com' } },
      ],
      'GET /api/auth/session': [{ headers: { cookie: `session=${session!.token_hash}` } }, { headers: { cookie: 'session=' } }],
      'POST /api/auth/logout': [{ headers: { cookie: `session=${'A'.repeat(43)}` } }],
      'GET /api/public/availability': [
        { url: `/api/public/availability?from=${new Date().toISOString().slice(0, 10)}&to=2030-05-07` },
        { url: '/api/public/availability?from=2030-05-01&to=2030-05-31' },
      ],
      'POST /api/public/bookings': [{ body: { booking_token: 'A'.repeat(43), start: '2030-05-06T09:30:00-04:00', type: 'Zoom' } }],
      'GET /api/public/bookings/{token}': [
        { url: `/api/public/bookings/${'A'.repeat(43)}` },
        { url: `/api/public/bookings/${session!.token_hash.slice(0, 43)}` },
      ],
      'PATCH /api/public/bookings/{token}': [
        { url: `/api/public/bookings/${'A'.repeat(43)}`, body: { start: '2030-05-06T09:30:00-04:00', type: 'Call' } },
      ],
      'DELETE /api/public/bookings/{token}': [{ url: `/api/public/bookings/${'A'.repeat(43)}` }],
      'GET /api/calendar/{token}/appointments.ics': [
        { url: `/api/calendar/${'A'.repeat(43)}/appointments.ics` },
        { url: `/api/calendar/${session!.token_hash.slice(0, 43)}/appointments.ics` },
        { url: `/api/calendar/${new URL(feed.url).pathname.split('/')[3]!.toLowerCase()}/appointments.ics` },
        { url: '/api/calendar/%27%20or%201%3D1--/appointments.ics' },
      ],
    };
    const publicOps = (await allOperations()).filter((op) => op.isPublic);
    expect(publicOps.map((op) => `${op.method} ${op.path}`)).toEqual(expect.arrayContaining(Object.keys(probes)));
    for (const op of publicOps) {
      const key = `${op.method} ${op.path}`;
      const requests = [{}, ...(probes[key] ?? [])];
      for (const probe of requests) {
        const url = probe.url ?? op.path.replace(/\{[^}]+\}/g, 'x');
        const res = await t.json(op.method, url, probe.body ?? (op.method === 'GET' ? undefined : {}), probe.headers);
        const text = await res.text();
        expect({ key, url, status: res.status }).toEqual({ key, url, status: expect.toSatisfy((s: number) => s < 500) });
        for (const secret of secrets)
          expect({ key, url, leaked: text.includes(secret) ? secret : null }).toEqual({ key, url, leaked: null });
      }
    }
    // The lead form's own answers: an acknowledgement only, even for the replay of a stored submission.
    expect(await (await t.json('POST', '/api/public/leads', stored)).json()).toEqual({
      status: 'received',
      booking_token: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
    });
  });
});
