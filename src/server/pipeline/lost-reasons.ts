import { LOST_REASONS_MAX } from '#shared/constants';
import type { LostReason } from '#shared/schemas/pipeline';
import type { Db } from '../db/client.ts';
import { unlessNameTaken } from '../db/database-faults.ts';
import { deleteLostReason, insertLostReason, lockPipeline, lostReasonById, setLostReasonName } from '../db/queries/pipeline-queries.ts';
import { transaction } from '../db/sql.ts';
import { AppError } from '../lib/app-error.ts';

/**
 * The lost reasons (docs/product-rules.md, "Pipeline", Lost reasons): a list the firm names,
 * unique whatever the case (the table's unique index), at most LOST_REASONS_MAX, changed under
 * the pipeline's lock like the stages. Renaming or removing one leaves the leads lost for it
 * with the words they have. Which reason a lead may be given (one of the list, with a Dropped
 * stage only) is checked where a lead is updated (shared/rules/lead-stage-change.ts, applied by db/queries/leads-queries.ts); a
 * lead moved to a Dropped stage by its status alone is lost for "Not given" (lead-stage.ts).
 */

const notFound = () => new AppError('not_found', 'Lost reason not found.');
const taken = (name: string) => new AppError('conflict', `“${name}” is already a lost reason.`, { name: 'Choose another reason' });

/** Adds a reason at the end of the list. */
export async function addLostReason(db: Db, name: string): Promise<LostReason> {
  const created = await unlessNameTaken(
    transaction(db, async (tx) => {
      await lockPipeline(tx);
      return insertLostReason(tx, name);
    }),
  );
  if (created === 'name_taken') throw taken(name);
  if (!created) throw new AppError('conflict', `A firm keeps at most ${LOST_REASONS_MAX} lost reasons: remove one first.`);
  return created;
}

/** Renames a reason: the reason before and after. */
export async function renameLostReason(db: Db, id: string, name: string): Promise<{ before: LostReason; after: LostReason }> {
  const saved = await unlessNameTaken(
    transaction(db, async (tx) => {
      await lockPipeline(tx);
      const before = await lostReasonById(tx, id);
      if (!before) throw notFound();
      await setLostReasonName(tx, id, name);
      return { before, after: { id, name } };
    }),
  );
  if (saved === 'name_taken') throw taken(name);
  return saved;
}

/** Removes a reason from the list: the reason removed. */
export async function removeLostReason(db: Db, id: string): Promise<LostReason> {
  const removed = await deleteLostReason(db, id);
  if (!removed) throw notFound();
  return removed;
}
