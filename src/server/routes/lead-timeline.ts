import { leadIdParamSchema } from '#shared/schemas/lead';
import { timelineQuerySchema, timelineResponseSchema } from '#shared/schemas/lead-workspace';
import { createAdminRoute } from '../auth/admin-route.ts';
import { getLeadTimeline } from '../db/queries/lead-timeline.ts';
import { AppError } from '../http/errors.ts';
import { errorResponses, jsonContent } from '../http/openapi.ts';
import { createRouter } from '../http/router.ts';
import { currentMailContext } from '../mail/context.ts';
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

export const leadTimelineRoutes = createRouter().openapi(timelineRoute, async (c) => {
  const context = await currentMailContext(c.get('db'), c.get('deps').config);
  // An email's subject as the outbox writes it, from the message's snapshot.
  const timeline = await getLeadTimeline(c.get('db'), c.req.valid('param').id, c.req.valid('query'), (kind, data) =>
    emailSubject(kind, data, context),
  );
  if (!timeline) throw new AppError('not_found', 'Lead not found.');
  return c.json(timeline, 200);
});
