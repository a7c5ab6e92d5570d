import { sql } from 'drizzle-orm';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureAdmin } from '../auth/accounts.ts';
import { execute } from '../db/sql.ts';
import { createTestApp, validLead } from '../test/test-app.ts';
import { rowsOf, useTestDatabase } from '../test/database.ts';
import { AfterCommit } from './after-commit.ts';
import { CHANGE_CHANNEL, NOTIFICATION_CHANNEL } from './channels.ts';

/**
 * A public form submission's transaction sends no NOTIFY of its own (NOTIFYing commits go one at
 * a time); what it changed is announced after the commit, many transactions in one statement,
 * with the payload the notifications trigger sends.
 */
const database = useTestDatabase();
const heard: { channel: string; payload: string }[] = [];
const stops: (() => Promise<void>)[] = [];
let adminId = '';
beforeAll(async () => {
  for (const channel of [CHANGE_CHANNEL, NOTIFICATION_CHANNEL])
    stops.push(await database.listen(channel, (payload) => heard.push({ channel, payload })));
  adminId = (await ensureAdmin(database.db, 'after-commit@example.com', 'after-commit-password')).user.id;
});
afterAll(async () => {
  for (const stop of stops) await stop();
});

/**
 * What was heard up to now: a marker NOTIFYs on each channel after everything before it has
 * committed. PostgreSQL delivers notifications in commit order on each listening connection, and
 * each channel listens on a connection of its own, so once both markers are heard nothing
 * earlier is still on its way. Answers what came before the markers, and forgets it all.
 */
async function heardSoFar(): Promise<{ channel: string; payload: string }[]> {
  const marker = `marker-${crypto.randomUUID()}`;
  await execute(database.db, sql`select pg_notify(${CHANGE_CHANNEL}, ${marker}), pg_notify(${NOTIFICATION_CHANNEL}, ${marker})`);
  await expect.poll(() => heard.filter((h) => h.payload === marker).length, { timeout: 5_000 }).toBe(2);
  const before = heard.splice(0).filter((h) => h.payload !== marker);
  return before;
}

describe('announcing after the commit', () => {
  it('a public submission’s own transaction is silent; nothing is lost from the database', async () => {
    await heardSoFar();
    // A hub that is not connected announces nothing: what the transaction itself said is all there is.
    const t = createTestApp(database);
    const res = await t.json('POST', '/api/public/leads', validLead({ full_name: 'Quiet Commit', email: 'quiet@example.com' }));
    expect(res.status).toBe(201);
    expect(await heardSoFar()).toEqual([]);
    const [stored] = await rowsOf<{ notices: number }>(
      database.db,
      sql`select count(*)::int as notices from notifications n join leads l on l.id = n.lead_id where l.email = 'quiet@example.com'`,
    );
    expect(stored?.notices).toBe(1);
    // Any other write still announces itself through its triggers, as before.
    await execute(database.db, sql`update leads set phone = '(301) 555-0100' where email = 'quiet@example.com'`);
    expect(await heardSoFar()).toEqual([{ channel: CHANGE_CHANNEL, payload: 'leads' }]);
  });

  it('announces the changes and the notifications of many transactions in one statement, as the trigger would', async () => {
    await heardSoFar();
    const ids = await rowsOf<{ id: string }>(
      database.db,
      sql`insert into notifications (user_id, type, message) select ${adminId}, 'lead', 'Announced ' || i from generate_series(1, 3) i returning id`,
    );
    const triggered = (await heardSoFar()).filter((h) => h.channel === NOTIFICATION_CHANNEL);
    expect(triggered).toHaveLength(3);

    const afterCommit = new AfterCommit(database, pino({ level: 'silent' }), {
      changes: CHANGE_CHANNEL,
      notifications: NOTIFICATION_CHANNEL,
    });
    // Twenty committed transactions in one turn: one statement, so equal changes fold into one.
    for (let i = 0; i < 20; i++) afterCommit.announce({ resources: ['leads'], notifications: i < 3 ? [ids[i]!.id] : [] });
    afterCommit.announce({ resources: ['appointments'], notifications: [] });
    await afterCommit.drain();
    const announced = await heardSoFar();
    expect(announced.filter((h) => h.channel === CHANGE_CHANNEL).map((h) => h.payload)).toEqual(['leads', 'appointments']);
    // The same payloads the trigger sent for those rows.
    expect(announced.filter((h) => h.channel === NOTIFICATION_CHANNEL).map((h) => JSON.parse(h.payload) as unknown)).toEqual(
      expect.arrayContaining(triggered.map((h) => JSON.parse(h.payload) as unknown)),
    );
    expect(announced.filter((h) => h.channel === NOTIFICATION_CHANNEL)).toHaveLength(3);
  });

  it('a notification deleted before its announcement is not announced, and nothing fails', async () => {
    await heardSoFar();
    const [gone] = await rowsOf<{ id: string }>(
      database.db,
      sql`insert into notifications (user_id, type, message) values (${adminId}, 'lead', 'Cleared at once') returning id`,
    );
    await execute(database.db, sql`delete from notifications where id = ${gone!.id}`);
    await heardSoFar();
    const afterCommit = new AfterCommit(database, pino({ level: 'silent' }), {
      changes: CHANGE_CHANNEL,
      notifications: NOTIFICATION_CHANNEL,
    });
    afterCommit.announce({ resources: ['leads'], notifications: [gone!.id] });
    await afterCommit.drain();
    expect(await heardSoFar()).toEqual([{ channel: CHANGE_CHANNEL, payload: 'leads' }]);
  });

  it('a new lead and a repeat (“wrote again”) through the form reach the hub’s streams once committed', async () => {
    const t = createTestApp(database);
    const stop = await t.hub.connect(database, pino({ level: 'silent' }));
    const pushed: string[] = [];
    const changed: string[] = [];
    const unsubscribe = t.hub.subscribe(adminId, (n) => pushed.push(n.message));
    const unsubscribeChanges = t.hub.subscribeChanges((resource) => changed.push(resource));
    try {
      const lead = validLead({ full_name: 'Wren Twice', email: 'wren@example.com' });
      expect((await t.json('POST', '/api/public/leads', lead)).status).toBe(201);
      await expect.poll(() => pushed, { timeout: 5_000 }).toEqual(['New lead: Wren Twice (wren@example.com)']);
      // The two channels listen on connections of their own (PostgreSQL): either may be heard first.
      await expect.poll(() => changed, { timeout: 5_000 }).toContain('leads');
      changed.length = 0;
      const again = { ...lead, submission_id: crypto.randomUUID(), message: 'One more question.' };
      expect((await t.json('POST', '/api/public/leads', again)).status).toBe(201);
      await expect.poll(() => pushed, { timeout: 5_000 }).toEqual(['New lead: Wren Twice (wren@example.com)', 'Wren Twice wrote again']);
      await expect.poll(() => changed, { timeout: 5_000 }).toContain('leads');
    } finally {
      unsubscribe();
      unsubscribeChanges();
      await stop();
    }
  });
});
