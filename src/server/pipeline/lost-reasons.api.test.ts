import { sql } from 'drizzle-orm';
import { beforeEach, describe, expect, it } from 'vitest';
import { LOST_REASONS_MAX } from '#shared/constants';
import { getPipelineSettings } from '../db/queries/pipeline-queries.ts';
import { execute } from '../db/sql.ts';
import { rowsOf, useTestDatabase } from '../test/database.ts';
import { addLostReason, removeLostReason, renameLostReason } from './lost-reasons.ts';

/** The firm's lost reasons: a list unique whatever the case, at most LOST_REASONS_MAX; leads keep their words. */
const database = useTestDatabase();
const refusal = async (work: Promise<unknown>) =>
  work.then(
    () => undefined,
    (error: unknown) => error,
  );
const names = async () => (await getPipelineSettings(database.db)).lost_reasons.map((r) => r.name);

beforeEach(async () => {
  await execute(database.db, sql`truncate leads cascade`);
  await execute(database.db, sql`delete from lost_reasons`);
  await execute(database.db, sql`insert into lost_reasons (name, position) values ('Price', 1), ('No response', 2)`);
});

describe('the lost reasons', () => {
  it('adds at the end, unique whatever the case', async () => {
    expect(await addLostReason(database.db, 'Timing')).toMatchObject({ name: 'Timing' });
    expect(await names()).toEqual(['Price', 'No response', 'Timing']);
    expect(await refusal(addLostReason(database.db, 'price'))).toMatchObject({
      status: 409,
      message: '“price” is already a lost reason.',
      fields: { name: 'Choose another reason' },
    });
  });

  it('keeps at most LOST_REASONS_MAX, however many are added at once', async () => {
    await Promise.allSettled(Array.from({ length: LOST_REASONS_MAX }, (_, i) => addLostReason(database.db, `Reason ${i}`)));
    expect((await names()).length).toBe(LOST_REASONS_MAX);
    expect(await refusal(addLostReason(database.db, 'One more'))).toMatchObject({ status: 409 });
  });

  it('renames and removes a reason; leads lost for it keep the words', async () => {
    const [lead] = await rowsOf<{ id: string }>(
      database.db,
      sql`insert into leads (full_name, email, phone, property_types, stage_id, lost_reason)
          select 'Jane Doe', 'jane@example.com', '555', array['land'], id, 'Price' from pipeline_stages where name = 'Lost' returning id`,
    );
    const price = (await getPipelineSettings(database.db)).lost_reasons.find((r) => r.name === 'Price')!;
    expect(await renameLostReason(database.db, price.id, 'Too dear')).toEqual({ before: price, after: { id: price.id, name: 'Too dear' } });
    expect(await refusal(renameLostReason(database.db, price.id, 'no response'))).toMatchObject({ status: 409 });
    expect(await removeLostReason(database.db, price.id)).toEqual({ id: price.id, name: 'Too dear' });
    expect(await names()).toEqual(['No response']);
    expect(await rowsOf(database.db, sql`select lost_reason from leads where id = ${lead!.id}`)).toEqual([{ lost_reason: 'Price' }]);
    expect(await refusal(removeLostReason(database.db, price.id))).toMatchObject({ status: 404 });
    expect(await refusal(renameLostReason(database.db, price.id, 'X'))).toMatchObject({ status: 404 });
  });
});
