import { overviewSchema } from '#shared/schemas/overview';
import { createAdminRoute } from '../auth/admin-route.ts';
import { getOverview } from '../db/queries/overview.ts';
import { createRouter, requireDb } from '../http/router.ts';

const overviewRoute = createAdminRoute({
  method: 'get',
  path: '/api/overview',
  tags: ['overview'],
  summary: 'The Overview: counts, recent leads, upcoming appointments, speed to lead',
  responses: { 200: { description: 'The overview', content: { 'application/json': { schema: overviewSchema } } } },
});

export const overviewRoutes = createRouter().openapi(overviewRoute, async (c) =>
  c.json(await getOverview(requireDb(c), c.get('deps').config.businessTimeZone), 200),
);
