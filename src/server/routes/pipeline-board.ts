import { DATE_RANGE_MESSAGE } from '#shared/constants';
import { parseUtmValue } from '#shared/schemas/analytics-report';
import { boardQuerySchema, pipelineBoardSchema } from '#shared/schemas/pipeline-board';
import { createAdminRoute } from '../auth/admin-route.ts';
import { decodeCursor, getPipelineBoard } from '../db/queries/pipeline-board.ts';
import type { LeadFilters } from '../db/queries/lead-list.ts';
import { AppError } from '../http/errors.ts';
import { errorResponses, jsonContent } from '../http/openapi.ts';
import { createRouter } from '../http/router.ts';

const boardRoute = createAdminRoute({
  method: 'get',
  path: '/api/pipeline',
  tags: ['pipeline'],
  summary:
    'The pipeline board: a column per stage with its count, fees and weighted fees, the open stages’ first cards, and the forecast; `stage_id` and `cursor` page one column',
  request: { query: boardQuerySchema },
  responses: {
    200: jsonContent(pipelineBoardSchema, 'The board'),
    ...errorResponses({ 400: 'Invalid input: a filter, the stage, or a cursor the board did not hand out', 404: 'No such stage' }),
  },
});

/** The board of deals (/dashboard/pipeline); moves go through PATCH /api/leads/{id} with `stage_id`. */
export const pipelineBoardRoutes = createRouter().openapi(boardRoute, async (c) => {
  const query = c.req.valid('query');
  if (query.created_from && query.created_to && query.created_from > query.created_to) {
    throw new AppError('validation_failed', DATE_RANGE_MESSAGE, { created_to: DATE_RANGE_MESSAGE });
  }
  if (query.origin === 'utm' && !parseUtmValue(query.origin_value ?? '')) {
    throw new AppError('validation_failed', 'Invalid campaign', { origin_value: 'Invalid campaign' });
  }
  if (query.cursor !== undefined && query.stage_id === undefined) {
    throw new AppError('validation_failed', 'A cursor pages one column: send its stage_id too.', { stage_id: 'Choose the stage to page' });
  }
  const cursor = query.cursor === undefined ? undefined : decodeCursor(query.cursor);
  if (query.cursor !== undefined && !cursor) {
    throw new AppError('validation_failed', 'Invalid cursor: reload the board.', { cursor: 'Invalid cursor' });
  }
  const owner = query.owner === 'me' ? c.get('user').id : query.owner === 'none' ? null : query.owner;
  const filters: LeadFilters = {
    origin: query.origin,
    origin_value: query.origin_value,
    created_from: query.created_from,
    created_to: query.created_to,
    timeZone: c.get('deps').config.businessTimeZone,
    ...(owner !== undefined && { owner }),
  };
  const board = await getPipelineBoard(c.get('db'), filters, {
    ...(query.stage_id !== undefined && { stageId: query.stage_id }),
    ...(cursor && { cursor }),
  });
  if (!board) throw new AppError('not_found', 'No such stage: reload the page to see the pipeline as it is now.');
  return c.json(board, 200);
});
