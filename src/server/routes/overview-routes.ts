import { overviewSchema } from '#shared/schemas/overview';
import { createAdminRoute } from '../auth/admin-route.ts';
import { getOverview } from '../db/queries/overview-queries.ts';
import { jsonContent } from '../http/openapi.ts';
import { createRouter } from '../http/router.ts';

const overviewRoute = createAdminRoute({
  method: 'get',
  path: '/api/overview',
  tags: ['overview'],
  summary: 'The Overview: counts, recent leads, upcoming appointments, speed to lead, next steps due, the expected fees',
  responses: { 200: jsonContent(overviewSchema, 'The overview') },
});

export const overviewRoutes = createRouter().openapi(overviewRoute, async (c) =>
  c.json(await getOverview(c.get('db'), c.get('deps').config.businessTimeZone), 200),
);
