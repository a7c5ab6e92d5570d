import { sql } from 'drizzle-orm';
import { beforeEach, describe, expect, it } from 'vitest';
import { ensureAdmin } from '../auth/accounts.ts';
import { sqlState } from '../db/database-faults.ts';
import { execute } from '../db/sql.ts';
import { rowsOf, useTestDatabase } from '../test/database.ts';
import { LEAD_STAGE_TRIGGER } from './lead-stage.ts';
import { removeStage } from './stages.ts';

/**
 * A lead's stage and status move together whatever writes them (the trigger leads_stage_sync,
 * named in lead-stage.ts): plain SQL here, as any path that writes leads would.
 */
const database = useTestDatabase();
let ownerId: string;

type Row = { status: string; stage: string; lost_reason: string | null; entered: string };
const lead = async (id: string) =>
  (
    await rowsOf<Row>(
      database.db,
      sql`select l.status, s.name as stage, l.lost_reason, l.stage_entered_at::text as entered
          from leads l join pipeline_stages s on s.id = l.stage_id where l.id = ${id}`,
    )
  )[0]!;
const stageId = async (name: string) =>
  (await rowsOf<{ id: string }>(database.db, sql`select id from pipeline_stages where name = ${name}`))[0]!.id;
const insert = async (columns = sql``, values = sql``) =>
  (
    await rowsOf<{ id: string }>(
      database.db,
      sql`insert into leads (full_name, email, phone, property_types ${columns}) values ('Jane Doe', 'jane@example.com', '555', array['land'] ${values}) returning id`,
    )
  )[0]!.id;

beforeEach(async () => {
  await execute(database.db, sql`truncate users, leads cascade`);
  ownerId = (await ensureAdmin(database.db, 'olive@keystone.test', 'olive-password', 'owner', 'Olive Owner')).user.id;
});

describe('a lead’s stage and status', () => {
  it('is kept by the trigger the module names', async () => {
    expect(
      await rowsOf(database.db, sql`select tgname from pg_trigger where tgname = ${LEAD_STAGE_TRIGGER} and tgrelid = 'leads'::regclass`),
    ).toHaveLength(1);
  });

  it('puts a lead whose status alone is written in that status’s first stage', async () => {
    const id = await insert();
    expect(await lead(id)).toMatchObject({ status: 'New', stage: 'New', lost_reason: null });
    await execute(database.db, sql`update leads set status = 'Contacted' where id = ${id}`);
    expect(await lead(id)).toMatchObject({ status: 'Contacted', stage: 'Call booked' });
  });

  it('gives a lead the status of the stage written', async () => {
    const id = await insert(sql`, stage_id`, sql`, ${await stageId('Proposal sent')}`);
    expect(await lead(id)).toMatchObject({ status: 'Contacted', stage: 'Proposal sent' });
    await execute(database.db, sql`update leads set stage_id = ${await stageId('Won')} where id = ${id}`);
    expect(await lead(id)).toMatchObject({ status: 'Converted', stage: 'Won' });
  });

  it('gives a Dropped lead a lost reason, "Not given" when nobody said, and no other lead one', async () => {
    const id = await insert();
    await execute(database.db, sql`update leads set status = 'Dropped' where id = ${id}`);
    expect(await lead(id)).toMatchObject({ stage: 'Lost', lost_reason: 'Not given' });
    await execute(database.db, sql`update leads set lost_reason = 'Price' where id = ${id}`);
    expect(await lead(id)).toMatchObject({ lost_reason: 'Price' });
    await execute(database.db, sql`update leads set status = 'New' where id = ${id}`);
    expect(await lead(id)).toMatchObject({ stage: 'New', lost_reason: null });
    await execute(database.db, sql`update leads set lost_reason = 'Price' where id = ${id}`);
    expect(await lead(id)).toMatchObject({ lost_reason: null });
  });

  it('dates the stage entered, and moves that date only when the stage changes', async () => {
    const id = await insert();
    const entered = (await lead(id)).entered;
    await execute(database.db, sql`update leads set status = 'New', full_name = 'Jane D.' where id = ${id}`);
    expect((await lead(id)).entered).toBe(entered);
    // now() is the transaction's: a later statement is a later time.
    await execute(database.db, sql`update leads set stage_id = ${await stageId('Engaged')} where id = ${id}`);
    expect((await lead(id)).entered > entered).toBe(true);
  });

  it('refuses a stage that does not exist', async () => {
    const id = await insert();
    const error = await execute(database.db, sql`update leads set stage_id = '00000000-0000-4000-8000-000000000001' where id = ${id}`).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(sqlState(error)).toBe('23503');
    expect(await lead(id)).toMatchObject({ status: 'New', stage: 'New' });
  });

  it('never leaves a lead in a stage removed as it is moved there: the move waits for the removal, then is refused or moved on', async () => {
    const id = await insert();
    const proposal = await stageId('Proposal sent');
    const [moved, removed] = await Promise.allSettled([
      execute(database.db, sql`update leads set stage_id = ${proposal} where id = ${id}`),
      removeStage(database.db, proposal, await stageId('Engaged'), ownerId),
    ]);
    expect(removed.status).toBe('fulfilled');
    if (moved.status === 'rejected') expect(sqlState(moved.reason)).toBe('23503');
    expect(await lead(id)).toMatchObject({ status: moved.status === 'rejected' ? 'New' : 'Contacted' });
    expect((await lead(id)).stage).not.toBe('Proposal sent');
  });
});
