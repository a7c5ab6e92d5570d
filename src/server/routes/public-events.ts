import * as z from 'zod';
import { analyticsEventRequestSchema } from '#shared/schemas/analytics';
import { storableText } from '#shared/schemas/text';
import { isBot } from '../analytics/event-recorder.ts';
import { tooManyRequests } from '../http/errors.ts';
import { createPublicRoute, errorResponses, jsonContent } from '../http/openapi.ts';
import { publicOrigin } from '../http/public-origin.ts';
import { createRouter } from '../http/router.ts';
import { rateLimitKey } from '../lib/client-address.ts';

const recordEventRoute = createPublicRoute({
  method: 'post',
  path: '/api/public/events',
  tags: ['public'],
  summary: "Record one analytics event from the public pages' tracker",
  description: 'Open to anyone. Answered after the event is stored. Bots are answered 204 and not stored.',
  request: {
    // Read as text and stored (cut to its first 512 characters), so it is checked like any other text.
    headers: z.object({ 'user-agent': storableText().optional() }),
    body: { required: true, ...jsonContent(analyticsEventRequestSchema, 'The event') },
  },
  responses: {
    204: { description: 'Recorded (or dropped as a bot)' },
    ...errorResponses({ 400: 'Invalid event', 429: 'Too many events from this IP' }),
  },
});

export const publicEventRoutes = createRouter().openapi(recordEventRoute, async (c) => {
  const { events } = c.get('deps');
  const event = c.req.valid('json');
  const userAgent = c.req.valid('header')['user-agent'];
  // The limit counts per minute (ANALYTICS_RATE_LIMIT), so a minute is always long enough to wait.
  if (!(await events.allow(rateLimitKey(c.get('clientIp'))))) throw tooManyRequests(60, 'events');
  if (!isBot(userAgent)) await events.record(event, userAgent, publicOrigin(c).host);
  return c.body(null, 204);
});
