import { sql } from 'drizzle-orm';
import { beforeEach, describe, expect, it } from 'vitest';
import { PIPELINE_STAGES_MAX } from '#shared/constants';
import { ensureAdmin } from '../auth/accounts.ts';
import { listStages } from '../db/queries/pipeline-queries.ts';
import { execute } from '../db/sql.ts';
import { rowsOf, useTestDatabase } from '../test/database.ts';
import { LAST_OF_STATUS } from './stage-removal.ts';
import { addStage, changeStage, removeStage } from './stages.ts';

/** Settings → Pipeline's stages, changed under one lock: added, renamed, reordered, removed with their leads moved. */
const database = useTestDatabase();
let ownerId: string;
const refusal = async (work: Promise<unknown>) =>
  work.then(
    () => undefined,
    (error: unknown) => error,
  );
const stage = async (name: string) => (await listStages(database.db)).find((s) => s.name === name)!;
const contacted = async () => (await listStages(database.db)).filter((s) => s.status === 'Contacted').map((s) => s.name);

beforeEach(async () => {
  await execute(database.db, sql`truncate users, leads, audit_log cascade`);
  await execute(
    database.db,
    sql`delete from pipeline_stages where name not in ('New', 'Call booked', 'Proposal sent', 'Engaged', 'Won', 'Lost')`,
  );
  const defaults = sql`(values ('New', 'New', 1, 10), ('Call booked', 'Contacted', 1, 25), ('Proposal sent', 'Contacted', 2, 50),
    ('Engaged', 'Contacted', 3, 75), ('Won', 'Converted', 1, null), ('Lost', 'Dropped', 1, null)) as d(name, status, position, probability)`;
  await execute(
    database.db,
    sql`insert into pipeline_stages (name, status, position, probability) select * from ${defaults} on conflict do nothing`,
  );
  await execute(
    database.db,
    sql`update pipeline_stages s set position = d.position, probability = d.probability from ${defaults} where d.name = s.name`,
  );
  ownerId = (await ensureAdmin(database.db, 'olive@keystone.test', 'olive-password', 'owner', 'Olive Owner')).user.id;
});

describe('the pipeline’s stages', () => {
  it('adds a stage at the end of its status, with its chance to win (50 unless given; none for Won and Lost)', async () => {
    expect(await addStage(database.db, { name: 'Signed', status: 'Contacted' })).toMatchObject({ position: 4, probability: 50, leads: 0 });
    expect(await addStage(database.db, { name: 'Paid', status: 'Converted' })).toMatchObject({ position: 2, probability: null });
    expect(await refusal(addStage(database.db, { name: 'Gone', status: 'Dropped', probability: 5 }))).toMatchObject({ status: 400 });
    expect(await refusal(addStage(database.db, { name: 'signed', status: 'New' }))).toMatchObject({
      status: 409,
      message: 'A stage named “signed” already exists.',
    });
  });

  it('keeps at most PIPELINE_STAGES_MAX stages, however many owners add them at once', async () => {
    const adds = Array.from({ length: PIPELINE_STAGES_MAX }, (_, i) => addStage(database.db, { name: `Stage ${i}`, status: 'Contacted' }));
    const results = await Promise.allSettled(adds);
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(PIPELINE_STAGES_MAX - 6);
    expect((await listStages(database.db)).length).toBe(PIPELINE_STAGES_MAX);
    const positions = (await listStages(database.db)).filter((s) => s.status === 'Contacted').map((s) => s.position);
    expect(positions).toEqual(positions.map((_, i) => i + 1));
  });

  it('renames, sets the chance and reorders within the status, a place past the end being the end', async () => {
    const signed = await addStage(database.db, { name: 'Signed', status: 'Contacted', probability: 90 });
    const { before, after } = await changeStage(database.db, signed.id, { name: 'Retained', probability: null, position: 1 });
    expect(before).toMatchObject({ name: 'Signed', probability: 90, position: 4 });
    expect(after).toMatchObject({ name: 'Retained', probability: 50, position: 1 });
    expect(await contacted()).toEqual(['Retained', 'Call booked', 'Proposal sent', 'Engaged']);
    await changeStage(database.db, signed.id, { position: 100 });
    expect(await contacted()).toEqual(['Call booked', 'Proposal sent', 'Engaged', 'Retained']);
    expect(await refusal(changeStage(database.db, (await stage('Won')).id, { probability: 10 }))).toMatchObject({ status: 400 });
    expect(await refusal(changeStage(database.db, signed.id, { name: 'new' }))).toMatchObject({ status: 409 });
    expect(await refusal(changeStage(database.db, '00000000-0000-4000-8000-000000000001', { name: 'X' }))).toMatchObject({ status: 404 });
  });

  it('removes a stage, its leads moving to another of its status with a timeline entry each; keeps each status’s last', async () => {
    const [lead] = await rowsOf<{ id: string }>(
      database.db,
      sql`insert into leads (full_name, email, phone, property_types, stage_id)
          select 'Jane Doe', 'jane@example.com', '555', array['land'], id from pipeline_stages where name = 'Proposal sent' returning id`,
    );
    const proposal = await stage('Proposal sent');
    const won = await stage('Won');
    expect(await refusal(removeStage(database.db, proposal.id, won.id, ownerId))).toMatchObject({ status: 400 });
    expect(await refusal(removeStage(database.db, proposal.id, proposal.id, ownerId))).toMatchObject({ status: 400 });
    expect(await refusal(removeStage(database.db, won.id, (await stage('Lost')).id, ownerId))).toMatchObject({
      status: 409,
      message: LAST_OF_STATUS,
    });
    const removed = await removeStage(database.db, proposal.id, (await stage('Engaged')).id, ownerId);
    expect(removed).toMatchObject({ stage: { name: 'Proposal sent' }, moved: 1, to: 'Engaged' });
    expect(await contacted()).toEqual(['Call booked', 'Engaged']);
    expect((await stage('Engaged')).position).toBe(2);
    expect(
      await rowsOf(database.db, sql`select status, (select name from pipeline_stages where id = stage_id) as stage from leads`),
    ).toEqual([{ status: 'Contacted', stage: 'Engaged' }]);
    expect(await rowsOf(database.db, sql`select data from lead_events where lead_id = ${lead!.id} and kind = 'stage'`)).toEqual([
      { data: { from: 'Proposal sent', to: 'Engaged' } },
    ]);
    expect(await refusal(removeStage(database.db, proposal.id, (await stage('Engaged')).id, ownerId))).toMatchObject({ status: 404 });
  });
});
