import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execute } from '../db/sql.ts';
import { sendDueReminders } from '../db/queries/reminders-queries.ts';
import { ensureAdmin, resetPassword } from '../auth/accounts.ts';
import { deleteUser } from '../db/queries/users-queries.ts';
import { createTestApp, signIn, validLead } from '../test/test-app.ts';
import { useTestDatabase, rowsOf } from '../test/database.ts';
import { sseReader } from '../test/sse.ts';

const database = useTestDatabase();
let stopListening: () => Promise<void>;
let t: ReturnType<typeof createTestApp>;
beforeAll(async () => {
  t = createTestApp(database);
  stopListening = await t.hub.connect(database, (await import('pino')).pino({ level: 'silent' }));
});
afterAll(async () => {
  await stopListening();
});

describe('GET /api/notifications/stream', () => {
  it('sends ready, then each new notification of the signed-in admin live, and not other admins’', async () => {
    await ensureAdmin(database.db, 'live@example.com', 'live-password');
    const cookie = await signIn(t.json, 'live@example.com', 'live-password');
    const controller = new AbortController();
    const res = await t.app.request('/api/notifications/stream', { headers: { cookie }, signal: controller.signal });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('text/event-stream');
    const stream = sseReader(res);
    expect((await stream.next()).event).toBe('ready');

    // Another user's notification must not arrive on this stream.
    const other = await ensureAdmin(database.db, 'other@example.com', 'other-password');
    await execute(database.db, sql`insert into notifications (user_id, type, message) values (${other.user.id}, 'lead', 'not yours')`);

    await t.json('POST', '/api/public/leads', validLead({ full_name: 'Live Lead' }));
    const event = await stream.next();
    expect(event.event).toBe('notification');
    const payload = JSON.parse(event.data) as { id: string; type: string; message: string; read: boolean };
    expect(payload).toMatchObject({ type: 'lead', message: 'New lead: Live Lead (jane@example.com)', read: false });
    expect(event.id).toBe(payload.id);
    controller.abort();
    await stream.cancel();
    expect(t.hub.connectionCount).toBe(0);
  });
});

describe('live changes', () => {
  it('tells every open stream that leads or appointments changed, whoever changed them, once per transaction and never for a statement that changed nothing', async () => {
    await ensureAdmin(database.db, 'watcher@example.com', 'watcher-password');
    const cookie = await signIn(t.json, 'watcher@example.com', 'watcher-password');
    const controller = new AbortController();
    const res = await t.app.request('/api/notifications/stream', { headers: { cookie }, signal: controller.signal });
    const stream = sseReader(res, { ignore: ['notification'] });
    expect((await stream.next()).event).toBe('ready');

    // A statement that changes nothing (a job's UPDATE with nothing due) announces nothing …
    await execute(database.db, sql`update leads set phone = '1' where false`);
    // … an appointment made straight in the database (as another process would) is announced.
    await execute(database.db, sql`insert into appointments (date, time, type) values ('2030-01-01', '10:00', 'Call')`);
    expect(await stream.next()).toMatchObject({ event: 'change', data: JSON.stringify({ resource: 'appointments' }) });
    // 50 leads changed in one statement: one announcement (equal ones fold within a transaction).
    await execute(
      database.db,
      sql`insert into leads (full_name, email, phone, property_types)
      select 'Bulk ' || i, 'bulk' || i || '@example.com', '1', array['land'] from generate_series(1, 50) i`,
    );
    expect(await stream.next()).toMatchObject({ event: 'change', data: JSON.stringify({ resource: 'leads' }) });
    await execute(database.db, sql`insert into appointments (date, time, type) values ('2030-01-02', '10:00', 'Call')`);
    expect(await stream.next()).toMatchObject({ event: 'change', data: JSON.stringify({ resource: 'appointments' }) });
    controller.abort();
    await stream.cancel();
  });
});

describe('appointment reminders', () => {
  it('notify every admin once per appointment, even when run concurrently and repeatedly', async () => {
    await execute(database.db, sql`truncate appointments, notifications, users cascade`);
    await ensureAdmin(database.db, 'one@example.com', 'one-password');
    await ensureAdmin(database.db, 'two@example.com', 'two-password');
    const tz = 'America/New_York';
    // One in 30 minutes (due), one in 3 hours (not yet), one 2 hours ago (missed: never reminded).
    for (const [offset, type] of [
      ['30 minutes', 'Call'],
      ['3 hours', 'Zoom'],
      ['-2 hours', 'On-site'],
    ] as const) {
      await execute(
        database.db,
        sql`
        insert into appointments (date, time, type)
        select (local)::date, (local)::time, ${type}
        from (select date_trunc('minute', (now() + ${offset}::interval) at time zone ${tz}) as local) x`,
      );
    }
    const sent = await Promise.all([sendDueReminders(database.db, tz, 60), sendDueReminders(database.db, tz, 60)]);
    expect(sent[0] + sent[1]).toBe(2);
    expect(await sendDueReminders(database.db, tz, 60)).toBe(0);
    const rows = await rowsOf<{ type: string; message: string }>(database.db, sql`select type, message from notifications`);
    expect(rows).toHaveLength(2);
    for (const row of rows) {
      expect(row.type).toBe('appointment');
      expect(row.message).toMatch(/^Upcoming Call with Unknown Lead at \d{1,2}:\d\d [AP]M$/);
    }
  });

  it('name the lead of the appointment, so a click opens the lead', async () => {
    await execute(database.db, sql`truncate appointments, notifications, users, leads cascade`);
    await ensureAdmin(database.db, 'one@example.com', 'one-password');
    const tz = 'America/New_York';
    const [lead] = await rowsOf<{ id: string }>(
      database.db,
      sql`insert into leads (full_name, email, phone, property_types)
      values ('Remi Nder', 'remi@example.com', '1', array['land']) returning id`,
    );
    await execute(
      database.db,
      sql`
      insert into appointments (lead_id, date, time, type)
      select ${lead!.id}, (local)::date, (local)::time, 'Call'
      from (select date_trunc('minute', (now() + interval '30 minutes') at time zone ${tz}) as local) x`,
    );
    expect(await sendDueReminders(database.db, tz, 60)).toBe(1);
    const rows = await rowsOf<{ message: string; lead_id: string | null }>(database.db, sql`select message, lead_id from notifications`);
    expect(rows).toEqual([{ message: expect.stringMatching(/^Upcoming Call with Remi Nder at /), lead_id: lead!.id }]);
  });
});

describe('stream and session', () => {
  /** Signs in a fresh admin and opens a stream that has said `ready`. */
  async function openStream(email: string) {
    await ensureAdmin(database.db, email, 'stream-password');
    const cookie = await signIn(t.json, email, 'stream-password');
    const res = await t.app.request('/api/notifications/stream', { headers: { cookie } });
    expect(res.status).toBe(200);
    const stream = sseReader(res);
    expect((await stream.next()).event).toBe('ready');
    return { cookie, stream };
  }

  /** Resolves to how long the stream took to end; fails if it delivers any event first. */
  async function endedWithin(stream: ReturnType<typeof sseReader>, since: number, timeoutMs: number): Promise<number> {
    await expect(stream.next(timeoutMs)).rejects.toThrow('SSE stream ended');
    return Date.now() - since;
  }

  it('ends at once when its session signs out in this process, and delivers nothing after', async () => {
    const { cookie, stream } = await openStream('leaver@example.com');
    const started = Date.now();
    expect((await t.json('POST', '/api/auth/logout', undefined, { cookie })).status).toBe(200);
    await t.json('POST', '/api/public/leads', validLead({ full_name: 'After Sign Out' }));
    expect(await endedWithin(stream, started, 3000)).toBeLessThan(1000);
  });

  it('ends at once when the browser signs in again (its old session is replaced), well before a session check', async () => {
    const { cookie, stream } = await openStream('again@example.com');
    const started = Date.now();
    const again = await t.json('POST', '/api/auth/login', { email: 'again@example.com', password: 'stream-password' }, { cookie });
    expect(again.status).toBe(200);
    // Nothing is sent meanwhile: only the sign-in can end it this soon (the periodic check is 5 s).
    expect(await endedWithin(stream, started, 8000)).toBeLessThan(Math.min(1000, t.hub.limits.sessionCheckMs));
  });

  it('ends within one session check (5 s) of a password reset by npm run admin, and delivers nothing meanwhile', async () => {
    const { stream } = await openStream('reset@example.com');
    const started = Date.now();
    // What `npm run admin -- reset-password` runs, from another process as far as this hub knows.
    expect(await resetPassword(database.db, 'reset@example.com', 'a-new-password')).toBe(true);
    await t.json('POST', '/api/public/leads', validLead({ full_name: 'After Reset' }));
    expect(await endedWithin(stream, started, 8000)).toBeLessThan(t.hub.limits.sessionCheckMs + 1500);
  });

  it('ends within one session check of the admin being deleted, and delivers nothing meanwhile', async () => {
    const { stream } = await openStream('deleted@example.com');
    const started = Date.now();
    expect(await deleteUser(database.db, 'deleted@example.com')).toBe(true);
    await t.json('POST', '/api/public/leads', validLead({ full_name: 'After Delete' }));
    expect(await endedWithin(stream, started, 8000)).toBeLessThan(t.hub.limits.sessionCheckMs + 1500);
  });

  it('refuses the eleventh open stream of one session with 429 and a JSON error; another session still gets one', async () => {
    await ensureAdmin(database.db, 'tabs@example.com', 'tabs-password');
    const cookie = await signIn(t.json, 'tabs@example.com', 'tabs-password');
    const controllers = Array.from({ length: 10 }, () => new AbortController());
    const open = await Promise.all(
      controllers.map((c) => t.app.request('/api/notifications/stream', { headers: { cookie }, signal: c.signal })),
    );
    expect(open.map((r) => r.status)).toEqual(Array(10).fill(200));
    const eleventh = await t.app.request('/api/notifications/stream', { headers: { cookie } });
    expect(eleventh.status).toBe(429);
    expect(eleventh.headers.get('content-type')).toContain('application/json');
    expect(((await eleventh.json()) as { error: { code: string; message: string } }).error).toMatchObject({
      code: 'rate_limited',
      message: 'Too many live notification streams are open for this sign-in: close some tabs. Please try again in 1 minute.',
    });
    const otherCookie = await signIn(t.json, 'tabs@example.com', 'tabs-password');
    const other = new AbortController();
    expect((await t.app.request('/api/notifications/stream', { headers: { cookie: otherCookie }, signal: other.signal })).status).toBe(200);
    other.abort();
    for (const c of controllers) c.abort();
    await Promise.all(open.map((r) => r.body?.cancel().catch(() => {})));
  });
});
