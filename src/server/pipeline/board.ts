import { BOARD_PAGE_SIZE, type BoardCard, type BoardColumn, type BoardQuery, type PipelineBoard } from '#shared/schemas/pipeline-board';
import type { Db } from '../db/client.ts';
import type { LeadFilters } from '../db/queries/lead-list-queries.ts';
import {
  boardConditions,
  cardPages,
  forecast,
  stageTotals,
  type BoardCardRow,
  type BoardCursor,
} from '../db/queries/pipeline-board-queries.ts';
import { AppError } from '../lib/app-error.ts';
import { ownerFilter, refuseBadFilters } from '../leads/lead-filters.ts';
import { decodeCursor, encodeCursor } from './board-cursor.ts';
import { isOpenStatus } from './stage-probability.ts';

/**
 * The board of deals (docs/product-rules.md, "The board"): a column per stage in the pipeline's
 * order with its count, fees and weighted fees; the open stages' first page of cards (Won and
 * Lost are collapsed, their cards only when one column is asked for); the forecast over the open
 * deals shown. Its filters are the leads list's. Moves are the lead's PATCH with `stage_id`.
 */

/** What a board request asks for: the filters, and one column's page when `stageId` is given. */
export type BoardRequest = { filters: LeadFilters; stageId?: string; cursor?: BoardCursor };

/**
 * The board's query as filters (`userId` is "me"; days in `timeZone`), refused with 400 for a
 * range that ends before it starts, a campaign that is not one, a cursor without its column, or a
 * cursor the board did not hand out.
 */
export function boardRequest(query: BoardQuery, userId: string, timeZone: string): BoardRequest {
  refuseBadFilters(query);
  if (query.cursor !== undefined && query.stage_id === undefined) {
    throw new AppError('validation_failed', 'A cursor pages one column: send its stage_id too.', { stage_id: 'Choose the stage to page' });
  }
  const cursor = query.cursor === undefined ? undefined : decodeCursor(query.cursor);
  if (query.cursor !== undefined && !cursor) {
    throw new AppError('validation_failed', 'Invalid cursor: reload the board.', { cursor: 'Invalid cursor' });
  }
  const owner = ownerFilter(query.owner, userId);
  return {
    filters: {
      origin: query.origin,
      origin_value: query.origin_value,
      created_from: query.created_from,
      created_to: query.created_to,
      timeZone,
      ...(owner !== undefined && { owner }),
    },
    ...(query.stage_id !== undefined && { stageId: query.stage_id }),
    ...(cursor && { cursor }),
  };
}

/** The board under the filters: every stage, or with `stageId` that one column's page from `cursor` (404 for no such stage). */
export async function pipelineBoard(db: Db, request: BoardRequest, pageSize = BOARD_PAGE_SIZE): Promise<PipelineBoard> {
  const where = boardConditions(request.filters);
  const [stages, expected] = await Promise.all([stageTotals(db, where, request.stageId), forecast(db, where)]);
  if (request.stageId !== undefined && stages.length === 0)
    throw new AppError('not_found', 'No such stage: reload the page to see the pipeline as it is now.');
  const withCards = stages.filter((s) => request.stageId !== undefined || isOpenStatus(s.status)).map((s) => s.id);
  const cards = await cardPages(db, withCards, where, pageSize, request.cursor);
  const byStage = new Map<string, BoardCardRow[]>();
  for (const card of cards) byStage.set(card.stage_id, [...(byStage.get(card.stage_id) ?? []), card]);
  const columns = stages.map((s): BoardColumn => {
    const rows = byStage.get(s.id) ?? [];
    const page = rows.slice(0, pageSize);
    const last = page.at(-1);
    return {
      stage: { id: s.id, name: s.name, status: s.status, probability: s.probability },
      count: s.count,
      fees_cents: s.fees_cents,
      weighted_cents: s.weighted_cents,
      cards: page.map(toCard),
      next_cursor: rows.length > pageSize && last ? encodeCursor({ at: last.entered_at_micros, id: last.id }) : null,
    };
  });
  return { columns, expected_fees_cents: expected };
}

const toCard = ({ stage_id: _s, entered_at_micros: _m, ...card }: BoardCardRow): BoardCard => card;
