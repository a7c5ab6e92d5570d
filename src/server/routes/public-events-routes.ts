import { analyticsEventRequestSchema } from '#shared/schemas/analytics';
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
  // The User-Agent is stored (cut to its first 512 characters). Declared, not validated with a
  // `headers` schema, which copies every request's headers into an object and parses them for
  // the one read here: a header value is always text PostgreSQL can store (Node reads it as
  // Latin-1 and refuses NUL; the Fetch API's Headers refuse anything but bytes).
  parameters: [{ name: 'user-agent', in: 'header', required: false, schema: { type: 'string' } }],
  request: { body: { required: true, ...jsonContent(analyticsEventRequestSchema, 'The event') } },
  responses: {
    204: { description: 'Recorded (or dropped as a bot)' },
    ...errorResponses({ 400: 'Invalid event', 429: 'Too many events from this IP' }),
  },
});

export const publicEventRoutes = createRouter().openapi(recordEventRoute, async (c) => {
  const { events } = c.get('deps');
  const event = c.req.valid('json');
  const userAgent = c.req.header('user-agent');
  // The limit counts per minute (ANALYTICS_RATE_LIMIT), so a minute is always long enough to wait.
  if (!(await events.allow(rateLimitKey(c.get('clientIp'))))) throw tooManyRequests(60, 'events');
  if (!isBot(userAgent)) await events.record(event, userAgent, publicOrigin(c).host);
  return c.body(null, 204);
});
