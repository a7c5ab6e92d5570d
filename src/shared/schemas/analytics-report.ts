import * as z from 'zod';
import { ANALYTICS_MAX_RANGE_DAYS } from '../constants.ts';
import { utcDay } from '../zoned-time.ts';
import { dateSchema } from './appointment.ts';

/**
 * The Analytics report: the funnel, the sources table and the daily trend of a range of
 * whole days in the business time zone, with the range of the same length just before it.
 * A visitor belongs to the day of their first page view, and brings their first touch
 * (referring site, UTM, landing page) to every lead they send: first-touch attribution.
 */

/** What a by-source row groups by: the referring site, the UTM source/medium/campaign, or the landing page. */
export const ANALYTICS_SOURCE_GROUPS = ['referrer', 'utm', 'landing'] as const;
export type AnalyticsSourceGroup = (typeof ANALYTICS_SOURCE_GROUPS)[number];

/**
 * Where a lead came from, as the leads list filters it: a group of visits (with its value), a
 * lead entered by staff or imported (`offline`), or a lead from the website form whose visit
 * was not recorded (`unrecorded`: the visitor asked not to be tracked, or blocked the tracker).
 */
export const LEAD_ORIGINS = [...ANALYTICS_SOURCE_GROUPS, 'offline', 'unrecorded'] as const;
export type LeadOrigin = (typeof LEAD_ORIGINS)[number];

/** The referring-site value of visits without a referrer (typed, bookmarked, or hidden by the browser). */
export const DIRECT_SOURCE = '(direct)';

/** A UTM row's value: its source, medium and campaign ('' for none), as one JSON text. */
export const utmValue = (source: string, medium: string, campaign: string) => JSON.stringify([source, medium, campaign]);
export function parseUtmValue(value: string): [string, string, string] | undefined {
  try {
    const parsed: unknown = JSON.parse(value);
    return Array.isArray(parsed) && parsed.length === 3 && parsed.every((v) => typeof v === 'string') ? (parsed as [string, string, string]) : undefined;
  } catch {
    return undefined;
  }
}

/** Days from `from` to `to`, both included. */
export const rangeDays = (from: string, to: string) => (utcDay(to) - utcDay(from)) / 86_400_000 + 1;

/** A range of days (YYYY-MM-DD, both included) of at most ANALYTICS_MAX_RANGE_DAYS, the start first. */
function withRangeChecks<T extends z.ZodObject<{ from: typeof dateSchema; to: typeof dateSchema }>>(schema: T) {
  return schema
    .refine((r) => r.from <= r.to, { message: 'The start date must be on or before the end date', path: ['to'] })
    .refine((r) => r.from > r.to || rangeDays(r.from, r.to) <= ANALYTICS_MAX_RANGE_DAYS, {
      message: 'Choose a range of at most 2 years',
      path: ['from'],
    });
}

export const analyticsRangeQuerySchema = withRangeChecks(z.object({ from: dateSchema, to: dateSchema }));
export type AnalyticsRangeQuery = z.infer<typeof analyticsRangeQuerySchema>;

export const analyticsSourcesQuerySchema = withRangeChecks(
  z.object({
    from: dateSchema,
    to: dateSchema,
    group: z.enum(ANALYTICS_SOURCE_GROUPS, { error: 'Group must be referrer, utm or landing' }).default('referrer'),
  }),
);

const count = z.number().int();

/** Visitors → saw the form → started it → sent it → booked a call → Converted, counted in visitors (sessions). */
export const analyticsFunnelSchema = z.object({
  visitors: count,
  saw_form: count,
  started_form: count,
  sent: count,
  booked: count,
  converted: count,
});
export type AnalyticsFunnel = z.infer<typeof analyticsFunnelSchema>;

export const analyticsTotalsSchema = z.object({ visitors: count, page_views: count, leads: count });
export type AnalyticsTotals = z.infer<typeof analyticsTotalsSchema>;

export const analyticsReportSchema = z.object({
  from: z.string(),
  to: z.string(),
  /** The range of the same length just before (the comparison). */
  previous_from: z.string(),
  previous_to: z.string(),
  time_zone: z.string(),
  funnel: analyticsFunnelSchema,
  /** One entry per day of the range: new visitors, page views and leads created that day. */
  days: z.array(z.object({ day: z.string(), visitors: count, page_views: count, leads: count })),
  totals: analyticsTotalsSchema,
  previous_totals: analyticsTotalsSchema,
});
export type AnalyticsReport = z.infer<typeof analyticsReportSchema>;

export const analyticsSourceRowSchema = z.object({
  origin: z.enum(LEAD_ORIGINS),
  /** The group's value (a host or DIRECT_SOURCE, a utmValue, a path); '' for offline and unrecorded. */
  value: z.string(),
  visitors: count,
  leads: count,
  /** Leads with a call booked (an appointment that is not cancelled). */
  bookings: count,
  converted: count,
  /** Converted leads per 100 visitors, one decimal; null without visitors. */
  conversion_rate: z.number().nullable(),
  /** The sum of the estimated fees of the converted leads, in cents. */
  fees_cents: z.number().int(),
});
export type AnalyticsSourceRow = z.infer<typeof analyticsSourceRowSchema>;

export const analyticsSourcesSchema = z.object({
  from: z.string(),
  to: z.string(),
  group: z.enum(ANALYTICS_SOURCE_GROUPS),
  rows: z.array(analyticsSourceRowSchema),
});
export type AnalyticsSources = z.infer<typeof analyticsSourcesSchema>;

/** The conversion rate of a row: per 100 visitors, one decimal. */
export const conversionRate = (converted: number, visitors: number) => (visitors > 0 ? Math.round((converted / visitors) * 1000) / 10 : null);
