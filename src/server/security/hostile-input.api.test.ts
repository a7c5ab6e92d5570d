import { defaultWebsiteContent } from '#shared/website-content';
import { sql } from 'drizzle-orm';
import fc from 'fast-check';
import * as z from 'zod';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ANALYTICS_EVENT_TYPES, LEAD_STATUSES, NOTIFICATION_TYPES, SESSION_ID_PATTERN } from '#shared/constants';
import { updateAppointmentRequestSchema } from '#shared/schemas/appointment';
import { bookingSettingsSchema } from '#shared/schemas/booking';
import { isoInZone, zonedInstant } from '#shared/zoned-time';
import { ERROR_CODES, errorResponseSchema } from '#shared/schemas/error';
import { EMAIL_PATTERN } from '#shared/rules/lead-fields';
import { leadFieldsSchema, leadStatusSchema } from '#shared/schemas/lead';
import { emailTemplateRequestSchema } from '#shared/schemas/email-template';
import { createApiKeyRequestSchema } from '#shared/schemas/api-keys';
import { createSession } from '../db/queries/sessions-queries.ts';
import { execute } from '../db/sql.ts';
import { ensureAdmin } from '../auth/accounts.ts';
import { createTestApp, validLead } from '../test/test-app.ts';
import { OPEN_EVERY_DAY, WORKS_EVERY_DAY } from '../test/open-every-day.ts';
import { useTestDatabase, rowsOf } from '../test/database.ts';
import {
  applyMutation,
  bodyMutation,
  headerValue,
  hostileHeaderNames,
  hostileString,
  hostileValue,
  loneSurrogateString,
  rawGarbage,
} from '../test/hostile.ts';

/**
 * Throws random and hostile requests at every operation in /api/openapi.json, without a
 * session and with a valid admin session, and checks after each one: never a 5xx, never a
 * stack trace or a file path, every 4xx in the one error envelope, and only valid rows in
 * the database. Each case is a few requests sent at once (concurrent writes share group-commit
 * batches and rows). A failure prints the fast-check seed and the shrunk requests; rerun one
 * with HOSTILE_SEED=<seed>.
 */
type Operation = { method: string; path: string; query: string[]; hasBody: boolean };
type Doc = { paths: Record<string, Record<string, { parameters?: { name: string; in: string }[]; requestBody?: unknown }>> };

const RUNS_PER_MODE = 200;
const ZERO_ID = '00000000-0000-4000-8000-000000000000';

const database = useTestDatabase();
let adminId: string;
let operations: Operation[];
let feedToken: string;
let bookingToken: string;
let t: ReturnType<typeof createTestApp>;
beforeAll(async () => {
  adminId = (await ensureAdmin(database.db, 'fuzz-admin@example.com', 'fuzz-admin-password')).user.id;
  // TRUST_PROXY, so each case can come from its own address and the per-IP limits rarely end the fun.
  // Webhook endpoints may name 127.0.0.1:9 (nothing listens there: refused at once); calendars' 127.0.0.1:1 stays refused.
  t = createTestApp(database, { TRUST_PROXY: 'on', OUTBOUND_ALLOW_HOSTS: '127.0.0.1:9' });
  const cookie = `session=${await createSession(database.db, adminId)}`;
  const feed = (await (await t.json('POST', '/api/calendar-feed', undefined, { cookie })).json()) as { url: string };
  feedToken = new URL(feed.url).pathname.split('/')[3]!;
  // Open every day, no notice: hostile bookings reach the database's own checks.
  await t.json('PUT', '/api/booking-settings', OPEN_EVERY_DAY, { cookie });
  await t.json('PUT', '/api/account/availability', WORKS_EVERY_DAY, { cookie });
  bookingToken = ((await (await t.json('POST', '/api/public/leads', validLead())).json()) as { booking_token: string }).booking_token;
  // Mail in the Inbox, with a file: the Inbox's and the replies' operations reach real rows.
  await execute(
    database.db,
    sql`with m as (insert into inbound_emails (mailbox, uidvalidity, uid, from_address, subject, body) values ('fuzz', 1, 1, 'fuzz@example.org', 'Hi', 'Text') returning id)
        insert into inbound_attachments (email_id, filename, content_type, size, content) select id, 'a.pdf', 'application/pdf', 1, '\\x01' from m`,
  );
  const doc = (await (await t.app.request('/api/openapi.json')).json()) as Doc;
  operations = Object.entries(doc.paths).flatMap(([path, methods]) =>
    Object.entries(methods).map(([method, op]) => ({
      method: method.toUpperCase(),
      path,
      query: (op.parameters ?? []).filter((p) => p.in === 'query').map((p) => p.name),
      hasBody: op.requestBody !== undefined,
    })),
  );
});
const stats = new Map<string, number>();
afterAll(async () => {
  if (process.env.HOSTILE_STATS)
    console.log(
      [...stats]
        .sort()
        .map(([k, n]) => `${k}: ${n}`)
        .join('\n'),
    );
});

/** The table behind a path's first segment after /api/ (`/api/email/{id}/retry` is about `emails`). */
const TABLES: Record<string, string> = {
  leads: 'leads',
  appointments: 'appointments',
  notifications: 'notifications',
  email: 'emails',
  'email-templates': 'email_templates',
  replies: 'inbound_emails',
  inbox: 'inbound_emails',
  pipeline: 'pipeline_stages',
  team: 'users',
  account: 'sessions',
  'api-keys': 'api_keys',
  webhooks: 'webhook_endpoints',
};
/** The column that orders a resource's rows by age, where it is not created_at. */
const NEWEST_BY: Record<string, string> = { replies: 'received_at', inbox: 'received_at' };
/** A well-formed one-time link token (set-up, invitation) that matches nothing. */
const LINK_TOKEN = 'A'.repeat(43);
const firstInviteId = async () =>
  (
    await rowsOf<{ id: string }>(
      database.db,
      sql`select left(token_hash, 16) as id from account_tokens where kind = 'invite' order by created_at desc limit 1`,
    )
  )[0]?.id ?? '0'.repeat(16);
let inviteIndex = 0;
const firstId = async (resource: string) =>
  (
    await rowsOf<{ id: string }>(
      database.db,
      sql`select id from ${sql.identifier(TABLES[resource] ?? resource)} order by ${sql.identifier(NEWEST_BY[resource] ?? 'created_at')} desc limit 1`,
    )
  )[0]?.id ?? ZERO_ID;

/** A valid body for the operations that take one, built against the rows that exist now. */
async function validBody(key: string): Promise<Record<string, unknown>> {
  switch (key) {
    case 'POST /api/public/leads':
      return validLead();
    case 'POST /api/leads':
      return validLead({ submission_id: undefined, fill_ms: undefined });
    case 'PATCH /api/leads/{id}':
      return { full_name: 'Renamed Person', contacted: true, status: 'Converted', message: 'Updated' };
    case 'POST /api/appointments':
      return { lead_id: await firstId('leads'), date: '2030-03-04', time: '09:30', type: 'Call', notes: 'Bring comps' };
    case 'PATCH /api/appointments/{id}':
      return { date: '2030-03-05', time: '10:45', type: 'Zoom', notes: 'Moved' };
    case 'POST /api/appointments/bulk-cancel':
      return {
        network: '203.0.113.7',
        booked_from: '2030-01-01T00:00:00Z',
        booked_to: '2030-01-02T00:00:00.000+02:00',
        notify: false,
        dry_run: true,
      };
    case 'POST /api/public/events':
      return { session_id: 'AbCdEfGhIjKlMnOpQrStUv', event_type: 'heartbeat', page_path: '/', time_spent: 30 };
    case 'POST /api/auth/login':
      return { email: 'fuzz-admin@example.com', password: 'not-the-password' };
    case 'POST /api/public/bookings':
      return { booking_token: bookingToken, start: nextSlot(), type: 'Call' };
    case 'PATCH /api/public/bookings/{token}':
      return { start: nextSlot(), type: 'Zoom' };
    case 'PUT /api/booking-settings':
      return OPEN_EVERY_DAY;
    case 'PUT /api/website':
      return { ...defaultWebsiteContent('Fuzz Diligence'), headline: 'A fuzzed headline' };
    case 'POST /api/leads/import': {
      const n = importIndex++;
      const row = (k: number) => ({
        full_name: `Imported ${n}-${k}`,
        email: `imported-${n}-${k}@example.com`,
        phone: '301 555 0100',
        property_type: 'Single Family',
        estimated_fee: '$1,200.50',
      });
      return { rows: [row(1), row(2)], duplicates: 'update', dry_run: false, file_name: 'fuzz.csv' };
    }
    case 'POST /api/team/invites':
      return { email: `fuzz-invite-${inviteIndex++}@example.com`, role: 'staff' };
    case 'PATCH /api/team/members/{id}':
      return { role: 'staff' };
    case 'POST /api/team/members/{id}/reassign':
      return { to: adminId };
    case 'POST /api/auth/invites/accept': {
      // A real invitation, made now, so the acceptance can go through.
      const made = await t.json(
        'POST',
        '/api/team/invites',
        { email: `fuzz-joiner-${inviteIndex++}@example.com`, role: 'staff' },
        { cookie: `session=${await createSession(database.db, adminId)}` },
      );
      const token = ((await made.json()) as { link?: string }).link?.split('/invite/')[1] ?? LINK_TOKEN;
      return { token, display_name: 'Fuzz Joiner', password: 'fuzz-joiner-password', confirm: 'fuzz-joiner-password' };
    }
    case 'POST /api/account/email':
      return { email: 'fuzz-admin@example.com', current_password: 'fuzz-admin-password' };
    case 'POST /api/account/password':
      return { current_password: 'fuzz-admin-password', password: 'fuzz-admin-password', confirm: 'fuzz-admin-password' };
    case 'POST /api/auth/password-reset':
      return { email: 'fuzz-admin@example.com' };
    case 'POST /api/auth/password-reset/confirm':
      return { token: LINK_TOKEN, password: 'fuzz-reset-password', confirm: 'fuzz-reset-password' };
    case 'POST /api/auth/login/two-factor':
      return { code: '123456', remember_device: true };
    case 'POST /api/account/two-factor/confirm':
      return { code: '123456' };
    case 'POST /api/account/two-factor/disable':
    case 'POST /api/account/two-factor/recovery-codes':
      return { current_password: 'fuzz-admin-password' };
    case 'PUT /api/settings/security':
      return { require_two_factor: false };
    case 'POST /api/auth/setup':
      return {
        token: LINK_TOKEN,
        display_name: 'First Owner',
        email: 'first@example.com',
        password: 'first-password',
        confirm: 'first-password',
      };
    case 'PUT /api/account/profile':
      return { display_name: 'Fuzz Admin', phone: '(301) 555-0100' };
    case 'PATCH /api/account/preferences':
      return { email_new_leads: false, email_appointments: true, email_weekly_report: true };
    case 'PUT /api/account/availability':
    case 'PUT /api/team/members/{id}/availability':
      return {
        bookable: true,
        hours: [
          [
            { start: '09:00', end: '12:00' },
            { start: '13:00', end: '17:00' },
          ],
          [],
          [],
          [],
          [],
          [],
          [],
        ],
        days_off: ['2030-01-02'],
        holidays_off: false,
      };
    case 'POST /api/account/calendars':
      // This machine's loopback, which the fuzzed app does not allow: refused before any connection.
      return { kind: 'ics', url: 'http://127.0.0.1:1/fuzz.ics' };
    case 'POST /api/leads/{id}/merge': {
      // A duplicate of the newest lead (same email), if there is one: the merge goes through.
      const [other] = await rowsOf<{ id: string }>(
        database.db,
        sql`
        select d.id from leads d join (select id, email from leads order by created_at desc limit 1) n on d.email = n.email and d.id <> n.id limit 1`,
      );
      return { other_id: other?.id ?? ZERO_ID, keep: { full_name: 'other', status: 'this', owner_id: 'other' } };
    }
    case 'POST /api/email-templates':
    case 'PUT /api/email-templates/{id}':
      return { name: `Fuzz ${templateIndex++}`, subject: 'For {{first_name}}', body: 'Hello {{full_name}}: {{booking_link}}' };
    case 'POST /api/webhooks':
      return { url: 'http://127.0.0.1:9/fuzz', events: ['lead.created', 'lead.updated'] };
    case 'PATCH /api/webhooks/{id}':
      return { events: ['lead.updated'], paused: false, rotate_secret: true };
    case 'POST /api/email-templates/preview':
      return { lead_id: await firstId('leads'), subject: 'For {{first_name}}', body: 'At {{property_address}}' };
    case 'POST /api/inbox/{id}/attach':
      return { lead_id: await firstId('leads') };
    case 'POST /api/inbox/{id}/lead':
      return validLead({ submission_id: undefined, fill_ms: undefined });
    case 'POST /api/leads/{id}/emails':
      return { subject: 'Hi {{first_name}}', body: 'Pick a time: {{booking_link}}' };
    case 'POST /api/leads/{id}/calls':
      return { outcome: 'connected', duration_minutes: 12, notes: 'Wants the survey first.' };
    case 'POST /api/leads/{id}/tasks':
      return { type: 'call', title: 'Call about the survey', due_at: new Date(Date.now() + 3_600_000).toISOString() };
    case 'PATCH /api/leads/{id}/tasks/{task_id}':
      return { done: true, title: 'Done in the fuzz' };
    case 'POST /api/pipeline/stages':
      return { name: `Fuzz stage ${stageIndex++}`, status: 'Contacted', probability: 40 };
    case 'PATCH /api/pipeline/stages/{id}':
      return { name: `Fuzz stage ${stageIndex++}`, position: 1 };
    case 'POST /api/pipeline/lost-reasons':
    case 'PATCH /api/pipeline/lost-reasons/{id}':
      return { name: `Fuzz reason ${stageIndex++}` };
    case 'POST /api/api-keys':
      return { name: `Fuzz key ${stageIndex++}`, scopes: ['leads:read', 'appointments:write'] };
    default:
      return {};
  }
}
let templateIndex = 0;
let stageIndex = 0;
let importIndex = 0;
/** An open time the day after tomorrow (New York), a different one each call. */
let slotIndex = 0;
const nextSlot = () => {
  const date = new Date(Date.now() + 2 * 86_400_000).toISOString().slice(0, 10);
  const minutes = 9 * 60 + 30 * (slotIndex++ % 16);
  return zonedIso(date, minutes);
};
const zonedIso = (date: string, minutes: number) => isoInZone(zonedInstant(date, minutes, 'America/New_York')!, 'America/New_York');
const BODY_KEYS = [
  'booking_token',
  'start',
  'enabled',
  'hours',
  'slot_minutes',
  'buffer_minutes',
  'min_notice_hours',
  'horizon_days',
  'types',
  'days_off',
  'duration_minutes',
  'location',
  'allow_overlap',
  'full_name',
  'email',
  'phone',
  'property_types',
  'message',
  'submission_id',
  'fill_ms',
  'website',
  'analytics_session_id',
  'contacted',
  'status',
  'lead_id',
  'date',
  'time',
  'type',
  'notes',
  'session_id',
  'event_type',
  'page_path',
  'time_spent',
  'referrer',
  'password',
  'email_new_leads',
  'email_appointments',
  'email_weekly_report',
  'other_id',
  'keep',
  'rows',
  'duplicates',
  'dry_run',
  'file_name',
  'first_row',
  'ids',
  'action',
  'owner_id',
  'name',
  'probability',
  'position',
  'stage_id',
  'lost_reason',
  'outcome',
];

const requestCase = fc.record({
  op: fc.nat(),
  pathParam: fc.oneof(
    fc.constantFrom('real' as const, 'zero' as const),
    hostileString.filter((s) => s.length < 3000 && s !== '.' && s !== '..').map((s) => ({ text: s })),
    // Already percent-encoded, malformed on purpose: a bare %, bad hex, invalid UTF-8, NUL.
    fc.constantFrom('%', '%zz', '%ED%A0%80', '%C0%AF', '%00', '%2F..%2F..', '%E2%80%AE').map((raw) => ({ raw })),
  ),
  query: fc.array(
    fc.tuple(
      fc.oneof(fc.nat(9), fc.constantFrom('__proto__', 'page[0]', 'search[]', 'x')),
      hostileString.filter((s) => s.length < 6000),
    ),
    { maxLength: 4 },
  ),
  body: fc.oneof(
    { weight: 3, arbitrary: bodyMutation(BODY_KEYS).map((m) => ({ kind: 'mutated' as const, m })) },
    { weight: 1, arbitrary: hostileValue.map((v) => ({ kind: 'json' as const, text: JSON.stringify(v) ?? 'null' })) },
    { weight: 1, arbitrary: rawGarbage.map((text) => ({ kind: 'raw' as const, text })) },
  ),
  headers: fc.dictionary(fc.constantFrom(...hostileHeaderNames), headerValue, { maxKeys: 2 }),
  cookieJunk: fc.option(headerValue, { nil: undefined }),
  // Mostly our own (as the site's pages send it), so most writes get past the cross-site
  // check to the handlers; sometimes none (a program: only /api/public/ writes accept that).
  origin: fc.oneof(
    { weight: 6, arbitrary: fc.constant('http://localhost') },
    { weight: 2, arbitrary: fc.constantFrom(undefined, 'https://evil.example', 'https://localhost', 'null') },
  ),
  ip: fc.ipV4(),
});
type RequestCase = typeof requestCase extends fc.Arbitrary<infer T> ? T : never;

/** Lone surrogates become U+FFFD (encodeURIComponent throws on them; the raw cases send invalid UTF-8). */
const wellFormed = (s: string) => s.replace(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g, '\ufffd');

async function send(c: RequestCase, signedIn: boolean) {
  const op = operations[c.op % operations.length]!;
  const key = `${op.method} ${op.path}`;
  let path = op.path;
  for (const [, name] of op.path.matchAll(/\{([^}]+)\}/g)) {
    const resource = op.path.split('/')[2];
    const real = async () =>
      resource === 'calendar'
        ? feedToken
        : resource === 'public'
          ? bookingToken
          : resource === 'auth'
            ? LINK_TOKEN
            : op.path.startsWith('/api/team/invites')
              ? firstInviteId()
              : op.path.startsWith('/api/pipeline/lost-reasons')
                ? firstId('lost_reasons')
                : name === 'task_id'
                  ? firstId('lead_tasks')
                  : name === 'delivery_id'
                    ? firstId('webhook_deliveries')
                    : firstId(resource!);
    const p = c.pathParam;
    const value = p === 'real' ? await real() : p === 'zero' ? ZERO_ID : 'raw' in p ? p.raw : encodeURIComponent(wellFormed(p.text));
    path = path.replace(`{${name}}`, value);
  }
  const params = new URLSearchParams();
  for (const [name, value] of c.query)
    params.append(typeof name === 'number' ? (op.query[name % Math.max(op.query.length, 1)] ?? 'x') : name, value);
  const url = params.size ? `${path}?${params}` : path;

  const headers: Record<string, string> = { 'content-type': 'application/json', 'x-forwarded-for': c.ip, ...c.headers };
  if (c.origin) headers.origin = c.origin;
  const cookies = [signedIn ? `session=${await createSession(database.db, adminId)}` : undefined, c.cookieJunk].filter(Boolean);
  if (cookies.length) headers.cookie = cookies.join('; ');
  let body: string | undefined;
  if (op.method !== 'GET' && op.method !== 'HEAD') {
    body = c.body.kind === 'mutated' ? JSON.stringify(applyMutation(await validBody(key), c.body.m)) : c.body.text;
  }
  const res = await t.app.request(url, { method: op.method, headers, body });
  if (process.env.HOSTILE_STATS) stats.set(`${key} ${signedIn} ${res.status}`, (stats.get(`${key} ${signedIn} ${res.status}`) ?? 0) + 1);
  return { key, url, res };
}

// A stack frame, a source file position, a path on this machine, or an error class name.
const LEAKS = [
  /\n\s+at /,
  /\bat [\w$.<>]+ \(/,
  /\.(?:ts|js|mjs|cjs):\d+/,
  /node_modules|\/work\/|\/usr\/|\/root\/|file:\/\//,
  /\b(?:TypeError|ReferenceError|SyntaxError|RangeError|ZodError|DrizzleQueryError|DatabaseError|error: )/,
];

async function checkAnswer({ key, url, res }: Awaited<ReturnType<typeof send>>) {
  const where = `${key} -> ${url.slice(0, 200)}`;
  expect(res.status, `${where}: ${res.status}`).toBeLessThan(500);
  if ((res.headers.get('content-type') ?? '').startsWith('text/event-stream')) {
    await res.body?.cancel();
    return;
  }
  const text = await res.text();
  if (res.status < 400) {
    for (const leak of LEAKS.slice(0, 4)) expect(leak.test(text), `${where}: body matches ${leak}`).toBe(false);
    return;
  }
  for (const leak of LEAKS) expect(leak.test(text), `${where}: error body matches ${leak}: ${text.slice(0, 300)}`).toBe(false);
  const parsed = errorResponseSchema.safeParse(JSON.parse(text));
  expect(parsed.success, `${where}: not the error envelope: ${text.slice(0, 300)}`).toBe(true);
  const { error } = parsed.data!;
  expect(Object.keys(JSON.parse(text) as object)).toEqual(['error']);
  expect(ERROR_CODES[error.code], `${where}: ${error.code} with status ${res.status}`).toBe(res.status);
  expect(error.requestId).toMatch(/^[0-9a-f-]{36}$/);
}

const storedLead = leadFieldsSchema.extend({ status: leadStatusSchema, contacted: z.boolean() });

/** Every stored row still obeys the shared schemas and references rows that exist. */
async function checkDatabase() {
  const keys = await rowsOf<{ name: string; scopes: string[] }>(database.db, sql`select name, scopes from api_keys`);
  for (const key of keys) expect(createApiKeyRequestSchema.parse(key), `invalid API key row ${JSON.stringify(key)}`).toEqual(key);
  const leads = await rowsOf<Record<string, unknown>>(
    database.db,
    sql`select full_name, email, phone, property_types, message, status, contacted from leads`,
  );
  for (const lead of leads) {
    const parsed = storedLead.safeParse(lead);
    expect(parsed.success, `invalid lead row ${JSON.stringify(lead).slice(0, 300)}`).toBe(true);
    // Stored as the schema normalises it (trimmed, lower-case email): parsing changes nothing.
    expect(parsed.data).toEqual(lead);
  }
  const appointments = await rowsOf<{
    date: string;
    time: string;
    type: string;
    notes: string | null;
    duration_minutes: number;
    location: string | null;
    status: 'scheduled';
    lead_ok: boolean;
  }>(
    database.db,
    sql`select to_char(date, 'YYYY-MM-DD') as date, to_char(time, 'HH24:MI') as time, to_char(time, 'SS') = '00' as whole_minute, type, notes,
          duration_minutes, location, status,
          (lead_id is null or exists (select 1 from leads l where l.id = a.lead_id)) as lead_ok
        from appointments a`,
  );
  for (const a of appointments) {
    expect(a).toMatchObject({ lead_ok: true, whole_minute: true });
    const { date, time, type, notes, duration_minutes, location, status } = a;
    expect(
      updateAppointmentRequestSchema.safeParse({ date, time, type, notes, duration_minutes, location, status }).success,
      JSON.stringify(a).slice(0, 300),
    ).toBe(true);
  }
  for (const row of await rowsOf<{ settings: unknown }>(database.db, sql`select settings from booking_settings`)) {
    expect(bookingSettingsSchema.safeParse(row.settings).success, JSON.stringify(row.settings).slice(0, 300)).toBe(true);
  }
  const orphans = await rowsOf<{ n: number }>(
    database.db,
    sql`select (select count(*) from notifications n where n.type not in (${sql.join(
      NOTIFICATION_TYPES.map((v) => sql`${v}`),
      sql`, `,
    )})
              or not exists (select 1 from users u where u.id = n.user_id))
          + (select count(*) from lead_status_changes s where s.to_status not in (${sql.join(
            LEAD_STATUSES.map((v) => sql`${v}`),
            sql`, `,
          )})
              or not exists (select 1 from leads l where l.id = s.lead_id))
          + (select count(*) from calendar_feeds f where not exists (select 1 from users u where u.id = f.user_id))
          + (select count(*) from sessions s where not exists (select 1 from users u where u.id = s.user_id))
          + (select count(*) from booking_tokens b where not exists (select 1 from leads l where l.id = b.lead_id)) as n`,
  );
  expect(Number(orphans[0]!.n)).toBe(0);
  // The team keeps an active owner (the fuzzing admin: nobody else can become one), and every account and invitation is well-formed.
  const team = await rowsOf<{ ok: boolean; email: string }>(
    database.db,
    sql`select (role in ('owner', 'staff') and email ~* ${EMAIL_PATTERN.source} and email = lower(email)) as ok, email from users
        union all select (kind in ('invite', 'password_reset') and email ~* ${EMAIL_PATTERN.source}), email from account_tokens`,
  );
  for (const row of team) expect(row, `invalid account or token for ${row.email}`).toMatchObject({ ok: true });
  expect(
    await rowsOf(database.db, sql`select 1 from users where id = ${adminId} and role = 'owner' and deactivated_at is null`),
  ).toHaveLength(1);
  const emails = await rowsOf<{ ok: boolean; mail: string }>(
    database.db,
    sql`select (status in ('queued', 'sent', 'failed', 'not_sent') and to_address ~* ${EMAIL_PATTERN.source}
              and (lead_id is null or exists (select 1 from leads l where l.id = e.lead_id))) as ok, to_address as mail
        from emails e`,
  );
  for (const e of emails) expect(e, `invalid email row to ${e.mail}`).toMatchObject({ ok: true });
  // Every email template as the API takes it: trimmed, within its limits, and only fields we can fill in.
  for (const row of await rowsOf<{ name: string; subject: string; body: string }>(
    database.db,
    sql`select name, subject, body from email_templates`,
  )) {
    const parsed = emailTemplateRequestSchema.safeParse(row);
    expect(parsed.success, `invalid email template ${JSON.stringify(row).slice(0, 300)}`).toBe(true);
    expect(parsed.data).toEqual(row);
  }
  const events = await rowsOf<{ session_id: string; event_type: string; page_path: string; time_spent: number | null }>(
    database.db,
    sql`select session_id, event_type, page_path, time_spent from analytics_events`,
  );
  for (const e of events) {
    expect(
      SESSION_ID_PATTERN.test(e.session_id) && (ANALYTICS_EVENT_TYPES as readonly string[]).includes(e.event_type),
      JSON.stringify(e),
    ).toBe(true);
    expect(
      e.page_path.startsWith('/') && e.page_path.length <= 512 && (e.time_spent === null || (e.time_spent >= 0 && e.time_spent <= 3600)),
    ).toBe(true);
  }
}

const seed = process.env.HOSTILE_SEED ? Number(process.env.HOSTILE_SEED) : undefined;

describe('hostile input to every operation in the OpenAPI document', () => {
  it.each([
    ['without a session', false],
    ['with a valid admin session', true],
  ])(
    'never answers 5xx or a stack trace, keeps the error envelope and stores only valid rows, %s',
    async (_name, signedIn) => {
      expect(operations.length).toBeGreaterThan(20);
      await fc.assert(
        fc.asyncProperty(fc.array(requestCase, { minLength: 1, maxLength: 4 }), async (cases) => {
          const answers = await Promise.all(cases.map((c) => send(c, signedIn)));
          for (const answer of answers) await checkAnswer(answer);
          await checkDatabase();
        }),
        { numRuns: RUNS_PER_MODE, seed, endOnFailure: false },
      );
    },
    120_000,
  );
});

describe('a concurrent burst of analytics events with hostile text', () => {
  const valid = (n: number) => ({
    session_id: `burstvisitor${String(n).padStart(6, '0')}`,
    event_type: 'pageview',
    page_path: `/burst${n % 5}`,
  });
  let ip = 0;
  const post = (body: unknown) =>
    t.app.request('/api/public/events', {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'user-agent': 'Mozilla/5.0 (X11; Linux x86_64) Chrome/126.0',
        'x-forwarded-for': `198.18.${(ip >> 8) & 255}.${ip++ & 255}`,
      },
      body: JSON.stringify(body),
    });
  const stored = async () => Number((await rowsOf<{ n: number }>(database.db, sql`select count(*)::int as n from analytics_events`))[0]!.n);

  it('never answers 5xx, and every valid event sent with the hostile ones is stored', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(
          fc.oneof(loneSurrogateString, hostileString).map((text) => `/${text}`),
          { minLength: 1, maxLength: 6 },
        ),
        fc.array(fc.constantFrom('page_path', 'referrer', 'utm_source'), { minLength: 1, maxLength: 6 }),
        async (texts, fields) => {
          const before = await stored();
          // Each text with its twin whose lone surrogates are U+FFFD: two strings in Node, one value in
          // PostgreSQL (the finding: a batch upserting one rollup row twice failed as a whole).
          const hostile = texts.flatMap((text, i) =>
            [text, wellFormed(text)].map((t) => ({ ...valid(1000 + i), [fields[i % fields.length]!]: t })),
          );
          const legit = Array.from({ length: 10 }, (_, i) => valid(i));
          // The hostile events in the middle of the burst, so they share a batch with valid ones.
          const bodies = [...legit.slice(0, 5), ...hostile, ...legit.slice(5)];
          const statuses = await Promise.all(bodies.map(async (body) => (await post(body)).status));
          expect(
            statuses.every((s) => s < 500),
            JSON.stringify(statuses),
          ).toBe(true);
          expect([...statuses.slice(0, 5), ...statuses.slice(5 + hostile.length)]).toEqual(Array(10).fill(204));
          expect(await stored()).toBe(before + statuses.filter((s) => s === 204).length);
        },
      ),
      { numRuns: 60, seed, endOnFailure: false },
    );
  }, 120_000);
});
