import { analyticsNowSchema, analyticsSummaryQuerySchema, analyticsSummarySchema } from '#shared/schemas/analytics';
import { createAdminRoute } from '../auth/admin-route.ts';
import {
  analyticsRangeQuerySchema,
  analyticsReportSchema,
  analyticsSourcesQuerySchema,
  analyticsSourcesSchema,
  resolveRange,
} from '#shared/schemas/analytics-report';
import { zonedParts } from '#shared/zoned-time';
import { getAnalyticsNow } from '../db/queries/analytics-now.ts';
import { getAnalyticsReport, getAnalyticsSources } from '../db/queries/analytics-report.ts';
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

const reportRoute = createAdminRoute({
  method: 'get',
  path: '/api/analytics/report',
  tags: ['analytics'],
  summary: 'The funnel (visitors to clients), the daily trend and the totals of a range of days (from/to, or the last `days`), with the range before it',
  request: { query: analyticsRangeQuerySchema },
  responses: { 200: jsonContent(analyticsReportSchema, 'The report'), ...errorResponses({ 400: 'Invalid dates or a range longer than 2 years' }) },
});

const sourcesRoute = createAdminRoute({
  method: 'get',
  path: '/api/analytics/sources',
  tags: ['analytics'],
  summary: 'Visitors, leads, bookings, clients and fees by referring site, UTM campaign or landing page (first touch), and offline leads',
  request: { query: analyticsSourcesQuerySchema },
  responses: { 200: jsonContent(analyticsSourcesSchema, 'The rows'), ...errorResponses({ 400: 'Invalid dates, range or group' }) },
});

export const analyticsRoutes = createRouter()
  .openapi(summaryRoute, async (c) => c.json(await getAnalyticsSummary(c.var.db, c.req.valid('query').period, c.var.deps.config.businessTimeZone), 200))
  .openapi(nowRoute, async (c) => c.json(await getAnalyticsNow(c.var.db), 200))
  .openapi(reportRoute, async (c) => {
    const timeZone = c.var.deps.config.businessTimeZone;
    const { from, to } = resolveRange(c.req.valid('query'), zonedParts(Date.now(), timeZone).date);
    return c.json(await getAnalyticsReport(c.var.db, { from, to, timeZone }), 200);
  })
  .openapi(sourcesRoute, async (c) => {
    const query = c.req.valid('query');
    const timeZone = c.var.deps.config.businessTimeZone;
    const { from, to } = resolveRange(query, zonedParts(Date.now(), timeZone).date);
    const { group } = query;
    const rows = await getAnalyticsSources(c.var.db, { from, to, timeZone }, group);
    return c.json({ from, to, group, rows }, 200);
  });
