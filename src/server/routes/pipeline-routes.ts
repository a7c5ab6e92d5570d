import * as z from 'zod';
import { LOST_REASONS_MAX, PIPELINE_STAGES_MAX } from '#shared/constants';
import {
  createStageRequestSchema,
  deleteStageQuerySchema,
  lostReasonIdParamSchema,
  lostReasonRequestSchema,
  lostReasonSchema,
  pipelineSettingsSchema,
  pipelineStageSchema,
  stageIdParamSchema,
  updateStageRequestSchema,
} from '#shared/schemas/pipeline';
import type { Context } from 'hono';
import { actorOf, recordAudit } from '../audit/audit-log.ts';
import { createAdminRoute, createOwnerRoute } from '../auth/admin-route.ts';
import { getPipelineSettings } from '../db/queries/pipeline-queries.ts';
import { addLostReason, removeLostReason, renameLostReason } from '../pipeline/lost-reasons.ts';
import { addStage, changeStage, removeStage } from '../pipeline/stages.ts';
import type { AppEnv } from '../http/context.ts';
import { errorResponses, jsonContent } from '../http/openapi.ts';
import { createRouter } from '../http/router.ts';

const settingsRoute = createAdminRoute({
  method: 'get',
  path: '/api/pipeline/stages',
  tags: ['pipeline'],
  summary: 'The pipeline’s stages in order (by status, then position), each with its lead count, and the lost reasons',
  responses: { 200: jsonContent(pipelineSettingsSchema, 'Stages and lost reasons') },
});

const createStageRoute = createOwnerRoute({
  method: 'post',
  path: '/api/pipeline/stages',
  tags: ['pipeline'],
  summary: `Add a stage at the end of its status’s stages (names unique whatever their case; at most ${PIPELINE_STAGES_MAX})`,
  request: { body: { required: true, ...jsonContent(createStageRequestSchema, 'The stage') } },
  responses: {
    201: jsonContent(pipelineStageSchema, 'Added'),
    ...errorResponses({
      400: 'Invalid input, or a probability for a closed stage',
      409: 'The name is taken, or there are too many stages',
    }),
  },
});

const updateStageRoute = createOwnerRoute({
  method: 'patch',
  path: '/api/pipeline/stages/{id}',
  tags: ['pipeline'],
  summary: 'Rename a stage, set its win probability (open stages), or move it among its status’s stages',
  request: { params: stageIdParamSchema, body: { required: true, ...jsonContent(updateStageRequestSchema, 'What changes') } },
  responses: {
    200: jsonContent(pipelineStageSchema, 'Saved'),
    ...errorResponses({ 400: 'Invalid input, or a probability for a closed stage', 404: 'No such stage', 409: 'The name is taken' }),
  },
});

const deleteStageRoute = createOwnerRoute({
  method: 'delete',
  path: '/api/pipeline/stages/{id}',
  tags: ['pipeline'],
  summary: 'Remove a stage; its leads move to `move_to`, another stage of the same status',
  request: { params: stageIdParamSchema, query: deleteStageQuerySchema },
  responses: {
    200: jsonContent(
      z.object({ id: z.uuid(), moved: z.number().int().describe('How many leads moved to `move_to`') }).meta({ id: 'StageRemoved' }),
      'Removed',
    ),
    ...errorResponses({
      400: 'Invalid input, or `move_to` is not another stage of its status',
      404: 'No such stage',
      409: 'The status’s last stage',
    }),
  },
});

const createReasonRoute = createOwnerRoute({
  method: 'post',
  path: '/api/pipeline/lost-reasons',
  tags: ['pipeline'],
  summary: `Add a lost reason (unique whatever its case; at most ${LOST_REASONS_MAX})`,
  request: { body: { required: true, ...jsonContent(lostReasonRequestSchema, 'The reason') } },
  responses: { 201: jsonContent(lostReasonSchema, 'Added'), ...errorResponses({ 400: 'Invalid input', 409: 'Taken, or too many' }) },
});

const renameReasonRoute = createOwnerRoute({
  method: 'patch',
  path: '/api/pipeline/lost-reasons/{id}',
  tags: ['pipeline'],
  summary: 'Rename a lost reason (leads lost for it keep the old words)',
  request: { params: lostReasonIdParamSchema, body: { required: true, ...jsonContent(lostReasonRequestSchema, 'The reason') } },
  responses: {
    200: jsonContent(lostReasonSchema, 'Saved'),
    ...errorResponses({ 400: 'Invalid input', 404: 'No such reason', 409: 'The name is taken' }),
  },
});

const deleteReasonRoute = createOwnerRoute({
  method: 'delete',
  path: '/api/pipeline/lost-reasons/{id}',
  tags: ['pipeline'],
  summary: 'Remove a lost reason from the list (leads lost for it keep the words)',
  request: { params: lostReasonIdParamSchema },
  responses: { 200: jsonContent(z.object({ id: z.uuid() }), 'Removed'), ...errorResponses({ 400: 'Invalid id', 404: 'No such reason' }) },
});

const audit = (c: Context<AppEnv>, details: Record<string, unknown>) =>
  recordAudit(c.get('db'), actorOf(c), { action: 'settings_changed', targetType: 'settings', targetId: 'pipeline', details });

/** Settings → Pipeline: the owners shape it, everyone reads it (the lead page's stage menu, the board); the rules are pipeline/stages.ts and lost-reasons.ts. */
export const pipelineRoutes = createRouter()
  .openapi(settingsRoute, async (c) => c.json(await getPipelineSettings(c.get('db')), 200))
  .openapi(createStageRoute, async (c) => {
    const created = await addStage(c.get('db'), c.req.valid('json'));
    await audit(c, { stage: 'created', stage_id: created.id, name: created.name, status: created.status });
    return c.json(created, 201);
  })
  .openapi(updateStageRoute, async (c) => {
    const { before, after } = await changeStage(c.get('db'), c.req.valid('param').id, c.req.valid('json'));
    if (before.name !== after.name || before.probability !== after.probability || before.position !== after.position)
      await audit(c, {
        stage: 'changed',
        stage_id: after.id,
        name: after.name,
        ...(before.name !== after.name && { renamed_from: before.name }),
        ...(before.probability !== after.probability && { probability: after.probability }),
        ...(before.position !== after.position && { position: after.position }),
      });
    return c.json(after, 200);
  })
  .openapi(deleteStageRoute, async (c) => {
    const { id } = c.req.valid('param');
    const removed = await removeStage(c.get('db'), id, c.req.valid('query').move_to, c.get('user').id);
    await audit(c, { stage: 'removed', stage_id: id, name: removed.stage.name, leads_moved_to: removed.to, leads_moved: removed.moved });
    return c.json({ id, moved: removed.moved }, 200);
  })
  .openapi(createReasonRoute, async (c) => {
    const { name } = c.req.valid('json');
    const created = await addLostReason(c.get('db'), name);
    await audit(c, { lost_reason: 'created', name });
    return c.json(created, 201);
  })
  .openapi(renameReasonRoute, async (c) => {
    const { name } = c.req.valid('json');
    const saved = await renameLostReason(c.get('db'), c.req.valid('param').id, name);
    if (saved.before.name !== saved.after.name) await audit(c, { lost_reason: 'renamed', name, renamed_from: saved.before.name });
    return c.json(saved.after, 200);
  })
  .openapi(deleteReasonRoute, async (c) => {
    const { id } = c.req.valid('param');
    const removed = await removeLostReason(c.get('db'), id);
    await audit(c, { lost_reason: 'removed', name: removed.name });
    return c.json({ id }, 200);
  });
