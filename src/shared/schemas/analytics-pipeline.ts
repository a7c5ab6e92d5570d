import * as z from 'zod';

/**
 * The Analytics page's pipeline figures of a period (the report's period, cut the same way):
 * the deals lost in it by reason, and the stage-to-stage conversion of its leads. The
 * definitions are docs/product-rules.md's, "Analytics".
 */

const count = z.number().int();

export const analyticsLostReasonSchema = z
  .object({
    /** The reason as the lead keeps it ("Not given" when none was given). */
    reason: z.string(),
    /** Deals lost in the period for it. */
    deals: count,
    /** Its deals per 100 deals lost in the period, one decimal. */
    share_percent: z.number(),
    /** The sum of those deals' estimated fees, in cents (a deal without one adds nothing). */
    fees_cents: count,
  })
  .meta({ id: 'AnalyticsLostReason' });
export type AnalyticsLostReason = z.infer<typeof analyticsLostReasonSchema>;

export const analyticsStageStepSchema = z
  .object({
    /** The open stage, or null for the last step: Won, any Converted stage. */
    stage_id: z.uuid().nullable(),
    /** The stage's name; for Won, the Converted stages' names ("Won"). */
    name: z.string(),
    status: z.enum(['New', 'Contacted', 'Converted']),
    /** The period's leads that reached this step or a later one since. */
    reached: count,
    /** Of those, per 100, the ones that reached the next step or a later one, one decimal; null for the last step or when none reached this one. */
    to_next_percent: z.number().nullable(),
  })
  .meta({ id: 'AnalyticsStageStep' });
export type AnalyticsStageStep = z.infer<typeof analyticsStageStepSchema>;

export const analyticsPipelineSchema = z
  .object({
    /** The days (business time zone) the period touches, both included, as the report's. */
    from: z.string(),
    to: z.string(),
    /** A period of whole hours (the last 24 hours), or null for whole days. */
    hours: count.nullable(),
    lost: z.object({
      /** Deals lost in the period (still lost now), and their estimated fees in cents. */
      deals: count,
      fees_cents: count,
      /** One row per reason, most deals first. */
      reasons: z.array(analyticsLostReasonSchema),
    }),
    conversion: z.object({
      /** The period's leads, as the trend counts them: the cohort every step counts from. */
      leads: count,
      /** The open stages in the board's order (New's, then Contacted's), then Won. */
      steps: z.array(analyticsStageStepSchema),
    }),
  })
  .meta({ id: 'AnalyticsPipeline' });
export type AnalyticsPipeline = z.infer<typeof analyticsPipelineSchema>;
