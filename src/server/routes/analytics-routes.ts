import { analyticsNowSchema, analyticsSummaryQuerySchema, analyticsSummarySchema } from '#shared/schemas/analytics';
import { createAdminRoute } from '../auth/admin-route.ts';
import {
  analyticsRangeQuerySchema,
  analyticsReportSchema,
  analyticsSourcesQuerySchema,
  analyticsSourcesSchema,
} from '#shared/schemas/analytics-report';
import { analyticsPipelineSchema } from '#shared/schemas/analytics-pipeline';
import { getAnalyticsNow } from '../db/queries/analytics-now-queries.ts';
import { getAnalyticsPipeline } from '../db/queries/analytics-pipeline-queries.ts';
import { getAnalyticsReport, getAnalyticsSources } from '../db/queries/analytics-report-queries.ts';
import { getAnalyticsSummary } from '../db/queries/analytics-summary-queries.ts';
import { resolveWindow } from '../db/queries/analytics-window-queries.ts';
import { errorResponses, jsonContent } from '../http/openapi.ts';
import { createRouter } from '../http/router.ts';

const summaryRoute = createAdminRoute({
  method: 'get',
  path: '/api/analytics/summary',
  tags: ['analytics'],
  summary:
    "The summary cards of a preset period (the same period as the report's `period`): views and change, visitors, average time, the form's conversions, 24 hourly buckets, top pages, devices",
  request: { query: analyticsSummaryQuerySchema },
  responses: { 200: jsonContent(analyticsSummarySchema, 'The summary'), ...errorResponses({ 400: 'Unknown period' }) },
});

const nowRoute = createAdminRoute({
  method: 'get',
  path: '/api/analytics/now',
  tags: ['analytics'],
  summary:
    'Visitors on the site now (an event in the last 5 minutes) and their pages; the notification stream says "change: analytics" when it moves',
  responses: { 200: jsonContent(analyticsNowSchema, 'Visitors now') },
});

const reportRoute = createAdminRoute({
  method: 'get',
  path: '/api/analytics/report',
  tags: ['analytics'],
  summary:
    'The funnel (visitors to clients), the daily trend and the totals of a period (from/to, a preset `period`, or the last `days`), with the period before it',
  request: { query: analyticsRangeQuerySchema },
  responses: {
    200: jsonContent(analyticsReportSchema, 'The report'),
    ...errorResponses({ 400: 'Invalid dates or a range longer than 2 years' }),
  },
});

const sourcesRoute = createAdminRoute({
  method: 'get',
  path: '/api/analytics/sources',
  tags: ['analytics'],
  summary: 'Visitors, leads, bookings, clients and fees by referring site, UTM campaign or landing page (first touch), and offline leads',
  request: { query: analyticsSourcesQuerySchema },
  responses: { 200: jsonContent(analyticsSourcesSchema, 'The rows'), ...errorResponses({ 400: 'Invalid dates, range or group' }) },
});

const pipelineRoute = createAdminRoute({
  method: 'get',
  path: '/api/analytics/pipeline',
  tags: ['analytics'],
  summary:
    "The deals lost in a period by reason, with their fees, and the stage-to-stage conversion of the period's leads (the report's period parameters)",
  request: { query: analyticsRangeQuerySchema },
  responses: {
    200: jsonContent(analyticsPipelineSchema, 'Lost reasons and stage conversion'),
    ...errorResponses({ 400: 'Invalid dates or a range longer than 2 years' }),
  },
});

export const analyticsRoutes = createRouter()
  .openapi(summaryRoute, async (c) =>
    c.json(await getAnalyticsSummary(c.get('db'), c.req.valid('query').period, c.get('deps').config.businessTimeZone), 200),
  )
  .openapi(nowRoute, async (c) => c.json(await getAnalyticsNow(c.get('db')), 200))
  .openapi(reportRoute, async (c) => {
    const window = resolveWindow(c.req.valid('query'), Date.now(), c.get('deps').config.businessTimeZone);
    return c.json(await getAnalyticsReport(c.get('db'), window), 200);
  })
  .openapi(pipelineRoute, async (c) => {
    const window = resolveWindow(c.req.valid('query'), Date.now(), c.get('deps').config.businessTimeZone);
    return c.json(await getAnalyticsPipeline(c.get('db'), window), 200);
  })
  .openapi(sourcesRoute, async (c) => {
    const query = c.req.valid('query');
    const window = resolveWindow(query, Date.now(), c.get('deps').config.businessTimeZone);
    const { group } = query;
    const rows = await getAnalyticsSources(c.get('db'), window, group);
    return c.json({ from: window.from, to: window.to, group, rows }, 200);
  });
