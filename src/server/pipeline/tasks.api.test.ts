import { sql } from 'drizzle-orm';
import { beforeEach, describe, expect, it } from 'vitest';
import { ensureAdmin } from '../auth/accounts.ts';
import { execute } from '../db/sql.ts';
import { rowsOf, useTestDatabase } from '../test/database.ts';
import { addTask, changeTask, leadTasks, NO_SUCH_ASSIGNEE, removeTask } from './tasks.ts';

/** A lead's tasks, and its next step: a copy of its earliest open task on the lead, kept by every task write. */
const database = useTestDatabase();
const zone = 'America/New_York';
const nobody = '00000000-0000-4000-8000-000000000001';
let ownerId: string;
let leadId: string;
const refusal = async (work: Promise<unknown>) =>
  work.then(
    () => undefined,
    (error: unknown) => error,
  );
const nextStep = async () =>
  (
    await rowsOf<{ on: string | null; note: string | null }>(
      database.db,
      sql`select to_char(follow_up_on, 'YYYY-MM-DD') as on, follow_up_note as note from leads where id = ${leadId}`,
    )
  )[0];

beforeEach(async () => {
  await execute(database.db, sql`truncate users, leads cascade`);
  ownerId = (await ensureAdmin(database.db, 'dana@keystone.test', 'dana-password', 'owner', 'Dana Whitfield')).user.id;
  leadId = (
    await rowsOf<{ id: string }>(
      database.db,
      sql`insert into leads (full_name, email, phone, property_types, owner_id) values ('Jane Doe', 'jane@example.com', '555', array['land'], ${ownerId}) returning id`,
    )
  )[0]!.id;
});

describe('a lead’s tasks', () => {
  it('are its owner’s unless given to another; the earliest open one is the next step, its day in the business time zone', async () => {
    // 02:00 UTC on the 28th is still the 27th in New York.
    const late = await addTask(database.db, leadId, { type: 'call', title: 'Call back', due_at: '2026-11-28T02:00:00Z' }, ownerId, zone);
    expect(late.assignee).toEqual({ id: ownerId, name: 'Dana Whitfield' });
    expect(await nextStep()).toEqual({ on: '2026-11-27', note: 'Call back' });
    const early = await addTask(
      database.db,
      leadId,
      { type: 'email', title: 'Send the report', due_at: '2026-11-25T15:00:00Z', assignee_id: null },
      ownerId,
      zone,
    );
    expect(early.assignee).toBeNull();
    expect(await nextStep()).toEqual({ on: '2026-11-25', note: 'Send the report' });
    expect((await leadTasks(database.db, leadId)).map((t) => t.title)).toEqual(['Send the report', 'Call back']);

    // Done: the next one is the next step, and the timeline says so once however often it is ticked.
    await changeTask(database.db, leadId, early.id, { done: true }, ownerId, zone);
    await changeTask(database.db, leadId, early.id, { done: true }, ownerId, zone);
    expect(await nextStep()).toEqual({ on: '2026-11-27', note: 'Call back' });
    expect(await rowsOf(database.db, sql`select 1 from lead_events where lead_id = ${leadId} and kind = 'task'`)).toHaveLength(1);
    await removeTask(database.db, leadId, late.id, zone);
    expect(await nextStep()).toEqual({ on: null, note: null });
  });

  it('tells a task again when its due time changes, not when only its title does', async () => {
    const task = await addTask(database.db, leadId, { type: 'todo', title: 'Check', due_at: '2026-11-25T15:00:00Z' }, ownerId, zone);
    const told = () =>
      rowsOf<{ told: boolean }>(database.db, sql`select notified_at is not null as told from lead_tasks where id = ${task.id}`);
    await execute(database.db, sql`update lead_tasks set notified_at = now() where id = ${task.id}`);
    await changeTask(database.db, leadId, task.id, { title: 'Check the deed' }, ownerId, zone);
    expect(await told()).toEqual([{ told: true }]);
    await changeTask(database.db, leadId, task.id, { due_at: '2026-11-25T15:00:00Z' }, ownerId, zone);
    expect(await told()).toEqual([{ told: true }]);
    await changeTask(database.db, leadId, task.id, { due_at: '2026-11-26T15:00:00Z' }, ownerId, zone);
    expect(await told()).toEqual([{ told: false }]);
  });

  it('go only to someone who can sign in, and to leads and tasks that exist', async () => {
    const task = { type: 'call' as const, title: 'Call', due_at: '2026-11-25T15:00:00Z' };
    expect(await refusal(addTask(database.db, leadId, { ...task, assignee_id: nobody }, ownerId, zone))).toMatchObject({
      status: 400,
      fields: { assignee_id: NO_SUCH_ASSIGNEE },
    });
    const samId = (await ensureAdmin(database.db, 'sam@keystone.test', 'sam-password', 'staff', 'Sam Staff')).user.id;
    const made = await addTask(database.db, leadId, { ...task, assignee_id: samId }, ownerId, zone);
    await execute(database.db, sql`update users set deactivated_at = now() where id = ${samId}`);
    expect(await refusal(changeTask(database.db, leadId, made.id, { assignee_id: samId }, ownerId, zone))).toMatchObject({ status: 400 });
    expect(await refusal(addTask(database.db, nobody, task, ownerId, zone))).toMatchObject({ status: 404, message: 'Lead not found.' });
    expect(await refusal(leadTasks(database.db, nobody))).toMatchObject({ status: 404 });
    expect(await refusal(changeTask(database.db, nobody, made.id, { done: true }, ownerId, zone))).toMatchObject({
      status: 404,
      message: 'Task not found.',
    });
    expect(await refusal(removeTask(database.db, leadId, nobody, zone))).toMatchObject({ status: 404 });
  });
});
