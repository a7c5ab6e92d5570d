import * as z from 'zod';
import { LEAD_STATUSES, PIPELINE_STAGE_NAME_MAX, LOST_REASON_MAX } from '../constants.ts';
import { storableText } from './text.ts';

/**
 * The pipeline (Settings → Pipeline): stages the firm names, in order within each of the four
 * statuses, so every filter, badge and report that reads a status keeps working; open stages
 * (New, Contacted) carry a win probability for the forecast. And the reasons deals are lost.
 */
export const pipelineStageSchema = z
  .object({
    id: z.uuid(),
    name: z.string(),
    status: z.enum(LEAD_STATUSES),
    /** Its place among its status's stages, from 1. */
    position: z.number().int(),
    /** Chance of winning a deal in it, 0–100, for open stages (New, Contacted); null for Converted and Dropped. */
    probability: z.number().int().nullable(),
    /** How many leads are in it now. */
    leads: z.number().int(),
  })
  .meta({ id: 'PipelineStage' });
export type PipelineStage = z.infer<typeof pipelineStageSchema>;

export const lostReasonSchema = z.object({ id: z.uuid(), name: z.string() }).meta({ id: 'LostReason' });
export type LostReason = z.infer<typeof lostReasonSchema>;

export const pipelineSettingsSchema = z
  .object({
    /** In the board's order: by status (New, Contacted, Converted, Dropped), then position. */
    stages: z.array(pipelineStageSchema),
    lost_reasons: z.array(lostReasonSchema),
  })
  .meta({ id: 'PipelineSettings' });
export type PipelineSettings = z.infer<typeof pipelineSettingsSchema>;

const stageName = storableText({ error: 'Stage name is required' })
  .trim()
  .min(1, { message: 'Stage name is required', abort: true })
  .max(PIPELINE_STAGE_NAME_MAX, `Stage name must be at most ${PIPELINE_STAGE_NAME_MAX} characters`);

const probability = z
  .number({ error: 'Probability must be a whole number from 0 to 100' })
  .int('Probability must be a whole number from 0 to 100')
  .min(0, 'Probability must be a whole number from 0 to 100')
  .max(100, 'Probability must be a whole number from 0 to 100');

export const createStageRequestSchema = z
  .object({
    name: stageName,
    status: z.enum(LEAD_STATUSES, { error: 'Choose the status the stage belongs to' }),
    /** Open stages only; default 50. */
    probability: probability.nullable().optional(),
  })
  .meta({ id: 'CreateStageRequest' });
export type CreateStageRequest = z.infer<typeof createStageRequestSchema>;

export const updateStageRequestSchema = z
  .object({
    name: stageName.optional(),
    probability: probability.nullable().optional(),
    /** Its new place among its status's stages, from 1 (the others move along). */
    position: z
      .number({ error: 'Invalid position' })
      .int('Invalid position')
      .min(1, 'Invalid position')
      .max(100, 'Invalid position')
      .optional(),
  })
  .meta({ id: 'UpdateStageRequest' });
export type UpdateStageRequest = z.infer<typeof updateStageRequestSchema>;

export const stageIdParamSchema = z.object({ id: z.uuid('Invalid stage id') });

export const deleteStageQuerySchema = z.object({
  /** Where its leads go: another stage of the same status. */
  move_to: z.uuid('Choose where its leads go'),
});

export const lostReasonRequestSchema = z
  .object({
    name: storableText({ error: 'Reason is required' })
      .trim()
      .min(1, { message: 'Reason is required', abort: true })
      .max(LOST_REASON_MAX, `Reason must be at most ${LOST_REASON_MAX} characters`),
  })
  .meta({ id: 'LostReasonRequest' });
export type LostReasonRequest = z.infer<typeof lostReasonRequestSchema>;

export const lostReasonIdParamSchema = z.object({ id: z.uuid('Invalid reason id') });
