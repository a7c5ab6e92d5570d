import { analyticsNowSchema, analyticsSummaryQuerySchema, analyticsSummarySchema } from '#shared/schemas/analytics';
import { createAdminRoute } from '../auth/admin-route.ts';
import { getAnalyticsNow } from '../db/queries/analytics-now.ts';
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

const nowRoute = createAdminRoute({
  method: 'get',
  path: '/api/analytics/now',
  tags: ['analytics'],
  summary: 'Visitors on the site now (an event in the last 5 minutes) and their pages; the notification stream says "change: analytics" when it moves',
  responses: { 200: jsonContent(analyticsNowSchema, 'Visitors now') },
});

export const analyticsRoutes = createRouter()
  .openapi(summaryRoute, async (c) => c.json(await getAnalyticsSummary(c.var.db, c.req.valid('query').period, c.var.deps.config.businessTimeZone), 200))
  .openapi(nowRoute, async (c) => c.json(await getAnalyticsNow(c.var.db), 200));
