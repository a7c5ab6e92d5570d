import { sql } from 'drizzle-orm';
import { beforeEach, describe, expect, it } from 'vitest';
import { execute } from '../db/sql.ts';
import { rowsOf, useTestDatabase } from '../test/database.ts';
import { decodeCursor } from './board-cursor.ts';
import { pipelineBoard } from './board.ts';

/** The board put together: open stages with their cards, Won and Lost collapsed unless asked for, one column paged. */
const database = useTestDatabase();
const all = { filters: { timeZone: 'America/New_York' } };
const stageId = async (name: string) =>
  (await rowsOf<{ id: string }>(database.db, sql`select id from pipeline_stages where name = ${name}`))[0]!.id;

beforeEach(async () => {
  await execute(database.db, sql`truncate leads cascade`);
  await execute(
    database.db,
    sql`insert into leads (full_name, email, phone, property_types, stage_id, estimated_fee_cents)
        select 'Lead ' || n, 'lead' || n || '@example.com', '555', array['land'],
          (select id from pipeline_stages where name = case when n <= 3 then 'Engaged' else 'Won' end), 10000
        from generate_series(1, 5) n`,
  );
});

describe('pipelineBoard', () => {
  it('gives every stage its totals, cards for the open stages only, and the forecast over the open deals', async () => {
    const board = await pipelineBoard(database.db, all);
    const engaged = board.columns.find((c) => c.stage.name === 'Engaged')!;
    const won = board.columns.find((c) => c.stage.name === 'Won')!;
    expect(engaged).toMatchObject({ count: 3, fees_cents: 30000, weighted_cents: 22500, next_cursor: null });
    expect(engaged.cards).toHaveLength(3);
    expect(won).toMatchObject({ count: 2, fees_cents: 20000, cards: [] });
    expect(board.expected_fees_cents).toBe(22500);
  });

  it('pages one column, Won too, from the cursor of the page before', async () => {
    const won = await stageId('Won');
    const first = await pipelineBoard(database.db, { ...all, stageId: won }, 1);
    expect(first.columns).toHaveLength(1);
    expect(first.columns[0]!.cards).toHaveLength(1);
    expect(first.columns[0]!.next_cursor).not.toBeNull();
    const second = await pipelineBoard(database.db, { ...all, stageId: won, cursor: decodeCursor(first.columns[0]!.next_cursor!)! }, 1);
    expect(second.columns[0]!.cards.map((c) => c.id)).not.toEqual(first.columns[0]!.cards.map((c) => c.id));
    expect(second.columns[0]!.next_cursor).toBeNull();
  });

  it('answers 404 for a stage that does not exist', async () => {
    const error = await pipelineBoard(database.db, { ...all, stageId: '00000000-0000-4000-8000-000000000001' }).catch((e: unknown) => e);
    expect(error).toMatchObject({ status: 404 });
  });
});
