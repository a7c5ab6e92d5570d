import * as z from 'zod';
import { LEAD_STATUSES } from '../constants.ts';
import { leadListQuerySchema } from './lead.ts';

/**
 * The pipeline board (GET /api/pipeline): a column per stage in the pipeline's order, each with
 * its count, fees and weighted fees and its first page of cards (open stages only: Won and Lost
 * are collapsed drop targets), and the board's forecast. `?stage_id=&cursor=` pages one column.
 */

/** Cards in one page of a column. */
export const BOARD_PAGE_SIZE = 25;

/** An opaque cursor as the board hands it out: base64url, short. */
const cursorSchema = z.string().regex(/^[A-Za-z0-9_-]{1,200}$/, 'Invalid cursor');

/** The board's filters, as the leads list has them: owner, where the lead came from, the days it was added. */
export const boardQuerySchema = leadListQuerySchema
  .pick({ owner: true, origin: true, origin_value: true, created_from: true, created_to: true })
  .extend({
    /** One column: its cards, even for a closed stage (Won, Lost), from `cursor` on. */
    stage_id: z.preprocess((v) => (v === '' ? undefined : v), z.uuid('Invalid stage').optional()),
    /** Where the column's previous page ended (its `next_cursor`); only with `stage_id`. */
    cursor: z.preprocess((v) => (v === '' ? undefined : v), cursorSchema.optional()),
  });
export type BoardQuery = z.infer<typeof boardQuerySchema>;

export const boardCardSchema = z
  .object({
    id: z.uuid(),
    full_name: z.string(),
    estimated_fee_cents: z.number().int().nullable(),
    owner: z.object({ id: z.uuid(), name: z.string() }).nullable(),
    /** The lead's next step: its earliest open task's day (YYYY-MM-DD, business time zone) and title. */
    next_step: z.object({ on: z.string(), title: z.string().nullable() }).nullable(),
    /** When the lead entered its stage (ISO 8601, UTC). */
    stage_entered_at: z.string(),
  })
  .meta({ id: 'BoardCard' });
export type BoardCard = z.infer<typeof boardCardSchema>;

export const boardColumnSchema = z
  .object({
    stage: z.object({
      id: z.uuid(),
      name: z.string(),
      status: z.enum(LEAD_STATUSES),
      /** Chance to win, 0–100, for open stages; null for Won and Lost. */
      probability: z.number().int().nullable(),
    }),
    /** Leads in the stage matching the filters. */
    count: z.number().int(),
    /** The sum of their estimated fees, whole cents (a lead without a fee counts 0). */
    fees_cents: z.number().int(),
    /** fees × probability / 100, rounded to whole cents; 0 for closed stages. */
    weighted_cents: z.number().int(),
    /** A page of cards, the latest to enter the stage first; empty for a closed stage unless asked by `stage_id`. */
    cards: z.array(boardCardSchema),
    /** Pass as `cursor` (with this `stage_id`) for the next page; null when this was the last. */
    next_cursor: z.string().nullable(),
  })
  .meta({ id: 'BoardColumn' });
export type BoardColumn = z.infer<typeof boardColumnSchema>;

export const pipelineBoardSchema = z
  .object({
    /** Every stage in the pipeline's order, or only the one asked for by `stage_id`. */
    columns: z.array(boardColumnSchema),
    /**
     * The forecast: over the open leads matching the filters, Σ fee × probability / 100, summed
     * exactly and rounded once to whole cents (half up).
     */
    expected_fees_cents: z.number().int(),
  })
  .meta({ id: 'PipelineBoard' });
export type PipelineBoard = z.infer<typeof pipelineBoardSchema>;
