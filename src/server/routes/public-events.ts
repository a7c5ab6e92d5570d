import { createRoute } from '@hono/zod-openapi';
import { analyticsEventRequestSchema } from '#shared/schemas/analytics';
import { errorResponseSchema } from '#shared/schemas/error';
import { isBot } from '../analytics/event-recorder.ts';
import { AppError } from '../http/errors.ts';
import { publicOrigin } from '../http/public-origin.ts';
import { createRouter, requireDb } from '../http/router.ts';

const recordEventRoute = createRoute({
  method: 'post',
  path: '/api/public/events',
  tags: ['public'],
  summary: "Record one analytics event from the public pages' tracker",
  description: 'Open to anyone. Answered after the event is stored. Bots are answered 204 and not stored.',
  security: [],
  request: { body: { required: true, content: { 'application/json': { schema: analyticsEventRequestSchema } } } },
  responses: {
    204: { description: 'Recorded (or dropped as a bot)' },
    400: { description: 'Invalid event', content: { 'application/json': { schema: errorResponseSchema } } },
    429: { description: 'Too many events from this IP', content: { 'application/json': { schema: errorResponseSchema } } },
  },
});

export const publicEventRoutes = createRouter().openapi(recordEventRoute, async (c) => {
  requireDb(c);
  const { events } = c.get('deps');
  const event = c.req.valid('json');
  const userAgent = c.req.header('user-agent');
  if (!events.allow(c.get('clientIp'))) throw new AppError('rate_limited', 'Too many events. Please slow down.', undefined, { 'Retry-After': '60' });
  if (!isBot(userAgent)) await events.record(event, userAgent, publicOrigin(c).host);
  return c.body(null, 204);
});

