import type { TaskList, TaskListItem, TaskListQuery } from '#shared/schemas/lead-tasks';
import type { Db } from '../db/client.ts';
import { listTasks, type TaskAssignee, type TaskCursor } from '../db/queries/lead-tasks-queries.ts';
import { AppError } from '../lib/app-error.ts';

/**
 * My tasks (docs/product-rules.md, "Tasks"): four lists, overdue, today, upcoming (soonest
 * first) and done (newest first), in the business time zone's days, a page at a time with how
 * many each holds, of whoever the person chooses (theirs, anyone's, nobody's, a person's). Staff
 * work every lead and may read, edit and delete any task on it, so the list refuses them no one's.
 */

/** Whose tasks `asked` means for `user`: theirs, anyone's (undefined), nobody's (null), or a person's. */
export function whoseTasks(asked: TaskListQuery['assignee'], user: { id: string }): TaskAssignee {
  return asked === 'me' ? user.id : asked === 'anyone' ? undefined : asked === 'unassigned' ? null : asked;
}

/** The cursor of My tasks: the last row's sort time and id. */
export const encodeTaskCursor = (c: TaskCursor) => Buffer.from(`${c.at}|${c.id}`).toString('base64url');

/** The cursor's parts; 400 on `cursor` for one that is not. */
export function decodeTaskCursor(cursor: string | undefined): TaskCursor | undefined {
  if (!cursor) return undefined;
  const [at, id] = Buffer.from(cursor, 'base64url').toString().split('|');
  if (!at || !id || Number.isNaN(Date.parse(at)) || !/^[0-9a-f-]{36}$/.test(id))
    throw new AppError('validation_failed', 'Invalid cursor', { cursor: 'Invalid cursor' });
  return { at, id };
}

/** One page of one list of `user`'s tasks, or of whose they ask for (whoseTasks). */
export async function myTasks(db: Db, query: TaskListQuery, user: { id: string }, timeZone: string): Promise<TaskList> {
  const assignee = whoseTasks(query.assignee, user);
  const after = decodeTaskCursor(query.cursor);
  const { rows, counts } = await listTasks(db, { bucket: query.bucket, assignee, limit: query.limit, timeZone, ...(after && { after }) });
  const page = rows.slice(0, query.limit);
  const last = page.at(-1);
  return {
    tasks: page.map(({ sort_at: _sortAt, ...task }): TaskListItem => task),
    next_cursor: rows.length > query.limit && last ? encodeTaskCursor({ at: last.sort_at, id: last.id }) : null,
    counts,
  };
}
