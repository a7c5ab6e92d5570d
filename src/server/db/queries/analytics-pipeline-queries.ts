import { sql } from 'drizzle-orm';
import * as z from 'zod';
import { LEAD_STATUSES } from '#shared/constants';
import { conversionRate } from '#shared/schemas/analytics-report';
import type { AnalyticsPipeline, AnalyticsStageStep } from '#shared/schemas/analytics-pipeline';
import type { Db } from '../client.ts';
import { pgArray, queryRows } from '../sql.ts';
import { leadsOfPeriod } from './analytics-report-queries.ts';
import { bounds, type AnalyticsWindow } from './analytics-window-queries.ts';

/**
 * The Analytics page's pipeline figures of a period, from the stage history the leads trigger
 * writes (lead_stage_changes: every stage a lead entered, its first at insert). The
 * definitions are docs/product-rules.md's, "Analytics" (Lost reasons, Stage conversion).
 */

const int = z.number().int();
const stageRow = z.object({ id: z.string(), name: z.string(), status: z.enum(LEAD_STATUSES) });
const lostRow = z.object({ reason: z.string(), deals: int, fees: z.number() });
const furthestRow = z.object({ step: int.nullable(), leads: int });

/** Dropped stages; `h` is the lead_stage_changes alias. */
const intoLost = sql`h.to_stage_id in (select id from pipeline_stages where status = 'Dropped')`;

/**
 * Deals lost in the period: leads in a Dropped stage now whose loss began in it. A loss begins
 * with the first entry into a Dropped stage after the lead's last entry into an open or won
 * stage, so a move between two Lost stages is not a new loss, and a deal reopened and lost again
 * counts when it was lost the last time. Entries into a stage since removed (a null stage) are
 * left out. Candidates come from the Dropped entries in the period
 * (lead_stage_changes_to_changed_idx), each checked on its own history (lead_stage_changes_lead_idx).
 */
async function lostReasons(db: Db, window: AnalyticsWindow) {
  const { start, end } = bounds(window);
  // A lateral join, so each candidate's loss is worked out once (as a subquery in the select
  // list it was planned once per comparison with the period, twice the work).
  return queryRows(
    db,
    sql`
    select l.lost_reason as reason, count(*)::int as deals, coalesce(sum(l.estimated_fee_cents), 0)::float8 as fees
    from leads l
    cross join lateral (
      select min(h.changed_at) as lost_at from lead_stage_changes h
      where h.lead_id = l.id and ${intoLost}
        and h.changed_at >= coalesce((select max(o.changed_at) from lead_stage_changes o join pipeline_stages s on s.id = o.to_stage_id
                                      where o.lead_id = l.id and s.status <> 'Dropped'), '-infinity')
    ) lost
    where l.status = 'Dropped'
      and l.id in (select h.lead_id from lead_stage_changes h where ${intoLost} and h.changed_at >= ${start} and h.changed_at < ${end})
      and lost.lost_at >= ${start} and lost.lost_at < ${end}
    group by 1
    order by deals desc, reason`,
    lostRow,
  );
}

/**
 * The steps of the conversion: the open stages in the board's order (New's, then Contacted's,
 * each by position), then Won (every Converted stage, one step). Lost is not a step.
 */
async function conversionSteps(db: Db) {
  const stages = await queryRows(
    db,
    sql`select s.id, s.name, s.status from pipeline_stages s where s.status <> 'Dropped'
        order by array_position(${pgArray([...LEAD_STATUSES])}::text[], s.status), s.position, s.id`,
    stageRow,
  );
  const open = stages.filter((s) => s.status !== 'Converted');
  const won = stages.filter((s) => s.status === 'Converted');
  const steps = [
    ...open.map((s) => ({ stage_id: s.id as string | null, name: s.name, status: s.status as AnalyticsStageStep['status'] })),
    ...(won.length > 0 ? [{ stage_id: null, name: won.map((s) => s.name).join(' / '), status: 'Converted' as const }] : []),
  ];
  // Each stage's step, from 1: a Converted stage is the last step whichever it is.
  const stepOf = stages.map((s) => ({ id: s.id, step: s.status === 'Converted' ? open.length + 1 : open.indexOf(s) + 1 }));
  return { steps, stepOf };
}

/**
 * The stage conversion of the period's leads (as the trend counts them: leadsOfPeriod): each
 * lead's furthest step, by any stage it has entered since it was added (its history and the
 * stage it is in), so a lead that skipped stages reached the ones it skipped, and one that went
 * back keeps the furthest it reached. A lead that has only been Lost reached no step. One join
 * of the period's leads with the history: a subquery per lead was planned far costlier, past
 * PostgreSQL's JIT threshold, whose compiling alone outweighed the query
 * (docs/performance.md, "Measurements behind the code").
 */
async function stageConversion(db: Db, window: AnalyticsWindow) {
  const { start, end } = bounds(window);
  const { steps, stepOf } = await conversionSteps(db);
  const rows = await queryRows(
    db,
    sql`
    with step as (select * from unnest(${pgArray(stepOf.map((s) => s.id))}::uuid[], ${pgArray(stepOf.map((s) => s.step))}::int[]) as s(id, n)),
    cohort as materialized (${leadsOfPeriod(sql`l.id, l.stage_id`, start, end)}),
    entered as (
      select c.id, c.stage_id from cohort c
      union all
      select h.lead_id, h.to_stage_id from lead_stage_changes h join cohort c on c.id = h.lead_id
    )
    select furthest as step, count(*)::int as leads
    from (select e.id, max(step.n) as furthest from entered e left join step on step.id = e.stage_id group by e.id) lead
    group by 1`,
    furthestRow,
  );
  const leads = rows.reduce((n, r) => n + r.leads, 0);
  const reached = steps.map((_, i) => rows.reduce((n, r) => n + (r.step !== null && r.step >= i + 1 ? r.leads : 0), 0));
  return {
    leads,
    steps: steps.map((s, i) => ({
      ...s,
      reached: reached[i]!,
      to_next_percent: i + 1 < steps.length ? conversionRate(reached[i + 1]!, reached[i]!) : null,
    })),
  };
}

/** The lost reasons and the stage conversion of a period. */
export async function getAnalyticsPipeline(db: Db, window: AnalyticsWindow): Promise<AnalyticsPipeline> {
  const [lost, conversion] = await Promise.all([lostReasons(db, window), stageConversion(db, window)]);
  const deals = lost.reduce((n, r) => n + r.deals, 0);
  return {
    from: window.from,
    to: window.to,
    hours: window.hours?.count ?? null,
    lost: {
      deals,
      fees_cents: lost.reduce((n, r) => n + r.fees, 0),
      reasons: lost.map((r) => ({ reason: r.reason, deals: r.deals, share_percent: conversionRate(r.deals, deals)!, fees_cents: r.fees })),
    },
    conversion,
  };
}
