/**
 * `board`: the pipeline board with BOARD_OPEN_LEADS open leads (and a fifth as many won or
 * lost) spread over the default stages, each with a fee, an owner on three in four, a next step
 * on one in ten. Times through HTTP (sequential requests on loopback): the whole board, a
 * column's second page by its cursor (unfiltered and one owner's), and a move
 * (PATCH /api/leads/{id} with stage_id) of a different lead each time.
 */
import { sql } from 'drizzle-orm';
import * as z from 'zod';
import type { PipelineBoard } from '../src/shared/schemas/pipeline-board.ts';
import type { Db } from '../src/server/db/client.ts';
import { execute, queryRows } from '../src/server/db/sql.ts';
import { SCALE_OWNER_IDS, SEED_PERSON, type QueryTiming } from './leads-at-scale.ts';

export const BOARD_OPEN_LEADS = 10_000;

export async function seedBoard(db: Db, open = BOARD_OPEN_LEADS): Promise<void> {
  await execute(
    db,
    sql`
    insert into users (id, email, display_name, password_hash)
    select id, 'staff' || n || '@bench.example', 'Staff ' || n, 'no sign-in' from unnest(${`{${SCALE_OWNER_IDS.join(',')}}`}::uuid[]) with ordinality as o(id, n)`,
  );
  // Open leads over New and Contacted's three stages; then Won and Lost (the trigger sets each status from its stage).
  await execute(
    db,
    sql`
    with stages as (select array_agg(id order by array_position(array['New','Contacted','Converted','Dropped'], status), position) as ids from pipeline_stages)
    insert into leads (full_name, email, phone, property_types, stage_id, estimated_fee_cents, owner_id, follow_up_on, follow_up_note, created_at)
    select ${SEED_PERSON},
      case when i <= ${open} then stages.ids[1 + abs(hashtext('stage' || i)) % 4] else stages.ids[5 + i % 2] end,
      (250000 + abs(hashtext('fee' || i)) % 5000000)::bigint,
      case when i % 4 <> 0 then (${`{${SCALE_OWNER_IDS.join(',')}}`}::uuid[])[1 + abs(hashtext('owner' || i)) % 3] end,
      case when i % 10 = 0 then current_date + i % 30 end,
      case when i % 10 = 0 then 'Send the zoning report' end,
      now() - make_interval(mins => i * 7)
    from stages, generate_series(1, ${open + open / 5}) as i`,
  );
  // Entered their stages over the last 90 days.
  await execute(db, sql`update leads set stage_entered_at = created_at + make_interval(mins => abs(hashtext(id::text)) % 1000)`);
  await execute(db, sql`analyze`);
}

/** The open stages' ids, in the board's order. */
export const openStages = (db: Db) =>
  queryRows(
    db,
    sql`select id from pipeline_stages where status in ('New', 'Contacted') order by array_position(array['New','Contacted'], status), position`,
    z.object({ id: z.uuid() }),
  );

function percentiles(times: number[]) {
  times.sort((a, b) => a - b);
  const at = (p: number) => times[Math.min(times.length - 1, Math.floor(p * times.length))]!;
  return { p50Ms: at(0.5), p95Ms: at(0.95) };
}

async function timeGets(origin: string, cookie: string, name: string, path: string, samples: number, warmup = 5): Promise<QueryTiming> {
  const times: number[] = [];
  let failures = 0;
  for (let i = 0; i < warmup + samples; i++) {
    const started = performance.now();
    const res = await fetch(`${origin}${path}`, { headers: { cookie } });
    await res.arrayBuffer();
    if (res.status !== 200) failures++;
    if (i >= warmup) times.push(performance.now() - started);
  }
  return { name, ...percentiles(times), failures };
}

/** The board's reads and a move each time of another lead, between the first two open stages. */
export async function timeBoard(origin: string, cookie: string, samples = 200): Promise<QueryTiming[]> {
  const board = (await (await fetch(`${origin}/api/pipeline`, { headers: { cookie } })).json()) as PipelineBoard;
  const busiest = board.columns.filter((c) => c.next_cursor).sort((a, b) => b.count - a.count)[0]!;
  const page2 = `/api/pipeline?stage_id=${busiest.stage.id}&cursor=${busiest.next_cursor}`;
  const mine = (await (await fetch(`${origin}/api/pipeline?owner=${SCALE_OWNER_IDS[0]}`, { headers: { cookie } })).json()) as PipelineBoard;
  const mineColumn = mine.columns.find((c) => c.stage.id === busiest.stage.id)!;
  const results = [
    await timeGets(origin, cookie, 'the whole board (6 columns, 4 × 25 cards, totals, forecast)', '/api/pipeline', samples),
    await timeGets(origin, cookie, `a column's second page by cursor (${busiest.stage.name}, ${busiest.count} leads)`, page2, samples),
    await timeGets(
      origin,
      cookie,
      `one owner's column, second page by cursor`,
      `/api/pipeline?owner=${SCALE_OWNER_IDS[0]}&stage_id=${busiest.stage.id}&cursor=${mineColumn.next_cursor}`,
      samples,
    ),
  ];
  // Moves: cards of the busiest column's first pages, each to another open stage.
  const target = board.columns.find((c) => c.stage.status === 'Contacted' && c.stage.id !== busiest.stage.id)!.stage.id;
  const ids: string[] = [];
  for (let cursor = ''; ids.length < samples + 5; ) {
    const page = (await (
      await fetch(`${origin}/api/pipeline?stage_id=${busiest.stage.id}${cursor ? `&cursor=${cursor}` : ''}`, { headers: { cookie } })
    ).json()) as PipelineBoard;
    ids.push(...page.columns[0]!.cards.map((c) => c.id));
    cursor = page.columns[0]!.next_cursor ?? '';
    if (!cursor) break;
  }
  const times: number[] = [];
  let failures = 0;
  for (const [i, id] of ids.entries()) {
    const started = performance.now();
    const res = await fetch(`${origin}/api/leads/${id}`, {
      method: 'PATCH',
      headers: { cookie, origin, 'content-type': 'application/json' },
      body: JSON.stringify({ stage_id: target }),
    });
    await res.arrayBuffer();
    if (res.status !== 200) failures++;
    if (i >= 5) times.push(performance.now() - started);
  }
  results.push({ name: `a move (PATCH stage_id), ${times.length} leads`, ...percentiles(times), failures });
  return results;
}
