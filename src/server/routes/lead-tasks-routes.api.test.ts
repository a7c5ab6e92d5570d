import { sql } from 'drizzle-orm';
import { beforeEach, describe, expect, it } from 'vitest';
import type { Lead } from '#shared/schemas/lead';
import type { LeadTasksResponse, Task, TaskList } from '#shared/schemas/lead-tasks';
import type { TimelineEntry } from '#shared/schemas/lead-workspace';
import { addDays, zonedInstant, zonedParts } from '#shared/zoned-time';
import { ensureAdmin } from '../auth/accounts.ts';
import { notifyDueFollowUps } from '../db/queries/follow-ups-queries.ts';
import { execute } from '../db/sql.ts';
import { createTestApp, signIn, validLead } from '../test/test-app.ts';
import { rowsOf, useTestDatabase } from '../test/database.ts';

/** A lead's tasks, its next step (the earliest open one), My tasks, and the due-time notification. */
const TZ = 'America/Chicago';
const database = useTestDatabase();
let t: ReturnType<typeof createTestApp>;
let owner: { id: string; cookie: string };
let staff: { id: string; cookie: string };
let lead: Lead;

const today = () => zonedParts(Date.now(), TZ).date;
/** `minutes` after midnight of `days` from today, business time zone, as ISO. */
const at = (days: number, minutes: number) => new Date(zonedInstant(addDays(today(), days), minutes, TZ)!).toISOString();

beforeEach(async () => {
  await execute(database.db, sql`truncate users, sessions, leads, notifications, emails cascade`);
  t = createTestApp(database, { BUSINESS_TIME_ZONE: TZ });
  owner = { id: (await ensureAdmin(database.db, 'olive@keystone.test', 'olive-password', 'owner', 'Olive Owner')).user.id, cookie: '' };
  staff = { id: (await ensureAdmin(database.db, 'sam@keystone.test', 'sam-password', 'staff', 'Sam Staff')).user.id, cookie: '' };
  owner.cookie = await signIn(t.json, 'olive@keystone.test', 'olive-password');
  staff.cookie = await signIn(t.json, 'sam@keystone.test', 'sam-password');
  lead = (await (await t.json('POST', '/api/leads', validLead({ full_name: 'Jane Doe' }), { cookie: owner.cookie })).json()) as Lead;
  await t.json('PATCH', `/api/leads/${lead.id}`, { owner_id: staff.id }, { cookie: owner.cookie });
});

const call = async <T>(method: string, path: string, body?: unknown, cookie = owner.cookie) => {
  const res = await t.json(method, path, body, { cookie });
  return { status: res.status, body: (await res.json().catch(() => null)) as T };
};
const add = (body: Record<string, unknown>, leadId = lead.id) => call<Task>('POST', `/api/leads/${leadId}/tasks`, body);
const nextStep = async () => {
  const { body } = await call<Lead>('GET', `/api/leads/${lead.id}`);
  return { on: body.follow_up_on, note: body.follow_up_note };
};
const fieldsOf = (body: unknown) => (body as { error: { fields?: Record<string, string> } }).error.fields;

describe('a lead’s tasks', () => {
  it('adds tasks for the lead’s owner, soonest first; the earliest open one is the next step', async () => {
    const later = await add({ type: 'meeting', title: 'Site visit', due_at: at(3, 14 * 60) });
    expect(later.status).toBe(201);
    expect(later.body).toMatchObject({
      type: 'meeting',
      title: 'Site visit',
      assignee: { id: staff.id, name: 'Sam Staff' },
      done_at: null,
    });
    expect(await nextStep()).toEqual({ on: addDays(today(), 3), note: 'Site visit' });

    const sooner = await add({ type: 'call', title: '  Call about the survey  ', due_at: at(1, 9 * 60), assignee_id: null });
    expect(sooner.body).toMatchObject({ title: 'Call about the survey', assignee: null });
    expect(await nextStep()).toEqual({ on: addDays(today(), 1), note: 'Call about the survey' });

    // Done: the next one is the next step, and the timeline says who did what.
    const done = await call<Task>('PATCH', `/api/leads/${lead.id}/tasks/${sooner.body.id}`, { done: true });
    expect(done.body).toMatchObject({ done_by: { id: owner.id, name: 'Olive Owner' } });
    expect(done.body.done_at).not.toBeNull();
    expect(await nextStep()).toEqual({ on: addDays(today(), 3), note: 'Site visit' });
    const { body: list } = await call<LeadTasksResponse>('GET', `/api/leads/${lead.id}/tasks`);
    expect(list.tasks.map((task) => [task.title, task.done_at !== null])).toEqual([
      ['Site visit', false],
      ['Call about the survey', true],
    ]);
    const { body: timeline } = await call<{ entries: TimelineEntry[] }>('GET', `/api/leads/${lead.id}/timeline`);
    expect(timeline.entries.filter((e) => e.kind === 'task').map(({ id: _id, at: _at, ...e }) => e)).toEqual([
      { kind: 'task', actor: 'Olive Owner', task_type: 'call', title: 'Call about the survey' },
    ]);
    // Done twice is still done once (one entry); undone is open again and the next step again.
    await call('PATCH', `/api/leads/${lead.id}/tasks/${sooner.body.id}`, { done: true });
    const undone = await call<Task>('PATCH', `/api/leads/${lead.id}/tasks/${sooner.body.id}`, { done: false });
    expect(undone.body).toMatchObject({ done_at: null, done_by: null });
    expect(await nextStep()).toEqual({ on: addDays(today(), 1), note: 'Call about the survey' });
    const entries = (await call<{ entries: TimelineEntry[] }>('GET', `/api/leads/${lead.id}/timeline`)).body.entries;
    expect(entries.filter((e) => e.kind === 'task')).toHaveLength(1);

    // Removed: gone, and the next step with it.
    expect((await call('DELETE', `/api/leads/${lead.id}/tasks/${sooner.body.id}`)).status).toBe(204);
    expect((await call('DELETE', `/api/leads/${lead.id}/tasks/${later.body.id}`)).status).toBe(204);
    expect(await nextStep()).toEqual({ on: null, note: null });
    expect((await call<LeadTasksResponse>('GET', `/api/leads/${lead.id}/tasks`)).body).toEqual({ tasks: [] });
  });

  it('a next step set as a date is the earliest open task; a cleared one removes it', async () => {
    await add({ type: 'call', title: 'Call back', due_at: at(5, 10 * 60) });
    await call('PATCH', `/api/leads/${lead.id}`, { follow_up_on: addDays(today(), 2), follow_up_note: 'Send the report' });
    const { body } = await call<LeadTasksResponse>('GET', `/api/leads/${lead.id}/tasks`);
    // The earliest open task took the date (at the day's start) and the text.
    expect(body.tasks.map((task) => [task.type, task.title, task.due_at])).toEqual([['call', 'Send the report', at(2, 0)]]);
    // With no open task, a new To-do for the owner.
    await call('DELETE', `/api/leads/${lead.id}/tasks/${body.tasks[0]!.id}`);
    await call('PATCH', `/api/leads/${lead.id}`, { follow_up_on: today() });
    const made = (await call<LeadTasksResponse>('GET', `/api/leads/${lead.id}/tasks`)).body.tasks;
    expect(made).toMatchObject([{ type: 'todo', title: null, due_at: at(0, 0), assignee: { id: staff.id } }]);
    await call('PATCH', `/api/leads/${lead.id}`, { follow_up_on: null });
    expect((await call<LeadTasksResponse>('GET', `/api/leads/${lead.id}/tasks`)).body.tasks).toEqual([]);
  });

  it('gives the open tasks of the old owner (or nobody) to the new owner', async () => {
    const mine = await add({ type: 'call', title: 'Owner’s', due_at: at(1, 600) });
    const olive = await add({ type: 'email', title: 'Olive’s', due_at: at(1, 600), assignee_id: owner.id });
    const done = await add({ type: 'todo', title: 'Done', due_at: at(-1, 600) });
    await call('PATCH', `/api/leads/${lead.id}/tasks/${done.body.id}`, { done: true });
    await call('PATCH', `/api/leads/${lead.id}`, { owner_id: owner.id });
    const byId = new Map(
      (await call<LeadTasksResponse>('GET', `/api/leads/${lead.id}/tasks`)).body.tasks.map((k) => [k.id, k.assignee?.id]),
    );
    expect([byId.get(mine.body.id), byId.get(olive.body.id), byId.get(done.body.id)]).toEqual([owner.id, owner.id, staff.id]);
  });

  it('refuses bad tasks with the field that is wrong, and unknown leads and tasks', async () => {
    expect(fieldsOf((await add({ type: 'visit', title: 'x', due_at: at(1, 0) })).body)).toEqual({ type: 'Choose what kind of task it is' });
    expect(fieldsOf((await add({ type: 'call', title: '   ', due_at: at(1, 0) })).body)).toEqual({ title: 'Title is required' });
    expect(fieldsOf((await add({ type: 'call', title: 'x'.repeat(201), due_at: at(1, 0) })).body)).toEqual({
      title: 'Title must be at most 200 characters',
    });
    expect(fieldsOf((await add({ type: 'call', title: 'x', due_at: 'tomorrow' })).body)).toEqual({ due_at: 'Choose when it is due' });
    expect(fieldsOf((await add({ type: 'call', title: 'x', due_at: at(1, 0), assignee_id: lead.id })).body)).toEqual({
      assignee_id: 'Choose someone on the team',
    });
    await execute(database.db, sql`update users set deactivated_at = now() where id = ${staff.id}`);
    expect((await add({ type: 'call', title: 'x', due_at: at(1, 0), assignee_id: staff.id })).status).toBe(400);
    const zero = '00000000-0000-4000-8000-000000000000';
    expect((await add({ type: 'call', title: 'x', due_at: at(1, 0) }, zero)).status).toBe(404);
    const task = await add({ type: 'call', title: 'x', due_at: at(1, 0) });
    expect((await call('PATCH', `/api/leads/${lead.id}/tasks/${task.body.id}`, {})).status).toBe(400);
    expect((await call('PATCH', `/api/leads/${zero}/tasks/${task.body.id}`, { done: true })).status).toBe(404);
    expect((await call('DELETE', `/api/leads/${lead.id}/tasks/${zero}`)).status).toBe(404);
    expect((await call('GET', `/api/leads/${zero}/tasks`)).status).toBe(404);
    expect((await t.json('GET', `/api/leads/${lead.id}/tasks`)).status).toBe(401);
    expect((await rowsOf(database.db, sql`select id from lead_tasks`)).length).toBe(1);
  });
});

describe('My tasks', () => {
  const list = (query: string, cookie = owner.cookie) => call<TaskList>('GET', `/api/tasks?${query}`, undefined, cookie);

  it('lists one person’s overdue, today’s, upcoming and done tasks, a page at a time', async () => {
    const made: Record<string, string> = {};
    for (const [title, due] of [
      ['Overdue 1', at(-2, 600)],
      ['Overdue 2', at(-1, 600)],
      ['Today 1', at(0, 60)],
      ['Today 2', at(0, 23 * 60)],
      ['Upcoming', at(4, 600)],
      ['Done', at(-3, 600)],
    ] as const)
      made[title] = (await add({ type: 'todo', title, due_at: due })).body.id;
    await add({ type: 'todo', title: 'Olive’s own', due_at: at(0, 600), assignee_id: owner.id });
    await call('PATCH', `/api/leads/${lead.id}/tasks/${made.Done}`, { done: true });

    const titles = (r: { body: TaskList }) => r.body.tasks.map((task) => task.title);
    const sams = await list('bucket=overdue', staff.cookie);
    expect(titles(sams)).toEqual(['Overdue 1', 'Overdue 2']);
    expect(sams.body.counts).toEqual({ overdue: 2, today: 2, upcoming: 1, done: 1 });
    expect(sams.body.tasks[0]!.lead).toEqual({ id: lead.id, full_name: 'Jane Doe' });
    expect(titles(await list('bucket=today', staff.cookie))).toEqual(['Today 1', 'Today 2']);
    expect(titles(await list('bucket=upcoming', staff.cookie))).toEqual(['Upcoming']);
    expect(titles(await list('bucket=done', staff.cookie))).toEqual(['Done']);

    // Pages: the cursor goes on where the last page ended.
    const first = await list('bucket=today&limit=1', staff.cookie);
    expect(titles(first)).toEqual(['Today 1']);
    const second = await list(`bucket=today&limit=1&cursor=${first.body.next_cursor}`, staff.cookie);
    expect(titles(second)).toEqual(['Today 2']);
    expect(second.body.next_cursor).toBeNull();

    // Owners and staff alike see anyone’s: staff work every lead, and its tasks with it.
    expect(titles(await list('bucket=today&assignee=anyone'))).toEqual(['Today 1', 'Olive’s own', 'Today 2']);
    expect(titles(await list(`bucket=today&assignee=${staff.id}`))).toEqual(['Today 1', 'Today 2']);
    expect(titles(await list('bucket=today'))).toEqual(['Olive’s own']);
    expect(titles(await list('bucket=today&assignee=anyone', staff.cookie))).toEqual(['Today 1', 'Olive’s own', 'Today 2']);
    expect(titles(await list(`bucket=today&assignee=${owner.id}`, staff.cookie))).toEqual(['Olive’s own']);
    expect((await list('bucket=later')).status).toBe(400);
    expect((await list('cursor=bm90IGEgY3Vyc29y')).status).toBe(400);
    expect((await t.json('GET', '/api/tasks')).status).toBe(401);
  });
});

describe('the due-time notification', () => {
  const told = () =>
    rowsOf<{ user_id: string; message: string }>(
      database.db,
      sql`select user_id, message from notifications where type = 'follow_up' order by user_id, message`,
    );

  it('tells the assignee once when a task falls due, again after a new due time, never when done', async () => {
    const due = await add({ type: 'call', title: 'Call about the survey', due_at: new Date(Date.now() - 60_000).toISOString() });
    await add({ type: 'call', title: 'Not yet', due_at: new Date(Date.now() + 3_600_000).toISOString() });
    const finished = await add({ type: 'todo', title: 'Finished', due_at: new Date(Date.now() - 60_000).toISOString() });
    await call('PATCH', `/api/leads/${lead.id}/tasks/${finished.body.id}`, { done: true });
    expect((await Promise.all([notifyDueFollowUps(database.db), notifyDueFollowUps(database.db)])).reduce((a, b) => a + b)).toBe(1);
    expect(await told()).toEqual([{ user_id: staff.id, message: 'Follow up with Jane Doe: Call about the survey' }]);
    expect(await notifyDueFollowUps(database.db)).toBe(0);
    // A new title alone is not told again; a new due time is, and to everyone when nobody is assigned.
    await call('PATCH', `/api/leads/${lead.id}/tasks/${due.body.id}`, { title: 'Call again' });
    expect(await notifyDueFollowUps(database.db)).toBe(0);
    await call('PATCH', `/api/leads/${lead.id}/tasks/${due.body.id}`, {
      due_at: new Date(Date.now() - 1000).toISOString(),
      assignee_id: null,
    });
    expect(await notifyDueFollowUps(database.db)).toBe(2);
  });
});
