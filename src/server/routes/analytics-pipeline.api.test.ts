import { sql } from 'drizzle-orm';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { AnalyticsPipeline } from '#shared/schemas/analytics-pipeline';
import { ensureAdmin } from '../auth/accounts.ts';
import { execute, pgArray } from '../db/sql.ts';
import { createTestApp, signIn, validLead } from '../test/test-app.ts';
import { rowsOf, useTestDatabase } from '../test/database.ts';

/**
 * GET /api/analytics/pipeline: the deals lost in a period by reason and the stage conversion of
 * the period's leads, proved exactly on crafted stage histories (moves, skips, going back,
 * reopened deals, moves between Lost stages, the period's edges in New York time) and once
 * through the real stage changes of the API.
 */
const database = useTestDatabase();
let t: ReturnType<typeof createTestApp>;
let cookie: string;
let stage: Record<string, string>;
beforeAll(async () => {
  t = createTestApp(database, { BUSINESS_TIME_ZONE: 'America/New_York' });
  await ensureAdmin(database.db, 'pipeline-numbers@example.com', 'pipeline-numbers-password');
  cookie = await signIn(t.json, 'pipeline-numbers@example.com', 'pipeline-numbers-password');
  // A second Lost stage, so a move between two Lost stages can be told from a new loss.
  await execute(database.db, sql`insert into pipeline_stages (name, status, position) values ('Ghosted', 'Dropped', 2)`);
  const stages = await rowsOf<{ id: string; name: string }>(database.db, sql`select id, name from pipeline_stages`);
  stage = Object.fromEntries(stages.map((s) => [s.name, s.id]));
});
beforeEach(async () => {
  await execute(database.db, sql`truncate leads cascade`);
});

const get = (path: string) => t.app.request(path, { headers: { cookie } });
const pipeline = async (query: string) => {
  const res = await get(`/api/analytics/pipeline?${query}`);
  expect(res.status).toBe(200);
  return (await res.json()) as AnalyticsPipeline;
};
const OCTOBER = 'from=2026-10-01&to=2026-10-31';
const NOVEMBER = 'from=2026-11-01&to=2026-11-30';

let n = 0;
/**
 * A lead added at `created` (or brought by a visit in `visitHour`), with the stages it entered
 * and when, as the stage trigger records them; it is in the last one now.
 */
async function lead(o: { created: string; visitHour?: string; fee?: number; reason?: string; history: [string, string][] }) {
  const [last] = o.history.at(-1)!;
  const [row] = await rowsOf<{ id: string }>(
    database.db,
    sql`insert into leads (full_name, email, phone, property_types, created_at, visit_hour, estimated_fee_cents, stage_id, lost_reason)
        values ('Lead', ${`lead${n++}@example.com`}, '301 555 0100', array['land'], ${o.created}::timestamptz, ${o.visitHour ?? null}::timestamptz,
                ${o.fee ?? null}::bigint, ${stage[last]!}::uuid, ${o.reason ?? null}) returning id`,
  );
  const id = row!.id;
  await execute(database.db, sql`delete from lead_stage_changes where lead_id = ${id}`);
  await execute(
    database.db,
    sql`insert into lead_stage_changes (lead_id, from_stage_id, to_stage_id, changed_at)
        select ${id}, lag(s) over (order by k), s, at from unnest(${pgArray(o.history.map(([name]) => stage[name]!))}::uuid[],
          ${pgArray(o.history.map(([, at]) => at))}::timestamptz[]) with ordinality as h(s, at, k)`,
  );
  return id;
}

/** Days of October 2026 at 11:00 New York time (15:00 UTC). */
const oct = (day: number) => `2026-10-${String(day).padStart(2, '0')}T15:00:00Z`;
const nov = (day: number) => `2026-11-${String(day).padStart(2, '0')}T15:00:00Z`;

describe('GET /api/analytics/pipeline', () => {
  it('counts the deals lost in the period by reason and the furthest stage each lead of the period reached', async () => {
    // The period's leads (added in October, no visit):
    await lead({
      created: oct(2),
      history: [
        ['New', oct(2)],
        ['Call booked', oct(3)],
        ['Proposal sent', oct(4)],
        ['Won', oct(6)],
      ],
    });
    // Skips Call booked, then lost in October.
    await lead({
      created: oct(2),
      fee: 200_000,
      reason: 'Price',
      history: [
        ['New', oct(2)],
        ['Proposal sent', oct(5)],
        ['Lost', oct(9)],
      ],
    });
    // Goes back from Proposal sent to Call booked: it still reached Proposal sent.
    await lead({
      created: oct(3),
      history: [
        ['New', oct(3)],
        ['Call booked', oct(4)],
        ['Proposal sent', oct(5)],
        ['Call booked', oct(7)],
      ],
    });
    await lead({ created: oct(4), history: [['New', oct(4)]] });
    // Won straight from New: it reached every stage before Won.
    await lead({
      created: oct(5),
      history: [
        ['New', oct(5)],
        ['Won', oct(8)],
      ],
    });
    // Entered as lost (an import): no step, lost for "Not given" when it was added.
    await lead({ created: oct(6), fee: 1_000, reason: 'Not given', history: [['Lost', oct(6)]] });
    // Lost, then reopened: not lost now.
    await lead({
      created: oct(7),
      fee: 9_999,
      history: [
        ['New', oct(7)],
        ['Lost', oct(8)],
        ['Call booked', oct(10)],
      ],
    });
    // Lost in October, moved to another Lost stage in November: one loss, in October.
    await lead({
      created: oct(8),
      reason: 'Price',
      history: [
        ['New', oct(8)],
        ['Lost', oct(12)],
        ['Ghosted', nov(5)],
      ],
    });
    // Added in October, lost in November.
    await lead({
      created: oct(9),
      fee: 7_000,
      reason: 'Price',
      history: [
        ['New', oct(9)],
        ['Lost', nov(3)],
      ],
    });
    // Added at 11:30 PM on October 31 in New York (November 1 in UTC): October's.
    await lead({ created: '2026-11-01T03:30:00Z', history: [['New', '2026-11-01T03:30:00Z']] });
    // Not the period's leads:
    // Added in September, lost in October: a loss of October, not in its conversion.
    await lead({
      created: '2026-09-20T15:00:00Z',
      fee: 500_000,
      reason: 'Chose another firm',
      history: [
        ['New', '2026-09-20T15:00:00Z'],
        ['Call booked', '2026-09-25T15:00:00Z'],
        ['Lost', oct(1)],
      ],
    });
    // Lost at 11:30 PM on September 30 in New York: September's.
    await lead({
      created: '2026-09-15T15:00:00Z',
      reason: 'Price',
      history: [
        ['New', '2026-09-15T15:00:00Z'],
        ['Lost', '2026-10-01T03:30:00Z'],
      ],
    });
    // Lost in October, reopened, lost again in November: November's loss.
    await lead({
      created: '2026-09-10T15:00:00Z',
      reason: 'No response',
      history: [
        ['New', '2026-09-10T15:00:00Z'],
        ['Lost', oct(2)],
        ['New', oct(3)],
        ['Lost', nov(2)],
      ],
    });
    // Added in October but brought by a September visit: it counts in September, as the trend counts it.
    await lead({
      created: oct(2),
      visitHour: '2026-09-30T15:00:00Z',
      history: [
        ['New', oct(2)],
        ['Won', oct(3)],
      ],
    });

    const october = await pipeline(OCTOBER);
    expect(october.lost).toEqual({
      deals: 4,
      fees_cents: 701_000,
      reasons: [
        { reason: 'Price', deals: 2, share_percent: 50, fees_cents: 200_000 },
        { reason: 'Chose another firm', deals: 1, share_percent: 25, fees_cents: 500_000 },
        { reason: 'Not given', deals: 1, share_percent: 25, fees_cents: 1_000 },
      ],
    });
    expect(october.conversion).toEqual({
      leads: 10,
      steps: [
        { stage_id: stage.New, name: 'New', status: 'New', reached: 9, to_next_percent: 55.6 },
        { stage_id: stage['Call booked'], name: 'Call booked', status: 'Contacted', reached: 5, to_next_percent: 80 },
        { stage_id: stage['Proposal sent'], name: 'Proposal sent', status: 'Contacted', reached: 4, to_next_percent: 50 },
        { stage_id: stage.Engaged, name: 'Engaged', status: 'Contacted', reached: 2, to_next_percent: 100 },
        { stage_id: null, name: 'Won', status: 'Converted', reached: 2, to_next_percent: null },
      ],
    });
    expect(october).toMatchObject({ from: '2026-10-01', to: '2026-10-31', hours: null });

    const november = await pipeline(NOVEMBER);
    expect(november.lost).toEqual({
      deals: 2,
      fees_cents: 7_000,
      reasons: [
        { reason: 'No response', deals: 1, share_percent: 50, fees_cents: 0 },
        { reason: 'Price', deals: 1, share_percent: 50, fees_cents: 7_000 },
      ],
    });
    expect(november.conversion.leads).toBe(0);
  });

  it('answers an empty period with no reasons and steps reached by nobody', async () => {
    const empty = await pipeline(OCTOBER);
    expect(empty.lost).toEqual({ deals: 0, fees_cents: 0, reasons: [] });
    expect(empty.conversion.leads).toBe(0);
    expect(empty.conversion.steps.map((s) => [s.name, s.reached, s.to_next_percent])).toEqual([
      ['New', 0, null],
      ['Call booked', 0, null],
      ['Proposal sent', 0, null],
      ['Engaged', 0, null],
      ['Won', 0, null],
    ]);
  });

  it('follows the stage changes made through the API, for the last 24 hours and the last 7 days', async () => {
    const created = await t.json('POST', '/api/leads', validLead({ submission_id: undefined, estimated_fee_cents: 350_000 }), { cookie });
    expect(created.status).toBe(201);
    const { id } = (await created.json()) as { id: string };
    const move = async (body: object) => expect((await t.json('PATCH', `/api/leads/${id}`, body, { cookie })).status).toBe(200);
    await move({ stage_id: stage['Proposal sent'] });
    await move({ stage_id: stage.Lost, lost_reason: 'Price' });
    for (const period of ['24h', '7d']) {
      const figures = await pipeline(`period=${period}`);
      expect(figures.lost, period).toEqual({
        deals: 1,
        fees_cents: 350_000,
        reasons: [{ reason: 'Price', deals: 1, share_percent: 100, fees_cents: 350_000 }],
      });
      expect(
        figures.conversion.steps.map((s) => s.reached),
        period,
      ).toEqual([1, 1, 1, 0, 0]);
    }
    expect((await pipeline('period=24h')).hours).toBe(24);
  });

  it('refuses a reversed range, one over 2 years, a bad date or period with a clear message', async () => {
    const refused = async (query: string) => {
      const res = await get(`/api/analytics/pipeline?${query}`);
      expect(res.status, query).toBe(400);
      return JSON.stringify(await res.json());
    };
    expect(await refused('from=2026-11-08&to=2026-11-07')).toContain('The start date must be on or before the end date');
    expect(await refused('from=2024-01-01&to=2026-11-07')).toContain('Choose a range of at most 2 years');
    expect(await refused('from=2026-02-30&to=2026-03-07')).toContain('Invalid date');
    expect(await refused('period=1y')).toContain('Period must be 24h, 7d, 14d, 30d or 90d');
    expect(await refused('')).toContain('Choose the days: from and to, a period or a number of days');
  });

  it('answers 401 without a session', async () => {
    const res = await t.app.request(`/api/analytics/pipeline?${OCTOBER}`);
    expect(res.status).toBe(401);
    expect(await res.json()).toMatchObject({ error: { code: 'unauthorized' } });
  });
});
