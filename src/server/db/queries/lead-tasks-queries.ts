import { sql, type SQL } from 'drizzle-orm';
import * as z from 'zod';
import type { TaskBucket } from '#shared/constants';
import type { CreateTaskRequest, Task, TaskList, TaskListItem, UpdateTaskRequest } from '#shared/schemas/lead-tasks';
import { taskListItemSchema, taskSchema } from '#shared/schemas/lead-tasks';
import type { Db } from '../client.ts';
import { execute, isoTimestamp, queryRows } from '../sql.ts';

/**
 * A lead's tasks, as SQL: pipeline/tasks.ts and pipeline/my-tasks.ts hold their rules and run
 * each write with syncNextStep in one transaction. The earliest open task is the lead's next
 * step: `leads.follow_up_on` (its day in the business time zone) and `follow_up_note` (its title)
 * are a copy of it, written here (syncNextStep; nextStepSets inside an UPDATE of leads;
 * setNextStepTask for a next step set as a date), so lists sort and filter by the next step from
 * an index. docs/product-rules.md, "Next step" and "Tasks".
 */

export const taskColumns = sql`t.id, t.lead_id, t.type, t.title, ${isoTimestamp(sql`t.due_at`)} as due_at,
  case when t.assignee_id is null then null else jsonb_build_object('id', t.assignee_id,
    'name', (select display_name from users where id = t.assignee_id)) end as assignee,
  ${isoTimestamp(sql`t.done_at`)} as done_at,
  case when t.done_by is null then null else jsonb_build_object('id', t.done_by,
    'name', (select display_name from users where id = t.done_by)) end as done_by,
  ${isoTimestamp(sql`t.created_at`)} as created_at`;

/** The lead's next step from its tasks: sets for an UPDATE of leads `l`. */
export const nextStepSets = (timeZone: string): SQL => sql`
  follow_up_on = (select (t.due_at at time zone ${timeZone})::date from lead_tasks t
    where t.lead_id = l.id and t.done_at is null order by t.due_at, t.id limit 1),
  follow_up_note = (select t.title from lead_tasks t
    where t.lead_id = l.id and t.done_at is null order by t.due_at, t.id limit 1)`;

/** Brings the lead's next step in line with its tasks (a no-op when it already is). */
export async function syncNextStep(db: Db, leadId: string, timeZone: string): Promise<void> {
  await execute(
    db,
    sql`
    with wanted as (
      select (t.due_at at time zone ${timeZone})::date as day, t.title from lead_tasks t
      where t.lead_id = ${leadId} and t.done_at is null order by t.due_at, t.id limit 1
    )
    update leads l set follow_up_on = (select day from wanted), follow_up_note = (select title from wanted)
    where l.id = ${leadId}
      and (l.follow_up_on, l.follow_up_note) is distinct from ((select day from wanted), (select title from wanted))`,
  );
}

/**
 * The next step set as a date and text (the lead's `follow_up_on`/`follow_up_note`): its
 * earliest open task gets that day's start (business time zone) and that text, a To-do for the
 * lead's owner is made when it has none, and a cleared date removes it. Run in the lead
 * update's transaction, before it reads the next step back from the tasks.
 */
export async function setNextStepTask(db: Db, leadId: string, on: string | null, note: string | null, adminId: string, timeZone: string) {
  const dueAt = sql`(${on}::date)::timestamp at time zone ${timeZone}`;
  const earliest = sql`(select id from lead_tasks where lead_id = ${leadId} and done_at is null order by due_at, id limit 1 for update)`;
  if (on === null) {
    await execute(db, sql`delete from lead_tasks where id = ${earliest}`);
    return;
  }
  await execute(
    db,
    sql`
    with earliest as ${earliest},
    changed as (
      update lead_tasks t set due_at = ${dueAt}, title = ${note}::text, updated_at = crm_now(),
        notified_at = case when t.due_at = ${dueAt} then t.notified_at end
      from earliest e where t.id = e.id
      returning t.id
    )
    insert into lead_tasks (lead_id, type, title, due_at, assignee_id, created_by)
    select l.id, 'todo', ${note}::text, ${dueAt}, l.owner_id, ${adminId}::uuid from leads l
    where l.id = ${leadId} and not exists (select 1 from earliest)`,
  );
}

/** A lead's tasks: open ones soonest first, then the last 50 done, newest first. Undefined for no such lead. */
export async function listLeadTasks(db: Db, leadId: string): Promise<Task[] | undefined> {
  const [lead] = await queryRows(db, sql`select 1 as one from leads where id = ${leadId}`, z.object({ one: z.number() }));
  if (!lead) return undefined;
  return queryRows(
    db,
    sql`select ${taskColumns} from (
        (select * from lead_tasks where lead_id = ${leadId} and done_at is null order by due_at, id limit 500)
        union all
        (select * from lead_tasks where lead_id = ${leadId} and done_at is not null order by done_at desc, id limit 50)
      ) t order by t.done_at is not null, case when t.done_at is null then t.due_at end, t.done_at desc, t.id`,
    taskSchema,
  );
}

/** Whether `userId` is an account that can sign in (a task may be assigned to it). */
export async function isActiveAccount(db: Db, userId: string): Promise<boolean> {
  const [row] = await queryRows(
    db,
    sql`select 1 as one from users where id = ${userId} and deactivated_at is null`,
    z.object({ one: z.number() }),
  );
  return row !== undefined;
}

/** Adds a task to the lead (its owner's when no assignee is given). Undefined for no such lead. */
export async function insertTask(db: Db, leadId: string, input: CreateTaskRequest, adminId: string): Promise<Task | undefined> {
  const assignee = input.assignee_id === undefined ? sql`l.owner_id` : sql`${input.assignee_id}::uuid`;
  const [task] = await queryRows(
    db,
    sql`with t as (
        insert into lead_tasks (lead_id, type, title, due_at, assignee_id, created_by)
        select l.id, ${input.type}, ${input.title}, ${input.due_at}::timestamptz, ${assignee}, ${adminId}::uuid
        from leads l where l.id = ${leadId}
        returning *
      ) select ${taskColumns} from t`,
    taskSchema,
  );
  return task;
}

/**
 * Changes a task on its locked row: its kind, title, due time (told again when it falls due: a
 * new time clears `notified_at`), assignee, or done (by the first to tick it; a timeline entry,
 * "Completed: …", once however often it is ticked). Undefined for no such task on that lead.
 */
export async function updateTaskRow(
  db: Db,
  leadId: string,
  taskId: string,
  patch: UpdateTaskRequest,
  adminId: string,
): Promise<Task | undefined> {
  const sets: SQL[] = [sql`updated_at = crm_now()`];
  if (patch.type !== undefined) sets.push(sql`type = ${patch.type}`);
  if (patch.title !== undefined) sets.push(sql`title = ${patch.title}`);
  if (patch.due_at !== undefined)
    sets.push(
      sql`due_at = ${patch.due_at}::timestamptz`,
      sql`notified_at = case when t.due_at = ${patch.due_at}::timestamptz then t.notified_at end`,
    );
  if (patch.assignee_id !== undefined) sets.push(sql`assignee_id = ${patch.assignee_id}::uuid`);
  if (patch.done === true)
    sets.push(
      sql`done_at = coalesce(t.done_at, crm_now())`,
      sql`done_by = case when t.done_at is null then ${adminId}::uuid else t.done_by end`,
    );
  if (patch.done === false) sets.push(sql`done_at = null`, sql`done_by = null`);
  const [task] = await queryRows(
    db,
    sql`with prev as (select id, done_at from lead_tasks where id = ${taskId} and lead_id = ${leadId} for update),
      t as (
        update lead_tasks t set ${sql.join(sets, sql`, `)} from prev where t.id = prev.id
        returning t.*, prev.done_at as was_done_at
      ), completed as (
        insert into lead_events (lead_id, kind, actor_id, data)
        select t.lead_id, 'task', ${adminId}::uuid, jsonb_build_object('task_id', t.id, 'type', t.type, 'title', t.title)
        from t where t.done_at is not null and t.was_done_at is null
      ) select ${taskColumns} from t`,
    taskSchema,
  );
  return task;
}

/** Removes a task. False for no such task on that lead. */
export async function deleteTaskRow(db: Db, leadId: string, taskId: string): Promise<boolean> {
  const rows = await queryRows(
    db,
    sql`delete from lead_tasks where id = ${taskId} and lead_id = ${leadId} returning id`,
    z.object({ id: z.uuid() }),
  );
  return rows.length > 0;
}

/** Where a page of My tasks ended: the last row's sort time (to the microsecond) and id. */
export type TaskCursor = { at: string; id: string };

/** Today's bounds in the business time zone, as SQL instants. */
const dayStart = (timeZone: string, days = 0) =>
  sql`((crm_now() at time zone ${timeZone})::date + ${days}::int)::timestamp at time zone ${timeZone}`;

const bucketWhere = (bucket: TaskBucket, timeZone: string): SQL => {
  switch (bucket) {
    case 'overdue':
      return sql`t.done_at is null and t.due_at < ${dayStart(timeZone)}`;
    case 'today':
      return sql`t.done_at is null and t.due_at >= ${dayStart(timeZone)} and t.due_at < ${dayStart(timeZone, 1)}`;
    case 'upcoming':
      return sql`t.done_at is null and t.due_at >= ${dayStart(timeZone, 1)}`;
    case 'done':
      return sql`t.done_at is not null`;
  }
};

/** Whose tasks: an account's (`userId`), nobody's (null), or everyone's (undefined). */
export type TaskAssignee = string | null | undefined;
const assigneeWhere = (assignee: TaskAssignee): SQL =>
  assignee === undefined ? sql`true` : assignee === null ? sql`t.assignee_id is null` : sql`t.assignee_id = ${assignee}::uuid`;

/**
 * My tasks: up to `limit + 1` of one list (overdue, today, upcoming: soonest first; done: newest
 * first) after `after`, each with its sort time (the extra one says whether there is a next
 * page), and how many each list holds. The partial indexes on open and done tasks serve both.
 */
export async function listTasks(
  db: Db,
  options: { bucket: TaskBucket; assignee: TaskAssignee; after?: TaskCursor; limit: number; timeZone: string },
): Promise<{ rows: (TaskListItem & { sort_at: string })[]; counts: TaskList['counts'] }> {
  const { bucket, assignee, after, limit, timeZone } = options;
  const done = bucket === 'done';
  const sortAt = done ? sql`t.done_at` : sql`t.due_at`;
  const seek = after
    ? done
      ? sql`and (t.done_at, t.id) < (${after.at}::timestamptz, ${after.id}::uuid)`
      : sql`and (t.due_at, t.id) > (${after.at}::timestamptz, ${after.id}::uuid)`
    : sql``;
  const order = done ? sql`order by t.done_at desc, t.id desc` : sql`order by t.due_at, t.id`;
  const [rows, counts] = await Promise.all([
    queryRows(
      db,
      sql`select ${taskColumns}, jsonb_build_object('id', l.id, 'full_name', l.full_name) as lead,
          to_char(${sortAt} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') as sort_at
        from lead_tasks t join leads l on l.id = t.lead_id
        where ${assigneeWhere(assignee)} and ${bucketWhere(bucket, timeZone)} ${seek}
        ${order} limit ${limit + 1}`,
      taskListItemSchema.extend({ sort_at: z.string() }),
    ),
    queryRows(
      db,
      sql`select
          (select count(*)::int from lead_tasks t where ${assigneeWhere(assignee)} and ${bucketWhere('overdue', timeZone)}) as overdue,
          (select count(*)::int from lead_tasks t where ${assigneeWhere(assignee)} and ${bucketWhere('today', timeZone)}) as today,
          (select count(*)::int from lead_tasks t where ${assigneeWhere(assignee)} and ${bucketWhere('upcoming', timeZone)}) as upcoming,
          (select count(*)::int from lead_tasks t where ${assigneeWhere(assignee)} and ${bucketWhere('done', timeZone)}) as done`,
      z.object({ overdue: z.number(), today: z.number(), upcoming: z.number(), done: z.number() }),
    ),
  ]);
  return { rows, counts: counts[0]! };
}
