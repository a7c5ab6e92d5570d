import * as z from 'zod';
import { DATE_RANGE_MESSAGES, daysInRange } from '../rules/calendar.ts';
import { DIRECT_SOURCE, parseUtmValue, utmValue } from '../source-label.ts';
import { dateSchema } from './appointment.ts';
import {
  ANALYTICS_MAX_RANGE_DAYS,
  ANALYTICS_PERIODS,
  ANALYTICS_SOURCE_GROUPS,
  FUNNEL_CONVERSATION,
  LEAD_ORIGINS,
  ORIGIN_VALUE_MAX,
  type AnalyticsSourceGroup,
  type LeadOrigin,
} from '../constants.ts';

export { ANALYTICS_SOURCE_GROUPS, LEAD_ORIGINS, ORIGIN_VALUE_MAX, FUNNEL_CONVERSATION };
export type { AnalyticsSourceGroup, LeadOrigin };

/**
 * The Analytics report: the funnel, the sources table and the daily trend of a range of
 * whole days in the business time zone, with the range of the same length just before it.
 * A visitor belongs to the day of their first page view, and brings their first touch
 * (referring site, UTM, landing page) to every lead they send: first-touch attribution.
 */

export { DIRECT_SOURCE, parseUtmValue, utmValue };

/**
 * A range: `from` and `to` (YYYY-MM-DD, both included), a preset `period` (as the summary
 * cards', so the page counts one period one way), or `days` (the last that many days, today
 * included); at most ANALYTICS_MAX_RANGE_DAYS long, the start first.
 */
const rangeShape = {
  from: dateSchema.optional(),
  to: dateSchema.optional(),
  period: z.enum(ANALYTICS_PERIODS, { error: 'Period must be 24h, 7d, 14d, 30d or 90d' }).optional(),
  days: z.coerce
    .number({ error: 'Days must be a number' })
    .int('Days must be a whole number')
    .min(1, 'Days must be at least 1')
    .max(ANALYTICS_MAX_RANGE_DAYS, 'Choose a range of at most 2 years')
    .optional(),
};
type RangeInput = { from?: string | undefined; to?: string | undefined; days?: number | undefined; period?: string | undefined };
function withRangeChecks<T extends z.ZodObject<typeof rangeShape>>(schema: T) {
  return schema
    .refine((r: RangeInput) => r.days !== undefined || r.period !== undefined || (r.from !== undefined && r.to !== undefined), {
      message: DATE_RANGE_MESSAGES.missing,
      path: ['from'],
    })
    .refine((r: RangeInput) => !r.from || !r.to || r.from <= r.to, {
      message: DATE_RANGE_MESSAGES.order,
      path: ['to'],
    })
    .refine((r: RangeInput) => !r.from || !r.to || r.from > r.to || daysInRange(r.from, r.to) <= ANALYTICS_MAX_RANGE_DAYS, {
      message: DATE_RANGE_MESSAGES.tooLong,
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

const count = z.number().int();

/**
 * The period's visitors → saw the form → started it → sent it → had a conversation (FUNNEL_CONVERSATION)
 * → became clients after it, counted in visitors (sessions). Each step counts only visitors of
 * the step before: a visitor who sent the form saw and started it, even if those events were
 * lost. Clients won outside the funnel are counted beside it.
 */
export const analyticsFunnelSchema = z
  .object({
    visitors: count,
    saw_form: count,
    started_form: count,
    sent: count,
    /** Visitors who sent the form and had a conversation with the firm (FUNNEL_CONVERSATION). */
    booked: count,
    /** Of those, the visitors who became clients. */
    converted: count,
    /** Visitors who sent the form and booked a call, but whose calls were all marked no-show (not in `booked`). */
    no_shows: count,
    /** The period's visitors who became clients without a conversation: not in the funnel. */
    clients_without_call: count,
    /** Clients whose lead has no recorded visit (typed in, imported, or not tracked), added in the period: not in the funnel. */
    clients_without_visit: count,
  })
  .meta({ id: 'AnalyticsFunnel' });
export type AnalyticsFunnel = z.infer<typeof analyticsFunnelSchema>;

export const analyticsTotalsSchema = z.object({ visitors: count, page_views: count, leads: count }).meta({ id: 'AnalyticsTotals' });
export type AnalyticsTotals = z.infer<typeof analyticsTotalsSchema>;

export const analyticsReportSchema = z
  .object({
    /** The days (business time zone) the period touches, both included. */
    from: z.string(),
    to: z.string(),
    /**
     * Where the period starts and ends (the end not included), ISO 8601 with the business time
     * zone's offset: midnight of `from` and of the day after `to`, or whole hours (`hours`).
     */
    start: z.string(),
    end: z.string(),
    /** A period of whole hours (the last 24 hours: the current hour and the 23 before it), or null for whole days. */
    hours: z.number().int().nullable(),
    /** The range of the same length just before (the comparison). */
    previous_from: z.string(),
    previous_to: z.string(),
    time_zone: z.string(),
    funnel: analyticsFunnelSchema,
    /** One entry per day of the range: its visitors (first page view), page views and leads (the day of the visit that brought them). */
    days: z.array(z.object({ day: z.string(), visitors: count, page_views: count, leads: count })),
    totals: analyticsTotalsSchema,
    previous_totals: analyticsTotalsSchema,
  })
  .meta({ id: 'AnalyticsReport' });
export type AnalyticsReport = z.infer<typeof analyticsReportSchema>;

export const analyticsSourceRowSchema = z
  .object({
    origin: z.enum(LEAD_ORIGINS),
    /** The group's value (a host or DIRECT_SOURCE, a utmValue, a path); '' for offline and unrecorded. */
    value: z.string(),
    visitors: count,
    leads: count,
    /** Leads that had a conversation with the firm (FUNNEL_CONVERSATION). */
    bookings: count,
    converted: count,
    /** Converted leads per 100 visitors, one decimal; null without visitors. */
    conversion_rate: z.number().nullable(),
    /** The sum of the estimated fees of the converted leads, in cents. */
    fees_cents: z.number().int(),
  })
  .meta({ id: 'AnalyticsSourceRow' });
export type AnalyticsSourceRow = z.infer<typeof analyticsSourceRowSchema>;

export const analyticsSourcesSchema = z
  .object({
    from: z.string(),
    to: z.string(),
    group: z.enum(ANALYTICS_SOURCE_GROUPS),
    rows: z.array(analyticsSourceRowSchema),
  })
  .meta({ id: 'AnalyticsSources' });
export type AnalyticsSources = z.infer<typeof analyticsSourcesSchema>;

/** The conversion rate of a row: per 100 visitors, one decimal. */
export const conversionRate = (converted: number, visitors: number) =>
  visitors > 0 ? Math.round((converted / visitors) * 1000) / 10 : null;
