import { sql } from 'drizzle-orm';
import * as z from 'zod';
import { PERIOD_HOURS, type AnalyticsPeriod } from '#shared/constants';
import { analyticsSummarySchema, percentChange, type AnalyticsSummary } from '#shared/schemas/analytics';
import type { Db } from '../client.ts';
import { queryRows } from '../sql.ts';

const TOP_PAGES = 5;

const int = z.number().int();
const totalsRow = z.object({ page_views: int, previous_page_views: int, time_spent: z.number(), unique_visitors: int, form_conversions: int });
const hourRow = z.object({ hour: int, views: int, time_spent: int });
const sourceRow = z.object({ kind: z.enum(['referrer', 'device']), value: z.string(), views: int });

/**
 * The Analytics dashboard's summary, from the hourly rollups (never the raw events), so it
 * stays fast at millions of events. A period of N hours is the current hour and the N - 1
 * before it; the previous period is the N hours before that. The 24 buckets are the hours
 * of the day in the business time zone.
 */
export async function getAnalyticsSummary(db: Db, period: AnalyticsPeriod, timeZone: string): Promise<AnalyticsSummary> {
  const hours = PERIOD_HOURS[period];
  const start = sql`(date_trunc('hour', now() at time zone 'UTC') at time zone 'UTC' - make_interval(hours => ${hours - 1}))`;
  const previousStart = sql`(${start} - make_interval(hours => ${hours}))`;

  const [totals, hourly, topPages, sources] = await Promise.all([
    queryRows(db, sql`
      select
        -- Sessions that sent the form, among the period's visitors: a session id the lead
        -- form sent but whose page views were never recorded (a bot, a blocked tracker) is
        -- not a visitor, so the rate stays a share of the visitors.
        (select count(distinct l.analytics_session_id)::int from leads l
          join analytics_sessions s on s.session_id = l.analytics_session_id
          where l.created_at >= ${start} and s.last_hour >= ${start}) as form_conversions,
        coalesce(sum(views) filter (where hour >= ${start}), 0)::int as page_views,
        coalesce(sum(views) filter (where hour < ${start}), 0)::int as previous_page_views,
        coalesce(sum(time_spent) filter (where hour >= ${start}), 0)::float8 as time_spent,
        -- A period ends now, so a session was active in it exactly when its last hour is in it.
        (select count(*)::int from analytics_sessions where last_hour >= ${start}) as unique_visitors
      from analytics_hourly where hour >= ${previousStart}`, totalsRow),
    queryRows(db, sql`
      select extract(hour from hour at time zone ${timeZone})::int as hour, sum(views)::int as views, sum(time_spent)::int as time_spent
      from analytics_hourly where hour >= ${start} group by 1`, hourRow),
    queryRows(db, sql`
      select page_path as path, sum(views)::int as views,
             case when sum(views) > 0 then round(sum(time_spent)::numeric / sum(views), 1)::float8 else 0 end as avg_time_seconds
      from analytics_hourly where hour >= ${start}
      group by page_path having sum(views) > 0
      order by views desc, path limit ${TOP_PAGES}`, analyticsSummarySchema.shape.top_pages.element),
    queryRows(db, sql`
      select kind, value, sum(views)::int as views from analytics_hourly_sources
      where hour >= ${start} group by 1, 2 order by views desc, value`, sourceRow),
  ]);
  const devices = { desktop: 0, mobile: 0, tablet: 0 };
  for (const s of sources) if (s.kind === 'device' && s.value in devices) devices[s.value as keyof typeof devices] = s.views;
  const t = totals[0]!;
  const byHour = new Map(hourly.map((h) => [h.hour, h]));
  return {
    period,
    time_zone: timeZone,
    page_views: t.page_views,
    previous_page_views: t.previous_page_views,
    change_percent: percentChange(t.page_views, t.previous_page_views),
    unique_visitors: t.unique_visitors,
    avg_time_seconds: t.unique_visitors > 0 ? Math.round(t.time_spent / t.unique_visitors) : 0,
    hourly: Array.from({ length: 24 }, (_, hour) => ({ hour, views: byHour.get(hour)?.views ?? 0, time_spent: byHour.get(hour)?.time_spent ?? 0 })),
    top_pages: topPages,
    form_conversions: t.form_conversions,
    conversion_rate: t.unique_visitors > 0 ? Math.round((t.form_conversions / t.unique_visitors) * 1000) / 10 : 0,
    top_referrers: sources.filter((s) => s.kind === 'referrer').slice(0, TOP_PAGES).map((s) => ({ source: s.value, views: s.views })),
    devices,
  };
}
