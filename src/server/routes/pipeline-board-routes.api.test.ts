import { sql } from 'drizzle-orm';
import { beforeEach, describe, expect, it } from 'vitest';
import type { Overview } from '#shared/schemas/overview';
import type { BoardColumn, PipelineBoard } from '#shared/schemas/pipeline-board';
import { ensureAdmin } from '../auth/accounts.ts';
import { execute } from '../db/sql.ts';
import { createTestApp, signIn } from '../test/test-app.ts';
import { rowsOf, useTestDatabase } from '../test/database.ts';

/**
 * GET /api/pipeline: the board's columns (count, fees, weighted fees, a page of cards), the
 * forecast, one column paged by cursor, the leads list's filters, and moves through
 * PATCH /api/leads/{id}.
 */
const database = useTestDatabase();
let t: ReturnType<typeof createTestApp>;
let owner: string;
let staff: string;
let ownerId: string;
let staffId: string;

const call = (method: string, path: string, body?: unknown, cookie = owner) => t.json(method, path, body, { cookie });
const board = async (query = '', cookie = owner) => {
  const res = await call('GET', `/api/pipeline${query}`, undefined, cookie);
  expect(res.status).toBe(200);
  return (await res.json()) as PipelineBoard;
};
const column = (b: PipelineBoard, name: string) => b.columns.find((c) => c.stage.name === name)!;
const errorOf = async (res: Response) => ((await res.json()) as { error: { message: string; fields?: Record<string, string> } }).error;

beforeEach(async () => {
  await execute(database.db, sql`truncate users, sessions, leads, notifications, emails, audit_log cascade`);
  await execute(
    database.db,
    sql`delete from pipeline_stages where name not in ('New', 'Call booked', 'Proposal sent', 'Engaged', 'Won', 'Lost')`,
  );
  await execute(
    database.db,
    sql`update pipeline_stages s set position = d.position, probability = d.probability
        from (values ('New', 1, 10), ('Call booked', 1, 25), ('Proposal sent', 2, 50), ('Engaged', 3, 75), ('Won', 1, null), ('Lost', 1, null))
          as d(name, position, probability) where d.name = s.name`,
  );
  t = createTestApp(database);
  ownerId = (await ensureAdmin(database.db, 'olive@keystone.test', 'olive-password', 'owner', 'Olive Owner')).user.id;
  staffId = (await ensureAdmin(database.db, 'sam@keystone.test', 'sam-password', 'staff', 'Sam Staff')).user.id;
  owner = await signIn(t.json, 'olive@keystone.test', 'olive-password');
  staff = await signIn(t.json, 'sam@keystone.test', 'sam-password');
});

type Seed = {
  name: string;
  stage: string;
  fee?: number | null;
  owner?: string | null;
  entered?: string;
  created?: string;
  offline?: boolean;
};

/** Leads straight into the table (the trigger sets each one's status from its stage). */
async function seed(...leads: Seed[]): Promise<string[]> {
  const ids: string[] = [];
  for (const l of leads) {
    const [row] = await rowsOf<{ id: string }>(
      database.db,
      sql`insert into leads (full_name, email, phone, property_types, stage_id, estimated_fee_cents, owner_id, created_at, submission_id)
          values (${l.name}, ${`${l.name.toLowerCase().replace(/\W+/g, '.')}@example.com`}, '(301) 555-0100', array['land'],
            (select id from pipeline_stages where name = ${l.stage}), ${l.fee ?? null}::bigint, ${l.owner ?? null}::uuid,
            ${l.created ?? new Date().toISOString()}::timestamptz, ${l.offline === false ? crypto.randomUUID() : null}::uuid)
          returning id`,
    );
    if (l.entered) await execute(database.db, sql`update leads set stage_entered_at = ${l.entered}::timestamptz where id = ${row!.id}`);
    ids.push(row!.id);
  }
  return ids;
}

const totals = (c: BoardColumn) => ({ count: c.count, fees_cents: c.fees_cents, weighted_cents: c.weighted_cents, cards: c.cards.length });

describe('GET /api/pipeline', () => {
  it('answers a column per stage in order, with counts, fees, weighted fees and the open stages’ cards', async () => {
    await seed(
      { name: 'Ann New', stage: 'New', fee: 100_000 },
      { name: 'Ben Call', stage: 'Call booked', fee: 200_000, owner: ownerId },
      { name: 'Cat Call', stage: 'Call booked', fee: null },
      { name: 'Dan Proposal', stage: 'Proposal sent', fee: 1_000_000 },
      { name: 'Eve Won', stage: 'Won', fee: 5_000_000 },
      { name: 'Fay Lost', stage: 'Lost', fee: 700_000 },
    );
    const b = await board();
    expect(b.columns.map((c) => [c.stage.name, c.stage.status, c.stage.probability])).toEqual([
      ['New', 'New', 10],
      ['Call booked', 'Contacted', 25],
      ['Proposal sent', 'Contacted', 50],
      ['Engaged', 'Contacted', 75],
      ['Won', 'Converted', null],
      ['Lost', 'Dropped', null],
    ]);
    expect(b.columns.map(totals)).toEqual([
      { count: 1, fees_cents: 100_000, weighted_cents: 10_000, cards: 1 },
      { count: 2, fees_cents: 200_000, weighted_cents: 50_000, cards: 2 },
      { count: 1, fees_cents: 1_000_000, weighted_cents: 500_000, cards: 1 },
      { count: 0, fees_cents: 0, weighted_cents: 0, cards: 0 },
      // Won and Lost are drop targets: their count and fees, no cards.
      { count: 1, fees_cents: 5_000_000, weighted_cents: 0, cards: 0 },
      { count: 1, fees_cents: 700_000, weighted_cents: 0, cards: 0 },
    ]);
    expect(b.expected_fees_cents).toBe(10_000 + 50_000 + 500_000);
    const ben = column(b, 'Call booked').cards.find((c) => c.full_name === 'Ben Call')!;
    expect(ben).toMatchObject({ estimated_fee_cents: 200_000, owner: { id: ownerId, name: 'Olive Owner' }, next_step: null });
    expect(Date.now() - Date.parse(ben.stage_entered_at)).toBeLessThan(60_000);
    expect(column(b, 'Call booked').cards.find((c) => c.full_name === 'Cat Call')).toMatchObject({
      estimated_fee_cents: null,
      owner: null,
    });
    expect(b.columns.every((c) => c.next_cursor === null)).toBe(true);
  });

  it('shows the next step (the earliest open task’s day and title) on the card', async () => {
    const [id] = await seed({ name: 'Gil Next', stage: 'Engaged' });
    await execute(database.db, sql`update leads set follow_up_on = '2030-03-04', follow_up_note = 'Send the survey' where id = ${id!}`);
    expect(column(await board(), 'Engaged').cards[0]!.next_step).toEqual({ on: '2030-03-04', title: 'Send the survey' });
  });

  it('forecasts exactly: the fractions of cents are summed before the one rounding', async () => {
    // 3 × $3.33 at 10 % is 99.9 cents: 100 once rounded, 99 if each deal (33.3) were rounded first.
    await seed({ name: 'A', stage: 'New', fee: 333 }, { name: 'B', stage: 'New', fee: 333 }, { name: 'C', stage: 'New', fee: 333 });
    // $0.01 at 25 %, 50 % and 75 %: 1.5 cents in all, where the columns alone round to 0, 1 and 1.
    await seed(
      { name: 'D', stage: 'Call booked', fee: 1 },
      { name: 'E', stage: 'Proposal sent', fee: 1 },
      { name: 'F', stage: 'Engaged', fee: 1 },
    );
    const b = await board();
    // 99.9 + 1.5 = 101.4: 101, not the columns' 102.
    expect(b.expected_fees_cents).toBe(101);
    expect(b.columns.slice(0, 4).map((c) => c.weighted_cents)).toEqual([100, 0, 1, 1]);
    // Large fees stay exact: 7 × $999,999,999.99 at 75 %.
    await execute(database.db, sql`truncate leads cascade`);
    await seed(...Array.from({ length: 7 }, (_, i) => ({ name: `Big ${i}`, stage: 'Engaged', fee: 99_999_999_999 })));
    expect((await board()).expected_fees_cents).toBe(Math.round((7 * 99_999_999_999 * 3) / 4));
    const overview = (await (await call('GET', '/api/overview')).json()) as Overview;
    expect(overview.expected_fees_cents).toBe(524_999_999_995);
  });

  it('pages one column with a cursor, the latest to enter the stage first, never repeating or skipping a card', async () => {
    const base = Date.parse('2026-01-01T00:00:00Z');
    // 30 leads, some entering at the same instant (the id breaks the tie).
    await seed(
      ...Array.from({ length: 30 }, (_, i) => ({
        name: `Lead ${String(i).padStart(2, '0')}`,
        stage: 'Proposal sent',
        fee: 100,
        entered: new Date(base + Math.floor(i / 3) * 1000).toISOString(),
      })),
    );
    const first = column(await board(), 'Proposal sent');
    expect(first.count).toBe(30);
    expect(first.cards).toHaveLength(25);
    expect(first.next_cursor).toEqual(expect.any(String));
    const stageId = first.stage.id;
    const secondBoard = await board(`?stage_id=${stageId}&cursor=${first.next_cursor!}`);
    expect(secondBoard.columns).toHaveLength(1);
    const second = secondBoard.columns[0]!;
    expect(second.cards).toHaveLength(5);
    expect(second.next_cursor).toBeNull();
    const all = [...first.cards, ...second.cards];
    expect(new Set(all.map((c) => c.id)).size).toBe(30);
    const order = await rowsOf<{ id: string }>(database.db, sql`select id from leads order by stage_entered_at desc, id desc`);
    expect(all.map((c) => c.id)).toEqual(order.map((r) => r.id));
  });

  it('gives a closed stage’s cards when asked by its stage_id', async () => {
    await seed({ name: 'Won One', stage: 'Won', fee: 10 }, { name: 'Won Two', stage: 'Won', fee: 20 });
    const won = column(await board(), 'Won');
    expect(won.cards).toEqual([]);
    const asked = (await board(`?stage_id=${won.stage.id}`)).columns;
    expect(asked.map((c) => [c.stage.name, c.count, c.fees_cents, c.cards.map((x) => x.full_name).sort()])).toEqual([
      ['Won', 2, 30, ['Won One', 'Won Two']],
    ]);
  });

  it('filters as the leads list does: owner (mine, unassigned, a person), source and the days added', async () => {
    await seed(
      { name: 'Mine', stage: 'New', fee: 1000, owner: ownerId, created: '2026-03-02T15:00:00Z' },
      { name: 'Sams', stage: 'New', fee: 2000, owner: staffId, created: '2026-03-05T15:00:00Z' },
      { name: 'Nobodys', stage: 'Engaged', fee: 4000, created: '2026-03-09T15:00:00Z', offline: false },
    );
    const names = (b: PipelineBoard) => b.columns.flatMap((c) => c.cards.map((x) => x.full_name)).sort();
    expect(names(await board('?owner=me'))).toEqual(['Mine']);
    expect(names(await board('?owner=me', staff))).toEqual(['Sams']);
    expect(names(await board(`?owner=${staffId}`))).toEqual(['Sams']);
    const unassigned = await board('?owner=none');
    expect(names(unassigned)).toEqual(['Nobodys']);
    expect(unassigned.expected_fees_cents).toBe(3000);
    expect(column(unassigned, 'New').count).toBe(0);
    expect(names(await board('?origin=offline'))).toEqual(['Mine', 'Sams']);
    expect(names(await board('?origin=unrecorded'))).toEqual(['Nobodys']);
    const march = await board('?created_from=2026-03-03&created_to=2026-03-05');
    expect(names(march)).toEqual(['Sams']);
    expect(march.expected_fees_cents).toBe(200);
    expect(names(await board('?owner=&origin=&created_from='))).toEqual(['Mine', 'Nobodys', 'Sams']);
  });

  it('refuses bad input with a 400 that says what is wrong, and an unknown stage with a 404', async () => {
    const [id] = await seed({ name: 'Any', stage: 'New' });
    const stageId = (await board()).columns[0]!.stage.id;
    const cases: [string, string][] = [
      ['?stage_id=nope', 'stage_id'],
      ['?owner=someone', 'owner'],
      ['?origin=moon', 'origin'],
      ['?created_from=2026-13-01', 'created_from'],
      ['?created_from=2026-03-05&created_to=2026-03-01', 'created_to'],
      ['?origin=utm&origin_value=x', 'origin_value'],
      [`?cursor=${Buffer.from(`2026-01-01T00:00:00.000000Z|${id!}`).toString('base64url')}`, 'stage_id'],
      [`?stage_id=${stageId}&cursor=bad%20cursor`, 'cursor'],
      [`?stage_id=${stageId}&cursor=${Buffer.from('2026-02-30T00:00:00.000000Z|x').toString('base64url')}`, 'cursor'],
      [`?stage_id=${stageId}&cursor=${Buffer.from(`2026-02-30T00:00:00.000000Z|${id!}`).toString('base64url')}`, 'cursor'],
      [`?stage_id=${stageId}&cursor=${'a'.repeat(201)}`, 'cursor'],
    ];
    for (const [query, field] of cases) {
      const res = await call('GET', `/api/pipeline${query}`);
      expect(res.status, query).toBe(400);
      const error = await errorOf(res);
      expect(error.fields?.[field], query).toEqual(expect.any(String));
    }
    const unknown = await call('GET', '/api/pipeline?stage_id=00000000-0000-4000-8000-000000000000');
    expect(unknown.status).toBe(404);
    expect((await errorOf(unknown)).message).toBe('No such stage: reload the page to see the pipeline as it is now.');
  });

  it('answers 401 without a session, and every admin (staff too) reads it', async () => {
    const res = await t.json('GET', '/api/pipeline');
    expect(res.status).toBe(401);
    expect(JSON.stringify(await res.json())).not.toContain('columns');
    expect((await board('', staff)).columns).toHaveLength(6);
  });
});

describe('moving a card (PATCH /api/leads/{id} with stage_id)', () => {
  it('puts the card on top of its new column, its age in stage starting again, and the forecast follows', async () => {
    const [a, b] = await seed(
      { name: 'Old Proposal', stage: 'Proposal sent', fee: 10_000, entered: '2026-01-01T00:00:00Z' },
      { name: 'Mover', stage: 'Call booked', fee: 100_000, entered: '2026-01-02T00:00:00Z' },
    );
    expect((await board()).expected_fees_cents).toBe(5_000 + 25_000);
    const target = column(await board(), 'Proposal sent').stage.id;
    expect((await call('PATCH', `/api/leads/${b!}`, { stage_id: target })).status).toBe(200);
    const after = await board();
    expect(column(after, 'Proposal sent').cards.map((c) => c.id)).toEqual([b, a]);
    expect(Date.now() - Date.parse(column(after, 'Proposal sent').cards[0]!.stage_entered_at)).toBeLessThan(60_000);
    expect(column(after, 'Call booked').count).toBe(0);
    expect(after.expected_fees_cents).toBe(5_000 + 50_000);
  });

  it('refuses a Lost stage without a reason, and takes it with one', async () => {
    const [id] = await seed({ name: 'Loser', stage: 'Engaged', fee: 100 });
    const lost = column(await board(), 'Lost').stage.id;
    const refused = await call('PATCH', `/api/leads/${id!}`, { stage_id: lost });
    expect(refused.status).toBe(400);
    expect((await errorOf(refused)).fields?.lost_reason).toBe('Choose why the deal was lost');
    expect((await call('PATCH', `/api/leads/${id!}`, { stage_id: lost, lost_reason: 'Price' })).status).toBe(200);
    const after = await board();
    expect([column(after, 'Lost').count, column(after, 'Engaged').count, after.expected_fees_cents]).toEqual([1, 0, 0]);
  });

  it('two people moving one card at once: both answered, the card in one stage for both', async () => {
    const [id] = await seed({ name: 'Raced', stage: 'New', fee: 100 });
    const b = await board();
    const [x, y] = [column(b, 'Proposal sent').stage.id, column(b, 'Engaged').stage.id];
    const answers = await Promise.all([
      call('PATCH', `/api/leads/${id!}`, { stage_id: x }),
      call('PATCH', `/api/leads/${id!}`, { stage_id: y }, staff),
    ]);
    expect(answers.map((r) => r.status)).toEqual([200, 200]);
    const [seenByOwner, seenByStaff] = await Promise.all([board(), board('', staff)]);
    const where = (v: PipelineBoard) => v.columns.filter((c) => c.cards.some((card) => card.id === id)).map((c) => c.stage.name);
    expect(where(seenByOwner)).toHaveLength(1);
    expect(where(seenByStaff)).toEqual(where(seenByOwner));
  });
});
