import { createRoute, z } from '@hono/zod-openapi';
import { errorResponseSchema } from '#shared/schemas/error';
import { createRouter } from '../lib/router.ts';
import { errorBody } from '../lib/errors.ts';

const healthRoute = createRoute({
  method: 'get',
  path: '/api/health',
  tags: ['system'],
  summary: 'Says whether the service and its database are ready',
  security: [],
  responses: {
    200: { description: 'Ready', content: { 'application/json': { schema: z.object({ status: z.literal('ok') }) } } },
    503: { description: 'Starting or database unavailable', content: { 'application/json': { schema: errorResponseSchema } } },
  },
});

export const healthRoutes = createRouter().openapi(healthRoute, async (c) => {
  const database = c.get('deps').database();
  if (!database) {
    return c.json(errorBody(c, 'service_unavailable', 'The database is not ready yet.'), 503);
  }
  return c.json({ status: 'ok' as const }, 200);
});
