import { sql } from 'drizzle-orm';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Lead } from '#shared/schemas/lead';
import { overviewSchema } from '#shared/schemas/overview';
import { addDays, zonedParts } from '#shared/zoned-time';
import { ensureAdmin } from '../../auth/accounts.ts';
import { createTestApp, signIn } from '../../test/test-app.ts';
import { rowsOf, useTestDatabase } from '../../test/database.ts';
import { execute } from '../sql.ts';
import { notifyDueFollowUps } from './follow-ups-queries.ts';

/** The next step's notification (the follow-up job) and the Overview's list of next steps due. */

const TZ = 'Pacific/Auckland'; // far from UTC, so "today" is the business zone's, not the server's
const database = useTestDatabase();
let t: ReturnType<typeof createTestApp>;
let cookie: string;
let ownerId: string;
const today = () => zonedParts(Date.now(), TZ).date;

beforeAll(() => {
  t = createTestApp(database, { BUSINESS_TIME_ZONE: TZ });
});
beforeEach(async () => {
  await execute(database.db, sql`truncate users, sessions, leads, notifications cascade`);
  ownerId = (await ensureAdmin(database.db, 'owner@example.com', 'owner-password', 'owner', 'Olive Owner')).user.id;
  await ensureAdmin(database.db, 'second@example.com', 'second-password');
  await ensureAdmin(database.db, 'third@example.com', 'third-password');
  cookie = await signIn(t.json, 'owner@example.com', 'owner-password');
});

const api = async <T>(method: string, path: string, body?: unknown) => {
  const res = await t.json(method, path, body, { cookie });
  expect(res.status).toBeLessThan(300);
  return (await res.json()) as T;
};
const addLead = (full_name: string, fields: Record<string, unknown> = {}) =>
  api<Lead>('POST', '/api/leads', {
    full_name,
    email: `${full_name.split(' ')[0]!.toLowerCase()}@example.com`,
    phone: '555',
    property_types: ['land'],
  }).then((lead) => (Object.keys(fields).length > 0 ? api<Lead>('PATCH', `/api/leads/${lead.id}`, fields) : lead));
const followUps = () =>
  rowsOf<{ email: string; message: string; lead_id: string }>(
    database.db,
    sql`select u.email, n.message, n.lead_id from notifications n join users u on u.id = n.user_id where n.type = 'follow_up' order by u.email, n.message`,
  );
const run = () => notifyDueFollowUps(database.db);

describe('follow-up notifications', () => {
  it('tells the owner once on the day, however many processes run the job at once', async () => {
    const jane = await addLead('Jane Doe', { owner_id: ownerId, follow_up_on: today(), follow_up_note: 'send the zoning report' });
    await addLead('Later Lead', { owner_id: ownerId, follow_up_on: addDays(today(), 1), follow_up_note: 'not yet' });
    await addLead('No Step');

    const counts = await Promise.all(Array.from({ length: 5 }, run));
    expect(counts.reduce((a, b) => a + b, 0)).toBe(1);
    expect(await followUps()).toEqual([
      { email: 'owner@example.com', message: 'Follow up with Jane Doe: send the zoning report', lead_id: jane.id },
    ]);
    expect(await run()).toBe(0);
    // The next step is its task, due at the start of that day in the business time zone, now told.
    const [marked] = await rowsOf<{ day: string; told: boolean }>(
      database.db,
      sql`select to_char(due_at at time zone ${TZ}, 'YYYY-MM-DD HH24:MI') as day, notified_at is not null as told from lead_tasks where lead_id = ${jane.id}`,
    );
    expect(marked).toEqual({ day: `${today()} 00:00`, told: true });
  });

  it('tells every admin when nobody owns the lead, without a note when there is none', async () => {
    const lead = await addLead('Sam Roe', { follow_up_on: addDays(today(), -3) });
    expect(await run()).toBe(3);
    expect(await followUps()).toEqual(
      ['owner', 'second', 'third'].map((who) => ({ email: `${who}@example.com`, message: 'Follow up with Sam Roe', lead_id: lead.id })),
    );
  });

  it('tells again when the date changes, not when only the text does', async () => {
    const lead = await addLead('Jane Doe', { owner_id: ownerId, follow_up_on: today(), follow_up_note: 'call' });
    expect(await run()).toBe(1);
    await api('PATCH', `/api/leads/${lead.id}`, { follow_up_on: today(), follow_up_note: 'call again' });
    expect(await run()).toBe(0);
    await api('PATCH', `/api/leads/${lead.id}`, { follow_up_on: addDays(today(), -1) });
    expect(await run()).toBe(1);
    // Cleared: nothing; set to today again (the last date told was yesterday): told.
    await api('PATCH', `/api/leads/${lead.id}`, { follow_up_on: null });
    expect(await run()).toBe(0);
    await api('PATCH', `/api/leads/${lead.id}`, { follow_up_on: today(), follow_up_note: 'last try' });
    expect(await run()).toBe(1);
    expect((await followUps()).map((n) => n.message)).toEqual([
      'Follow up with Jane Doe: call',
      'Follow up with Jane Doe: call again',
      'Follow up with Jane Doe: last try',
    ]);
  });

  it("shows in the owner's notifications", async () => {
    await addLead('Jane Doe', { owner_id: ownerId, follow_up_on: today() });
    await run();
    const list = await api<{ notifications: { type: string; message: string }[] }>('GET', '/api/notifications');
    expect(list.notifications[0]).toMatchObject({ type: 'follow_up', message: 'Follow up with Jane Doe' });
  });
});

describe("the Overview's next steps", () => {
  it('lists leads whose date has come, oldest first, overdue ones marked, 20 at most', async () => {
    const overdue = await addLead('Olga Old', {
      owner_id: ownerId,
      follow_up_on: addDays(today(), -2),
      follow_up_note: 'send the zoning report',
    });
    const due = await addLead('Tom Today', { follow_up_on: today() });
    await addLead('Fred Future', { follow_up_on: addDays(today(), 1) });
    await addLead('Nina None');
    const overview = overviewSchema.parse(await api('GET', '/api/overview'));
    expect(overview.follow_ups).toEqual([
      {
        lead_id: overdue.id,
        full_name: 'Olga Old',
        follow_up_on: addDays(today(), -2),
        follow_up_note: 'send the zoning report',
        owner_email: 'owner@example.com',
        owner_name: 'Olive Owner',
        overdue: true,
      },
      {
        lead_id: due.id,
        full_name: 'Tom Today',
        follow_up_on: today(),
        follow_up_note: null,
        owner_email: null,
        owner_name: null,
        overdue: false,
      },
    ]);
    // Notified or not, a step stays listed until it is done (cleared or moved).
    await run();
    expect(overviewSchema.parse(await api('GET', '/api/overview')).follow_ups).toHaveLength(2);

    await execute(
      database.db,
      sql`
      insert into leads (full_name, email, phone, property_types, follow_up_on)
      select 'Bulk ' || i, 'bulk' || i || '@example.com', '5', array['land'], ${today()}::date - 10 - i from generate_series(1, 25) i`,
    );
    const many = overviewSchema.parse(await api('GET', '/api/overview')).follow_ups;
    expect(many).toHaveLength(20);
    expect(many[0]!.full_name).toBe('Bulk 25');
    expect(many.every((f) => f.overdue)).toBe(true);
  });
});
