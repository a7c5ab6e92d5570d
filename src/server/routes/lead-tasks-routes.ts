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
import { errorResponses, jsonContent } from '../http/openapi.ts';
import { createRouter } from '../http/router.ts';
import { myTasks } from '../pipeline/my-tasks.ts';
import { addTask, changeTask, leadTasks, removeTask } from '../pipeline/tasks.ts';

const taskParams = leadIdParamSchema.extend({ task_id: z.uuid('Invalid task id') });

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
  summary: "My tasks: overdue, today's, upcoming or done, a page at a time; anyone's, nobody's or a person's on request",
  request: { query: taskListQuerySchema },
  responses: {
    200: jsonContent(taskListSchema, 'One list of tasks and how many each list holds'),
    ...errorResponses({ 400: 'Invalid query' }),
  },
});

/** A lead's tasks, and My tasks across leads (pipeline/tasks.ts, pipeline/my-tasks.ts). */
export const leadTaskRoutes = createRouter()
  .openapi(listRoute, async (c) => c.json({ tasks: await leadTasks(c.get('db'), c.req.valid('param').id) }, 200))
  .openapi(createRoute, async (c) => {
    const timeZone = c.get('deps').config.businessTimeZone;
    const task = await addTask(c.get('db'), c.req.valid('param').id, c.req.valid('json'), c.get('user').id, timeZone);
    return c.json(task, 201);
  })
  .openapi(updateRoute, async (c) => {
    const { id, task_id } = c.req.valid('param');
    const timeZone = c.get('deps').config.businessTimeZone;
    const task = await changeTask(c.get('db'), id, task_id, c.req.valid('json'), c.get('user').id, timeZone);
    return c.json(task, 200);
  })
  .openapi(deleteRoute, async (c) => {
    const { id, task_id } = c.req.valid('param');
    await removeTask(c.get('db'), id, task_id, c.get('deps').config.businessTimeZone);
    return c.body(null, 204);
  })
  .openapi(myTasksRoute, async (c) =>
    c.json(await myTasks(c.get('db'), c.req.valid('query'), c.get('user'), c.get('deps').config.businessTimeZone), 200),
  );
