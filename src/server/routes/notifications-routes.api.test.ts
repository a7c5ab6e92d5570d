import { sql } from 'drizzle-orm';
import { beforeEach, describe, expect, it } from 'vitest';
import type { Notification } from '#shared/schemas/notification';
import { ensureAdmin } from '../auth/accounts.ts';
import { createTestApp, signIn, validLead } from '../test/test-app.ts';
import { useTestDatabase, rowsOf } from '../test/database.ts';

const database = useTestDatabase();

let alice: string;
let bob: string;
let t: ReturnType<typeof createTestApp>;
beforeEach(async () => {
  await database.db.execute(sql`truncate users, sessions, leads, notifications, rate_limits cascade`);
  await ensureAdmin(database.db, 'alice@example.com', 'alice-password');
  await ensureAdmin(database.db, 'bob@example.com', 'bob-password');
  t = createTestApp(database);
  alice = await signIn(t.json, 'alice@example.com', 'alice-password');
  bob = await signIn(t.json, 'bob@example.com', 'bob-password');
});

const list = async (cookie: string) =>
  ((await (await t.app.request('/api/notifications', { headers: { cookie } })).json()) as { notifications: Notification[] }).notifications;

describe('notifications', () => {
  it('lists the signed-in admin’s notifications newest first, one per new lead', async () => {
    await t.json('POST', '/api/public/leads', validLead({ full_name: 'First Lead', email: 'first@example.com' }));
    await t.json('POST', '/api/public/leads', validLead({ full_name: 'Second Lead', email: 'second@example.com' }));
    const mine = await list(alice);
    expect(mine.map((n) => n.message)).toEqual(['New lead: Second Lead (second@example.com)', 'New lead: First Lead (first@example.com)']);
    expect(mine[0]).toMatchObject({ type: 'lead', read: false, created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT.*Z$/) });
    // Each names its lead, so a click in the bell opens the lead's page.
    const leads = await rowsOf<{ id: string }>(database.db, sql`select id from leads order by created_at desc, id desc`);
    expect(mine.map((n) => n.lead_id)).toEqual(leads.map((l) => l.id));
  });

  it('names the business time zone the dashboard shows their times in', async () => {
    const zoned = createTestApp(database, { BUSINESS_TIME_ZONE: 'America/Chicago' });
    const res = await zoned.app.request('/api/notifications', { headers: { cookie: alice } });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ notifications: [], time_zone: 'America/Chicago' });
  });

  it('marks one read, touching only that one', async () => {
    await t.json('POST', '/api/public/leads', validLead());
    await t.json('POST', '/api/public/leads', validLead());
    const [first, second] = await list(alice);
    const res = await t.json('POST', `/api/notifications/${first!.id}/read`, undefined, { cookie: alice });
    expect(res.status).toBe(200);
    const after = await list(alice);
    expect(after.find((n) => n.id === first!.id)?.read).toBe(true);
    expect(after.find((n) => n.id === second!.id)?.read).toBe(false);
  });

  it('marks all read and clears all, for that admin only', async () => {
    await t.json('POST', '/api/public/leads', validLead());
    await t.json('POST', '/api/public/leads', validLead());
    expect(await (await t.json('POST', '/api/notifications/read-all', undefined, { cookie: alice })).json()).toEqual({ count: 2 });
    expect((await list(alice)).every((n) => n.read)).toBe(true);
    expect((await list(bob)).every((n) => !n.read)).toBe(true);
    expect(await (await t.json('DELETE', '/api/notifications', undefined, { cookie: alice })).json()).toEqual({ count: 2 });
    expect(await list(alice)).toEqual([]);
    expect(await list(bob)).toHaveLength(2);
  });

  it('does not let one admin read or change another’s notification', async () => {
    await t.json('POST', '/api/public/leads', validLead());
    const bobs = await list(bob);
    const res = await t.json('POST', `/api/notifications/${bobs[0]!.id}/read`, undefined, { cookie: alice });
    expect(res.status).toBe(404);
    const [row] = await rowsOf<{ read: boolean }>(database.db, sql`select read from notifications where id = ${bobs[0]!.id}`);
    expect(row!.read).toBe(false);
    expect((await list(alice)).map((n) => n.id)).not.toContain(bobs[0]!.id);
  });

  it('rejects a malformed id with 400', async () => {
    const res = await t.json('POST', '/api/notifications/not-a-uuid/read', undefined, { cookie: alice });
    expect(res.status).toBe(400);
  });
});
