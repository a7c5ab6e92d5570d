import * as z from 'zod';
import {
  ANALYTICS_EVENT_TYPES,
  ANALYTICS_PERIODS,
  ANALYTICS_TEXT_LIMITS,
  MAX_EVENT_SECONDS,
  percentChange,
  SESSION_ID_PATTERN,
} from '../constants.ts';

export { percentChange };
import { storableText } from './text.ts';

const optionalText = (max: number) => storableText().max(max).optional();

/**
 * One event from the public pages' tracker. Heartbeat and time_spent carry the seconds since
 * that page's previous record, so summing them never counts a second twice.
 */
export const analyticsEventRequestSchema = z
  .object({
    session_id: storableText().regex(SESSION_ID_PATTERN, 'Invalid session id'),
    event_type: z.enum(ANALYTICS_EVENT_TYPES),
    page_path: storableText().min(1).max(ANALYTICS_TEXT_LIMITS.path).startsWith('/', 'Invalid path'),
    time_spent: z.number().int().min(0).max(MAX_EVENT_SECONDS).optional(),
    referrer: optionalText(ANALYTICS_TEXT_LIMITS.referrer),
    utm_source: optionalText(ANALYTICS_TEXT_LIMITS.utm),
    utm_medium: optionalText(ANALYTICS_TEXT_LIMITS.utm),
    utm_campaign: optionalText(ANALYTICS_TEXT_LIMITS.utm),
  })
  .refine((e) => (e.event_type !== 'heartbeat' && e.event_type !== 'time_spent') || e.time_spent !== undefined, {
    message: 'time_spent is required for heartbeat and time_spent events',
    path: ['time_spent'],
  })
  .meta({ id: 'AnalyticsEventRequest' });
export type AnalyticsEventRequest = z.infer<typeof analyticsEventRequestSchema>;

export const analyticsSummaryQuerySchema = z.object({ period: z.enum(ANALYTICS_PERIODS).default('7d') });

/**
 * The Analytics dashboard's summary cards of a preset period; the server computes it all in
 * SQL. Visitors, page views and the form's conversions are counted as the report's trend and
 * funnel count them for the same period (docs/product-rules.md, "Analytics").
 */
export const analyticsSummarySchema = z
  .object({
    period: z.enum(ANALYTICS_PERIODS),
    time_zone: z.string(),
    page_views: z.number().int(),
    previous_page_views: z.number().int(),
    /**
     * Percent change of page views versus the previous period of equal length; 100 when that
     * was 0 and this one has views; null when both are 0 (no change to compute).
     */
    change_percent: z.number().nullable(),
    /** Visitors whose first recorded page view is in the period: the trend's sum, the funnel's first step. */
    unique_visitors: z.number().int(),
    /** Time spent on the site in the period / the period's visitors, in seconds. */
    avg_time_seconds: z.number(),
    /** 24 buckets by hour of day (0-23) in the business time zone. */
    hourly: z.array(z.object({ hour: z.number().int(), views: z.number().int(), time_spent: z.number().int() })).length(24),
    top_pages: z.array(z.object({ path: z.string(), views: z.number().int(), avg_time_seconds: z.number() })),
    /** The period's visitors who sent the lead form (the funnel's "Sent the form"), and that as a percent of them. */
    form_conversions: z.number().int(),
    conversion_rate: z.number(),
    /** Page views by kind of device. */
    devices: z.object({ desktop: z.number().int(), mobile: z.number().int(), tablet: z.number().int() }),
  })
  .meta({ id: 'AnalyticsSummary' });
export type AnalyticsSummary = z.infer<typeof analyticsSummarySchema>;

/** "Now" is the visitors with an event in the last this many minutes. */
export const NOW_MINUTES = 5;

/** Visitors on the site now: sessions with an event in the last NOW_MINUTES, and the page each was last on. */
export const analyticsNowSchema = z
  .object({
    minutes: z.number().int(),
    visitors: z.number().int(),
    /** Where those visitors are, most visitors first (at most 10 pages). */
    pages: z.array(z.object({ path: z.string(), visitors: z.number().int() })),
  })
  .meta({ id: 'AnalyticsNow' });
export type AnalyticsNow = z.infer<typeof analyticsNowSchema>;
