import * as z from 'zod';
import { TASK_BUCKETS, TASK_TITLE_MAX, TASK_TYPES } from '../constants.ts';
import { storableText } from './text.ts';

/**
 * A lead's tasks (Call, Email, Meeting, To-do): what is due when, and for whom. The earliest
 * open one is the lead's next step. My tasks lists them by assignee.
 */

const taskTitle = storableText({ error: 'Title is required' })
  .trim()
  .min(1, { message: 'Title is required', abort: true })
  .max(TASK_TITLE_MAX, `Title must be at most ${TASK_TITLE_MAX} characters`);
const taskType = z.enum(TASK_TYPES, { error: 'Choose what kind of task it is' });
const dueAt = storableText({ error: 'Choose when it is due' }).datetime({ offset: true, message: 'Choose when it is due' });
/** Someone on the team, or null for nobody (every admin is told when it falls due). */
const assignee = z.uuid({ error: 'Choose someone on the team' }).nullable();

export const createTaskRequestSchema = z
  .object({
    type: taskType,
    title: taskTitle,
    due_at: dueAt,
    /** Absent: the lead's owner. */
    assignee_id: assignee.optional(),
  })
  .meta({ id: 'CreateTaskRequest' });
export type CreateTaskRequest = z.infer<typeof createTaskRequestSchema>;

export const updateTaskRequestSchema = z
  .object({
    type: taskType.optional(),
    title: taskTitle.optional(),
    due_at: dueAt.optional(),
    assignee_id: assignee.optional(),
    done: z.boolean({ error: 'Done must be true or false' }).optional(),
  })
  .refine((body) => Object.values(body).some((value) => value !== undefined), { message: 'Nothing to change' })
  .meta({ id: 'UpdateTaskRequest' });
export type UpdateTaskRequest = z.infer<typeof updateTaskRequestSchema>;

const person = z.object({ id: z.uuid(), name: z.string() });

export const taskSchema = z
  .object({
    id: z.uuid(),
    lead_id: z.uuid(),
    type: z.enum(TASK_TYPES),
    /** Null for a next step set as a date without text. */
    title: z.string().nullable(),
    due_at: z.string(),
    assignee: person.nullable(),
    done_at: z.string().nullable(),
    done_by: person.nullable(),
    created_at: z.string(),
  })
  .meta({ id: 'Task' });
export type Task = z.infer<typeof taskSchema>;

export const leadTasksResponseSchema = z.object({ tasks: z.array(taskSchema) }).meta({ id: 'LeadTasks' });
export type LeadTasksResponse = z.infer<typeof leadTasksResponseSchema>;

/** My tasks: one list (bucket) at a time, for one person (`me`, an id, `unassigned`) or `anyone`. */
export const taskListQuerySchema = z.object({
  bucket: z.enum(TASK_BUCKETS, { error: 'Choose overdue, today, upcoming or done' }).default('today'),
  assignee: z
    .union([z.enum(['me', 'anyone', 'unassigned']), z.uuid()], { error: 'Choose me, anyone, unassigned or a person' })
    .default('me'),
  cursor: z
    .string()
    .regex(/^[A-Za-z0-9_-]{1,200}$/, 'Invalid cursor')
    .optional(),
  limit: z.coerce.number().int().min(1).max(200).default(50),
});
export type TaskListQuery = z.infer<typeof taskListQuerySchema>;

export const taskListItemSchema = taskSchema
  .extend({ lead: z.object({ id: z.uuid(), full_name: z.string() }) })
  .meta({ id: 'TaskListItem' });
export type TaskListItem = z.infer<typeof taskListItemSchema>;

export const taskListSchema = z
  .object({
    tasks: z.array(taskListItemSchema),
    next_cursor: z.string().nullable(),
    /** How many tasks each list holds for this person, today in the business time zone. */
    counts: z.object({ overdue: z.number().int(), today: z.number().int(), upcoming: z.number().int(), done: z.number().int() }),
  })
  .meta({ id: 'TaskList' });
export type TaskList = z.infer<typeof taskListSchema>;
