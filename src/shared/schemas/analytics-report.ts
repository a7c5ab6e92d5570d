import * as z from 'zod';
import { ANALYTICS_MAX_RANGE_DAYS, ANALYTICS_TEXT_LIMITS } from '../constants.ts';
import { addDays, utcDay } from '../zoned-time.ts';
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

/**
 * The referring-site value of visits without a referrer (typed, bookmarked, or hidden by the
 * browser): what the tracker's ingestion stores for them, and the row that also takes the few
 * visits whose first recorded page had no source at all.
 */
export const DIRECT_SOURCE = 'Direct';

/**
 * The longest value a sources row can carry: a UTM row's three values at their longest, each
 * character escaped as JSON at its widest (\uXXXX), with the brackets, quotes and commas.
 */
export const ORIGIN_VALUE_MAX = 3 * 6 * ANALYTICS_TEXT_LIMITS.utm + 16;

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

/**
 * A range: `days` (the last that many days, today included) or `from` and `to` (YYYY-MM-DD,
 * both included), at most ANALYTICS_MAX_RANGE_DAYS long, the start first.
 */
const rangeShape = {
  from: dateSchema.optional(),
  to: dateSchema.optional(),
  days: z.coerce
    .number({ error: 'Days must be a number' })
    .int('Days must be a whole number')
    .min(1, 'Days must be at least 1')
    .max(ANALYTICS_MAX_RANGE_DAYS, 'Choose a range of at most 2 years')
    .optional(),
};
type RangeInput = { from?: string | undefined; to?: string | undefined; days?: number | undefined };
function withRangeChecks<T extends z.ZodObject<typeof rangeShape>>(schema: T) {
  return schema
    .refine((r: RangeInput) => r.days !== undefined || (r.from !== undefined && r.to !== undefined), {
      message: 'Choose the days: from and to, or a number of days',
      path: ['from'],
    })
    .refine((r: RangeInput) => !r.from || !r.to || r.from <= r.to, { message: 'The start date must be on or before the end date', path: ['to'] })
    .refine((r: RangeInput) => !r.from || !r.to || r.from > r.to || rangeDays(r.from, r.to) <= ANALYTICS_MAX_RANGE_DAYS, {
      message: 'Choose a range of at most 2 years',
      path: ['from'],
    });
}

export const analyticsRangeQuerySchema = withRangeChecks(z.object(rangeShape));
export type AnalyticsRangeQuery = z.infer<typeof analyticsRangeQuerySchema>;

export const analyticsSourcesQuerySchema = withRangeChecks(
  z.object({
    ...rangeShape,
    group: z.enum(ANALYTICS_SOURCE_GROUPS, { error: 'Group must be referrer, utm or landing' }).default('referrer'),
  }),
);

/** The days a range query means, `today` being today's date in the business time zone. */
export function resolveRange(query: RangeInput, today: string): { from: string; to: string } {
  if (query.from && query.to) return { from: query.from, to: query.to };
  return { from: addDays(today, -((query.days ?? 1) - 1)), to: today };
}

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
