import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execute } from '../db/sql.ts';
import { sendDueReminders } from '../db/queries/reminders.ts';
import { ensureAdmin } from '../auth/accounts.ts';
import { createTestApp, signIn, validLead } from '../test/app.ts';
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

describe('appointment reminders', () => {
  it('notify every admin once per appointment, even when run concurrently and repeatedly', async () => {
    await execute(database.db, sql`truncate appointments, notifications, users cascade`);
    await ensureAdmin(database.db, 'one@example.com', 'one-password');
    await ensureAdmin(database.db, 'two@example.com', 'two-password');
    const tz = 'America/New_York';
    // One in 30 minutes (due), one in 3 hours (not yet), one 2 hours ago (missed: never reminded).
    for (const [offset, type] of [["30 minutes", 'Call'], ["3 hours", 'Zoom'], ["-2 hours", 'On-site']] as const) {
      await execute(database.db, sql`
        insert into appointments (date, time, type)
        select (local)::date, (local)::time, ${type}
        from (select date_trunc('minute', (now() + ${offset}::interval) at time zone ${tz}) as local) x`);
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
});

describe('stream and session', () => {
  it('closes an open stream once its session has ended (sign-out)', async () => {
    await ensureAdmin(database.db, 'leaver@example.com', 'leaver-password');
    const cookie = await signIn(t.json, 'leaver@example.com', 'leaver-password');
    const res = await t.app.request('/api/notifications/stream', { headers: { cookie } });
    const stream = sseReader(res);
    expect((await stream.next()).event).toBe('ready');
    await t.json('POST', '/api/auth/logout', undefined, { cookie });
    await expect(stream.next(3000)).rejects.toThrow('SSE stream ended');
  });
});
