import { analyticsSummaryQuerySchema, analyticsSummarySchema } from '#shared/schemas/analytics';
import { errorResponseSchema } from '#shared/schemas/error';
import { createAdminRoute } from '../auth/admin-route.ts';
import { getAnalyticsSummary } from '../db/queries/analytics-summary.ts';
import { createRouter, requireDb } from '../http/router.ts';

const summaryRoute = createAdminRoute({
  method: 'get',
  path: '/api/analytics/summary',
  tags: ['analytics'],
  summary: 'The Analytics dashboard for a period: views and change, unique visitors, average time, 24 hourly buckets, top pages',
  request: { query: analyticsSummaryQuerySchema },
  responses: {
    200: { description: 'The summary', content: { 'application/json': { schema: analyticsSummarySchema } } },
    400: { description: 'Unknown period', content: { 'application/json': { schema: errorResponseSchema } } },
  },
});

export const analyticsRoutes = createRouter().openapi(summaryRoute, async (c) =>
  c.json(await getAnalyticsSummary(requireDb(c), c.req.valid('query').period, c.get('deps').config.businessTimeZone), 200),
);
