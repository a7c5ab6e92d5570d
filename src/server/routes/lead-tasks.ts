import * as z from 'zod';
import { leadIdParamSchema } from '#shared/schemas/lead';
import {
  createTaskRequestSchema,
  leadTasksResponseSchema,
  taskListQuerySchema,
  taskListSchema,
  taskSchema,
  updateTaskRequestSchema,
} from '#shared/schemas/lead-tasks';
import { createAdminRoute } from '../auth/admin-route.ts';
import { createTask, deleteTask, listLeadTasks, listTasks, TaskRefused, updateTask, type TaskAssignee } from '../db/queries/lead-tasks.ts';
import { AppError } from '../http/errors.ts';
import { errorResponses, jsonContent } from '../http/openapi.ts';
import { createRouter } from '../http/router.ts';

const taskParams = leadIdParamSchema.extend({ task_id: z.uuid('Invalid task id') });
export const OTHERS_TASKS_OWNERS_ONLY = 'Only an owner of the team can see other people’s tasks.';

const listRoute = createAdminRoute({
  method: 'get',
  path: '/api/leads/{id}/tasks',
  tags: ['leads'],
  summary: "The lead's tasks: open ones soonest first (the first is its next step), then the last 50 done",
  request: { params: leadIdParamSchema },
  responses: { 200: jsonContent(leadTasksResponseSchema, 'Tasks'), ...errorResponses({ 400: 'Invalid lead id', 404: 'No such lead' }) },
});

const createRoute = createAdminRoute({
  method: 'post',
  path: '/api/leads/{id}/tasks',
  tags: ['leads'],
  summary: "Add a task (call, email, meeting, to-do) due at a time, for someone (default: the lead's owner)",
  request: { params: leadIdParamSchema, body: { required: true, ...jsonContent(createTaskRequestSchema, 'The task') } },
  responses: { 201: jsonContent(taskSchema, 'Added'), ...errorResponses({ 400: 'Invalid input', 404: 'No such lead' }) },
});

const updateRoute = createAdminRoute({
  method: 'patch',
  path: '/api/leads/{id}/tasks/{task_id}',
  tags: ['leads'],
  summary: 'Change a task, or mark it done or not done',
  request: { params: taskParams, body: { required: true, ...jsonContent(updateTaskRequestSchema, 'The fields to change') } },
  responses: { 200: jsonContent(taskSchema, 'Changed'), ...errorResponses({ 400: 'Invalid input', 404: 'No such task' }) },
});

const deleteRoute = createAdminRoute({
  method: 'delete',
  path: '/api/leads/{id}/tasks/{task_id}',
  tags: ['leads'],
  summary: 'Remove a task',
  request: { params: taskParams },
  responses: { 204: { description: 'Removed' }, ...errorResponses({ 400: 'Invalid id', 404: 'No such task' }) },
});

const myTasksRoute = createAdminRoute({
  method: 'get',
  path: '/api/tasks',
  tags: ['leads'],
  summary: "My tasks: overdue, today's, upcoming or done, a page at a time; owners may see anyone's",
  request: { query: taskListQuerySchema },
  responses: {
    200: jsonContent(taskListSchema, 'One list of tasks and how many each list holds'),
    ...errorResponses({ 400: 'Invalid query', 403: "Staff asking for someone else's tasks" }),
  },
});

const refused = (err: unknown): never => {
  if (err instanceof TaskRefused) throw new AppError('validation_failed', err.message, { [err.field]: err.message });
  throw err;
};
const taskNotFound = () => new AppError('not_found', 'Task not found.');

/** A lead's tasks, and My tasks across leads. */
export const leadTaskRoutes = createRouter()
  .openapi(listRoute, async (c) => {
    const tasks = await listLeadTasks(c.get('db'), c.req.valid('param').id);
    if (!tasks) throw new AppError('not_found', 'Lead not found.');
    return c.json({ tasks }, 200);
  })
  .openapi(createRoute, async (c) => {
    const task = await createTask(
      c.get('db'),
      c.req.valid('param').id,
      c.req.valid('json'),
      c.get('user').id,
      c.get('deps').config.businessTimeZone,
    ).catch(refused);
    if (!task) throw new AppError('not_found', 'Lead not found.');
    return c.json(task, 201);
  })
  .openapi(updateRoute, async (c) => {
    const { id, task_id } = c.req.valid('param');
    const task = await updateTask(
      c.get('db'),
      id,
      task_id,
      c.req.valid('json'),
      c.get('user').id,
      c.get('deps').config.businessTimeZone,
    ).catch(refused);
    if (!task) throw taskNotFound();
    return c.json(task, 200);
  })
  .openapi(deleteRoute, async (c) => {
    const { id, task_id } = c.req.valid('param');
    if (!(await deleteTask(c.get('db'), id, task_id, c.get('deps').config.businessTimeZone))) throw taskNotFound();
    return c.body(null, 204);
  })
  .openapi(myTasksRoute, async (c) => {
    const query = c.req.valid('query');
    const user = c.get('user');
    const assignee: TaskAssignee =
      query.assignee === 'me' ? user.id : query.assignee === 'anyone' ? undefined : query.assignee === 'unassigned' ? null : query.assignee;
    if (assignee !== user.id && user.role !== 'owner') throw new AppError('forbidden', OTHERS_TASKS_OWNERS_ONLY);
    const list = await listTasks(c.get('db'), { ...query, assignee, timeZone: c.get('deps').config.businessTimeZone }).catch(refused);
    return c.json(list, 200);
  });
