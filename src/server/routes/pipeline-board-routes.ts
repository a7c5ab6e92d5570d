import { boardQuerySchema, pipelineBoardSchema } from '#shared/schemas/pipeline-board';
import { createAdminRoute } from '../auth/admin-route.ts';
import { errorResponses, jsonContent } from '../http/openapi.ts';
import { createRouter } from '../http/router.ts';
import { boardRequest, pipelineBoard } from '../pipeline/board.ts';

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

/** The board of deals (/dashboard/pipeline: pipeline/board.ts); moves go through PATCH /api/leads/{id} with `stage_id`. */
export const pipelineBoardRoutes = createRouter().openapi(boardRoute, async (c) => {
  const request = boardRequest(c.req.valid('query'), c.get('user').id, c.get('deps').config.businessTimeZone);
  return c.json(await pipelineBoard(c.get('db'), request), 200);
});
