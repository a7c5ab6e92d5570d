import { sql } from 'drizzle-orm';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ensureAdmin } from '../../auth/accounts.ts';
import { createTestApp, signIn } from '../../test/test-app.ts';
import { rowsOf, useTestDatabase } from '../../test/database.ts';
import { mailTo } from '../../test/mail-sink.ts';
import { useMailSink } from '../../test/use-mail-sink.ts';
import { execute } from '../sql.ts';
import { queueMailOf } from './emails-queries.ts';
import { digestDayAt, queueTaskDigests } from './task-digest-queries.ts';

/**
 * The morning task list: from 7:00 in the business time zone, once a day per person who asked
 * for it and has tasks due or overdue, however many runs and processes; what it says as it
 * arrives through SMTP.
 */
const TZ = 'America/New_York';
const database = useTestDatabase();
const mailSink = useMailSink();
let t: ReturnType<typeof createTestApp>;
const ids: Record<string, string> = {};

// Monday December 2, 2030, EST (UTC−5): 7:00 is 12:00 UTC.
const AT_0659 = new Date('2030-12-02T11:59:59Z');
const AT_0700 = new Date('2030-12-02T12:00:00Z');
const NOON = new Date('2030-12-02T17:00:00Z');
const NEXT_DAY_0700 = new Date('2030-12-03T12:00:00Z');

const run = (now: Date) => queueTaskDigests(database.db, { now, timeZone: TZ, mail: queueMailOf(t.config.mail) });
const queued = () =>
  rowsOf<{ to_address: string; dedupe_key: string }>(
    database.db,
    sql`select to_address, dedupe_key from emails where kind = 'task-digest' order by to_address, dedupe_key`,
  );

afterEach(async () => {
  await t.outbox.stop();
});

beforeEach(async () => {
  await execute(database.db, sql`truncate users, sessions, leads, notifications, emails cascade`);
  mailSink.sink.messages.length = 0;
  t = createTestApp(database, {
    SMTP_URL: mailSink.sink.url,
    MAIL_FROM: '"Keystone Due Diligence" <hello@keystone.test>',
    SITE_NAME: 'Keystone Due Diligence',
    PUBLIC_URL: 'https://crm.keystone.test',
    BUSINESS_TIME_ZONE: TZ,
  });
  // Ann and Bob asked for it; Carl did not; Dora did, but is deactivated; Eve asked and has nothing due.
  for (const name of ['ann', 'bob', 'carl', 'dora', 'eve'])
    ids[name] = (await ensureAdmin(database.db, `${name}@keystone.test`, `${name}-password`)).user.id;
  await execute(
    database.db,
    sql`update users set email_task_digest = email in ('ann@keystone.test', 'bob@keystone.test', 'dora@keystone.test', 'eve@keystone.test')`,
  );
  await execute(database.db, sql`update users set deactivated_at = now() where email = 'dora@keystone.test'`);
  const [lead] = await rowsOf<{ id: string }>(
    database.db,
    sql`insert into leads (full_name, email, phone, property_types) values ('Jane Doe', 'jane@example.com', '555', '{land}') returning id`,
  );
  const task = (who: string, type: string, title: string | null, dueAt: string, done = false) =>
    execute(
      database.db,
      sql`insert into lead_tasks (lead_id, type, title, due_at, assignee_id, done_at)
        values (${lead!.id}, ${type}, ${title}, ${dueAt}::timestamptz, ${ids[who]!}::uuid, ${done ? sql`now()` : sql`null`})`,
    );
  await task('ann', 'call', 'Call about the <survey>', '2030-12-02T14:30:00Z'); // 9:30 AM
  await task('ann', 'meeting', 'Site visit', '2030-12-02T20:00:00Z'); // 3:00 PM
  await task('ann', 'todo', 'Old one', '2030-11-29T15:00:00Z'); // overdue
  await task('ann', 'email', 'Done already', '2030-12-02T15:00:00Z', true);
  await task('ann', 'call', 'Tomorrow', '2030-12-03T15:00:00Z');
  await task('bob', 'todo', null, '2030-11-30T15:00:00Z'); // overdue only
  await task('carl', 'call', 'Not asked', '2030-12-02T15:00:00Z');
  await task('dora', 'call', 'Deactivated', '2030-12-02T15:00:00Z');
  await task('eve', 'call', 'Next week', '2030-12-09T15:00:00Z');
});

describe('the morning task list', () => {
  it('is due from 7:00 in the business time zone, that day', () => {
    expect(digestDayAt(AT_0659, TZ)).toBeUndefined();
    expect(digestDayAt(AT_0700, TZ)).toBe('2030-12-02');
    expect(digestDayAt(NOON, TZ)).toBe('2030-12-02');
  });

  it('is queued once a day to each person who asked and has something due, however many runs at once', async () => {
    expect(await run(AT_0659)).toBe(0);
    const counts = await Promise.all([run(AT_0700), run(AT_0700), run(NOON)]);
    expect(counts.reduce((a, b) => a + b)).toBe(2);
    expect(await run(NOON)).toBe(0);
    expect(await queued()).toEqual([
      { to_address: 'ann@keystone.test', dedupe_key: `task-digest:2030-12-02:${ids.ann}` },
      { to_address: 'bob@keystone.test', dedupe_key: `task-digest:2030-12-02:${ids.bob}` },
    ]);
    // The next day, again (Ann has tomorrow's call; Bob's overdue one is still open).
    expect(await run(NEXT_DAY_0700)).toBe(2);
  });

  it('lists the day’s open tasks at their times, with their leads, and how many are overdue', async () => {
    await run(AT_0700);
    await t.outbox.flush();
    const [mail] = mailTo(mailSink.sink.messages, 'ann@keystone.test');
    expect(mail!.parsed.subject).toBe('Your tasks for Monday, December 2: 2 tasks due');
    const text = mail!.parsed.text!;
    expect(text).toContain('2 tasks due today:\n');
    expect(text).toContain('9:30 AM: Call: Call about the <survey> (Jane Doe)\n3:00 PM: Meeting: Site visit (Jane Doe)\n');
    expect(text).toContain('Overdue: 1 task from before today.');
    expect(text).toContain('https://crm.keystone.test/dashboard/tasks');
    expect(text).not.toContain('Done already');
    expect(text).not.toContain('Tomorrow');
    expect(mail!.parsed.html).toContain('Call about the &lt;survey&gt;');
    // A lead deleted after the list was queued leaves its stored copy.
    const [lead] = await rowsOf<{ id: string }>(database.db, sql`select id from leads`);
    await ensureAdmin(database.db, 'owner@keystone.test', 'owner-password', 'owner');
    const owner = await signIn(t.json, 'owner@keystone.test', 'owner-password');
    expect((await t.json('DELETE', `/api/leads/${lead!.id}`, undefined, { cookie: owner })).status).toBe(200);
    for (const { data } of await rowsOf<{ data: string }>(
      database.db,
      sql`select data::text as data from emails where kind = 'task-digest'`,
    ))
      expect(data).not.toContain('Jane Doe');
    const [bobs] = mailTo(mailSink.sink.messages, 'bob@keystone.test');
    expect(bobs!.parsed.subject).toBe('Your tasks for Monday, December 2: 0 tasks due');
    expect(bobs!.parsed.text).toContain('Nothing due today.');
    expect(bobs!.parsed.text).toContain('Overdue: 1 task from before today.');
  });
});
