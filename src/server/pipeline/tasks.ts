import type { CreateTaskRequest, Task, UpdateTaskRequest } from '#shared/schemas/lead-tasks';
import type { Db } from '../db/client.ts';
import {
  deleteTaskRow,
  insertTask,
  isActiveAccount,
  listLeadTasks,
  syncNextStep,
  updateTaskRow,
} from '../db/queries/lead-tasks-queries.ts';
import { transaction } from '../db/sql.ts';
import { AppError } from '../lib/app-error.ts';

/**
 * A lead's tasks (docs/product-rules.md, "Tasks" and "Next step"): calls, emails, meetings and
 * to-dos, each due at a time, for someone on the active team or nobody (then every admin is told).
 * A new task is its lead's owner's unless another is chosen.
 *
 * The lead's next step is its earliest open task (soonest due, then by id), kept on the lead as a
 * copy (`follow_up_on`, its day in the business time zone, and `follow_up_note`, its title) so
 * the leads list sorts and filters by it from an index. Every task write here refreshes that copy
 * in its own transaction (syncNextStep). The copy is SQL (db/queries/lead-tasks-queries.ts) because the
 * lead's own update writes it in its statement (nextStepSets, from db/queries/leads-queries.ts), a next
 * step set as a date writes the task first (setNextStepTask), and a merge refreshes it too.
 *
 * Rules that stay in the task's own statement, on its locked row: a new due time is told again
 * (`notified_at` cleared), a new title alone is not; done is by the first to tick it, with one
 * timeline entry however often it is ticked (updateTaskRow). When a task falls due its assignee,
 * or everyone, is told once across processes: the claim and the notifications are one statement
 * (db/queries/follow-ups-queries.ts, notifyDueFollowUps; tested in follow-ups.api.test.ts).
 */

export const NO_SUCH_ASSIGNEE = 'Choose someone on the team';

const taskNotFound = () => new AppError('not_found', 'Task not found.');
const leadNotFound = () => new AppError('not_found', 'Lead not found.');

/** A task goes to someone who can sign in (or nobody): 400 on `assignee_id` otherwise. */
async function requireActiveAssignee(db: Db, assigneeId: string | null | undefined): Promise<void> {
  if (assigneeId && !(await isActiveAccount(db, assigneeId)))
    throw new AppError('validation_failed', NO_SUCH_ASSIGNEE, { assignee_id: NO_SUCH_ASSIGNEE });
}

/** The lead's tasks: open ones soonest first (the first is its next step), then the last 50 done. */
export async function leadTasks(db: Db, leadId: string): Promise<Task[]> {
  const tasks = await listLeadTasks(db, leadId);
  if (!tasks) throw leadNotFound();
  return tasks;
}

/** Adds a task to the lead, and refreshes its next step. */
export async function addTask(db: Db, leadId: string, input: CreateTaskRequest, adminId: string, timeZone: string): Promise<Task> {
  await requireActiveAssignee(db, input.assignee_id);
  const task = await transaction(db, async (tx) => {
    const added = await insertTask(tx, leadId, input, adminId);
    if (added) await syncNextStep(tx, leadId, timeZone);
    return added;
  });
  if (!task) throw leadNotFound();
  return task;
}

/** Changes a task, or marks it done or not done, and refreshes its lead's next step. */
export async function changeTask(
  db: Db,
  leadId: string,
  taskId: string,
  patch: UpdateTaskRequest,
  adminId: string,
  timeZone: string,
): Promise<Task> {
  await requireActiveAssignee(db, patch.assignee_id);
  const task = await transaction(db, async (tx) => {
    const changed = await updateTaskRow(tx, leadId, taskId, patch, adminId);
    if (changed) await syncNextStep(tx, leadId, timeZone);
    return changed;
  });
  if (!task) throw taskNotFound();
  return task;
}

/** Removes a task, and refreshes its lead's next step. */
export async function removeTask(db: Db, leadId: string, taskId: string, timeZone: string): Promise<void> {
  const removed = await transaction(db, async (tx) => {
    const gone = await deleteTaskRow(tx, leadId, taskId);
    if (gone) await syncNextStep(tx, leadId, timeZone);
    return gone;
  });
  if (!removed) throw taskNotFound();
}
