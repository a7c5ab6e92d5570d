import { leadIdParamSchema } from '#shared/schemas/lead';
import * as z from 'zod';
import { threadQuerySchema, timelineQuerySchema, timelineResponseSchema } from '#shared/schemas/lead-workspace';
import { createAdminRoute } from '../auth/admin-route.ts';
import { getLeadThread, getLeadTimeline, type SubjectOf } from '../db/queries/lead-timeline-queries.ts';
import { AppError } from '../http/errors.ts';
import type { Context } from 'hono';
import type { AppEnv } from '../http/context.ts';
import { errorResponses, jsonContent } from '../http/openapi.ts';
import { createRouter } from '../http/router.ts';
import { currentMailContext } from '../mail/mail-context.ts';
import { emailSubject } from '../mail/messages.ts';

const timelineRoute = createAdminRoute({
  method: 'get',
  path: '/api/leads/{id}/timeline',
  tags: ['leads'],
  summary:
    'The lead’s timeline, newest first: its creation, inquiries, status changes, notes, appointments, emails to the lead, owner and next-step changes',
  request: { params: leadIdParamSchema, query: timelineQuerySchema },
  responses: {
    200: jsonContent(timelineResponseSchema, 'A page of the timeline'),
    ...errorResponses({ 400: 'Invalid input', 404: 'No such lead' }),
  },
});

const threadRoute = createAdminRoute({
  method: 'get',
  path: '/api/leads/{id}/threads/{threadId}',
  tags: ['leads'],
  summary: 'One conversation on the lead’s timeline (a `thread_id` of its email entries), newest message first',
  request: {
    params: leadIdParamSchema.extend({ threadId: z.uuid('Invalid conversation id') }),
    query: threadQuerySchema,
  },
  responses: {
    200: jsonContent(timelineResponseSchema, 'A page of the conversation’s messages'),
    ...errorResponses({ 400: 'Invalid input', 404: 'No such conversation on this lead, or `before` is not one of its messages' }),
  },
});

/** An email's subject as the outbox writes it, from the message's snapshot. */
async function subjects(c: Context<AppEnv>): Promise<SubjectOf> {
  const context = await currentMailContext(c.get('db'), c.get('deps').config);
  return (kind, data) => emailSubject(kind, data, context);
}

export const leadTimelineRoutes = createRouter()
  .openapi(timelineRoute, async (c) => {
    const timeline = await getLeadTimeline(c.get('db'), c.req.valid('param').id, c.req.valid('query'), await subjects(c));
    if (!timeline) throw new AppError('not_found', 'Lead not found.');
    return c.json(timeline, 200);
  })
  .openapi(threadRoute, async (c) => {
    const { id, threadId } = c.req.valid('param');
    const thread = await getLeadThread(c.get('db'), id, threadId, c.req.valid('query'), await subjects(c));
    if (!thread) throw new AppError('not_found', 'No such conversation on this lead.');
    if (thread === 'no_such_message')
      throw new AppError('not_found', 'That message is no longer in this conversation. Reload the page to see it as it is now.');
    return c.json(thread, 200);
  });
