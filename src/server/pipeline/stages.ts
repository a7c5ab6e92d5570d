import { PIPELINE_STAGES_MAX } from '#shared/constants';
import type { CreateStageRequest, PipelineStage, UpdateStageRequest } from '#shared/schemas/pipeline';
import type { Db } from '../db/client.ts';
import { unlessNameTaken } from '../db/database-faults.ts';
import {
  insertStage,
  lockPipeline,
  lockStage,
  removeStageMovingLeads,
  renumberStages,
  setStage,
  stageById,
  stageIdsOf,
} from '../db/queries/pipeline-queries.ts';
import { transaction } from '../db/sql.ts';
import { AppError } from '../lib/app-error.ts';
import { changedStageProbability, newStageProbability } from './stage-probability.ts';
import { placeStage } from './stage-order.ts';
import { checkStageRemoval } from './stage-removal.ts';

/**
 * Settings → Pipeline's stages (docs/product-rules.md, "Pipeline"): the owners add, rename,
 * reorder and remove them. Each change is one transaction under the pipeline's lock
 * (db/queries/pipeline-queries.ts, lockPipeline), so two owners changing the list at once end in one
 * order, and the firm's limit (PIPELINE_STAGES_MAX) is counted by the insert itself. A name is
 * unique whatever its case (the table's unique index on lower(name) refuses a second one).
 */

const notFound = () => new AppError('not_found', 'Stage not found.');
const nameTaken = (name: string) => new AppError('conflict', `A stage named “${name}” already exists.`, { name: 'Choose another name' });

/** Adds a stage at the end of its status's stages. */
export async function addStage(db: Db, req: CreateStageRequest): Promise<PipelineStage> {
  const probability = newStageProbability(req.status, req.probability);
  const created = await unlessNameTaken(
    transaction(db, async (tx) => {
      await lockPipeline(tx);
      return insertStage(tx, { name: req.name, status: req.status, probability });
    }),
  );
  if (created === 'name_taken') throw nameTaken(req.name);
  if (!created) throw new AppError('conflict', `A pipeline has at most ${PIPELINE_STAGES_MAX} stages: remove one first.`);
  return created;
}

/** Renames a stage, sets its probability, or moves it among its status's stages: the stage before and after. */
export async function changeStage(db: Db, id: string, req: UpdateStageRequest): Promise<{ before: PipelineStage; after: PipelineStage }> {
  const saved = await unlessNameTaken(
    transaction(db, async (tx) => {
      await lockPipeline(tx);
      const before = await stageById(tx, id);
      if (!before) throw notFound();
      if (req.name !== undefined || req.probability !== undefined)
        await setStage(tx, id, {
          name: req.name ?? before.name,
          probability: changedStageProbability(before.status, before.probability, req.probability),
        });
      if (req.position !== undefined && req.position !== before.position)
        await renumberStages(tx, before.status, placeStage(await stageIdsOf(tx, before.status, id), id, req.position));
      return { before, after: (await stageById(tx, id))! };
    }),
  );
  if (saved === 'name_taken') throw nameTaken(req.name ?? '');
  return saved;
}

/**
 * Removes a stage, its leads moving to `moveTo` (stage-removal.ts), each with a timeline entry
 * by `adminId`: the stage removed, how many leads moved, and the name of the stage they went to.
 */
export function removeStage(
  db: Db,
  id: string,
  moveTo: string,
  adminId: string,
): Promise<{ stage: PipelineStage; moved: number; to: string }> {
  return transaction(db, async (tx) => {
    await lockPipeline(tx);
    // Held until the stage is gone: a lead being moved into it meanwhile waits, then is refused.
    await lockStage(tx, id);
    const stage = await stageById(tx, id);
    if (!stage) throw notFound();
    const target = checkStageRemoval(
      stage,
      moveTo === id ? undefined : await stageById(tx, moveTo),
      (await stageIdsOf(tx, stage.status, id)).length,
    );
    const moved = await removeStageMovingLeads(tx, stage, target, adminId);
    return { stage, moved, to: target.name };
  });
}
