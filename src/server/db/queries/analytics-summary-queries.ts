import { sql } from 'drizzle-orm';
import * as z from 'zod';
import type { AnalyticsPeriod } from '#shared/constants';
import { analyticsSummarySchema, percentChange, type AnalyticsSummary } from '#shared/schemas/analytics';
import type { Db } from '../client.ts';
import { queryRows } from '../sql.ts';
import { readCardFigures } from './analytics-report-queries.ts';
import { bounds, presetWindow } from './analytics-window-queries.ts';

const TOP_PAGES = 5;

const int = z.number().int();
const hourRow = z.object({ hour: int, views: int, time_spent: int });
const deviceRow = z.object({ value: z.string(), views: int });

/**
 * The summary cards of a preset period, from the hourly rollups (never the raw events), so it
 * stays fast at millions of events. Visitors, page views and the form's conversions are the
 * trend's and the funnel's own (readCardFigures: the report's day counts over the same window),
 * so the cards cannot disagree with them; the time spent, the 24 hours of the day (business time zone), the top
 * pages and the devices are cut by the same bounds.
 */
export async function getAnalyticsSummary(db: Db, period: AnalyticsPeriod, timeZone: string, now = Date.now()): Promise<AnalyticsSummary> {
  const window = presetWindow(period, now, timeZone);
  const { start, end } = bounds(window);
  const [figures, hourly, topPages, devicesRows] = await Promise.all([
    readCardFigures(db, window),
    queryRows(
      db,
      sql`
      select extract(hour from hour at time zone ${timeZone})::int as hour, sum(views)::int as views, sum(time_spent)::int as time_spent
      from analytics_hourly where hour >= ${start} and hour < ${end} group by 1`,
      hourRow,
    ),
    queryRows(
      db,
      sql`
      select page_path as path, sum(views)::int as views,
             case when sum(views) > 0 then round(sum(time_spent)::numeric / sum(views), 1)::float8 else 0 end as avg_time_seconds
      from analytics_hourly where hour >= ${start} and hour < ${end}
      group by page_path having sum(views) > 0
      order by views desc, path limit ${TOP_PAGES}`,
      analyticsSummarySchema.shape.top_pages.element,
    ),
    queryRows(
      db,
      sql`
      select value, sum(views)::int as views from analytics_hourly_sources
      where kind = 'device' and hour >= ${start} and hour < ${end} group by 1`,
      deviceRow,
    ),
  ]);
  const devices = { desktop: 0, mobile: 0, tablet: 0 };
  for (const d of devicesRows) if (d.value in devices) devices[d.value as keyof typeof devices] = d.views;
  const { totals, previous_totals: previous, sent } = figures;
  const byHour = new Map(hourly.map((h) => [h.hour, h]));
  return {
    period,
    time_zone: timeZone,
    page_views: totals.page_views,
    previous_page_views: previous.page_views,
    change_percent: percentChange(totals.page_views, previous.page_views),
    unique_visitors: totals.visitors,
    avg_time_seconds: totals.visitors > 0 ? Math.round(figures.time_spent / totals.visitors) : 0,
    hourly: Array.from({ length: 24 }, (_, hour) => ({
      hour,
      views: byHour.get(hour)?.views ?? 0,
      time_spent: byHour.get(hour)?.time_spent ?? 0,
    })),
    top_pages: topPages,
    form_conversions: sent,
    conversion_rate: totals.visitors > 0 ? Math.round((sent / totals.visitors) * 1000) / 10 : 0,
    devices,
  };
}
