import { analyticsSummaryQuerySchema, analyticsSummarySchema } from '#shared/schemas/analytics';
import { createAdminRoute } from '../auth/admin-route.ts';
import { getAnalyticsSummary } from '../db/queries/analytics-summary.ts';
import { errorResponses, jsonContent } from '../http/openapi.ts';
import { createRouter } from '../http/router.ts';

const summaryRoute = createAdminRoute({
  method: 'get',
  path: '/api/analytics/summary',
  tags: ['analytics'],
  summary: 'The Analytics dashboard for a period: views and change, unique visitors, average time, 24 hourly buckets, top pages',
  request: { query: analyticsSummaryQuerySchema },
  responses: { 200: jsonContent(analyticsSummarySchema, 'The summary'), ...errorResponses({ 400: 'Unknown period' }) },
});

export const analyticsRoutes = createRouter().openapi(summaryRoute, async (c) =>
  c.json(await getAnalyticsSummary(c.var.db, c.req.valid('query').period, c.var.deps.config.businessTimeZone), 200),
);
