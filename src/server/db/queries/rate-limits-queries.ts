import { sql } from 'drizzle-orm';
import * as z from 'zod';
import type { Db } from '../client.ts';
import { execute, pgArray, queryRows } from '../sql.ts';
import { PREPARED } from '../prepared-statements.ts';

export type RateLimitResult = { allowed: boolean; count: number; retryAfterSeconds: number };

/** The start of the current fixed window of `windowSeconds`, aligned to the epoch. */
export const windowStart = (windowSeconds: number) =>
  sql`to_timestamp(floor(extract(epoch from crm_now()) / ${windowSeconds}) * ${windowSeconds})`;

/**
 * Counts one hit against `key` in a fixed window and says whether it is within `limit`.
 * Counters live in Postgres so every app process shares them.
 */
export async function hitRateLimit(db: Db, key: string, limit: number, windowSeconds: number): Promise<RateLimitResult> {
  // Prepared: every public form submission counts one hit here first.
  const rows = await queryRows(
    db,
    sql`
    insert into rate_limits as r (key, window_start, count, expires_at)
    select ${key}, w.start, 1, w.start + make_interval(secs => ${windowSeconds}) from (select ${windowStart(windowSeconds)} as start) w
    on conflict (key, window_start) do update set count = r.count + 1
    returning r.count,
      ceil(extract(epoch from r.expires_at) - extract(epoch from crm_now()))::int as retry_after`,
    z.object({ count: z.number().int(), retry_after: z.number().int() }),
    { prepared: PREPARED.hitRateLimit },
  );
  const row = rows[0]!;
  return { allowed: row.count <= limit, count: row.count, retryAfterSeconds: Math.max(1, row.retry_after) };
}

/** A counter to check and count: `limit` hits per window, or null to count without a limit. */
export type RateLimitKey = { key: string; limit: number | null };

export type RateLimitsResult = {
  /** Keys at their limit before this hit (then nothing was counted), or past it after (two hits raced). */
  over: string[];
  /** Each key's count in this window, this hit included when it was counted. */
  counts: Map<string, number>;
  /** The window this hit was counted in (for undoRateLimitHits). */
  windowStart: string;
  retryAfterSeconds: number;
};

/**
 * Checks several counters of one window and, only when none is at its limit, counts one hit
 * on each, in one statement. A client that is over a limit only reads: it adds no rows and
 * changes none, however many keys it invents. Hits that race past a limit are counted and
 * reported in `over`, so the limit still holds.
 */
export async function hitRateLimitsUnlessOver(db: Db, keys: RateLimitKey[], windowSeconds: number): Promise<RateLimitsResult> {
  const wanted = sql.join(
    keys.map((k) => sql`(${k.key}::text, ${k.limit}::int)`),
    sql`, `,
  );
  // Rows are written in key order, so two sign-ins sharing keys never deadlock.
  const rows = await queryRows(
    db,
    sql`
    with w as (select ${windowStart(windowSeconds)} as start),
    wanted (key, lim) as (values ${wanted}),
    current_counts as (
      select wanted.key, wanted.lim, coalesce(r.count, 0) as count
      from wanted left join rate_limits r on r.key = wanted.key and r.window_start = (select start from w)
    ),
    hit as (
      insert into rate_limits as r (key, window_start, count, expires_at)
      select c.key, w.start, 1, w.start + make_interval(secs => ${windowSeconds})
      from current_counts c, w
      where not exists (select 1 from current_counts where lim is not null and count >= lim)
      order by c.key
      on conflict (key, window_start) do update set count = r.count + 1
      returning r.key, r.count
    )
    select c.key, c.lim, coalesce(hit.count, c.count)::int as count, hit.key is not null as counted,
      (select start from w)::text as window_start,
      ceil(extract(epoch from (select start from w)) + ${windowSeconds} - extract(epoch from crm_now()))::int as retry_after
    from current_counts c left join hit on hit.key = c.key`,
    z.object({
      key: z.string(),
      lim: z.number().int().nullable(),
      count: z.number().int(),
      counted: z.boolean(),
      window_start: z.string(),
      retry_after: z.number().int(),
    }),
  );
  const over = rows.filter((r) => r.lim !== null && (r.counted ? r.count > r.lim : r.count >= r.lim)).map((r) => r.key);
  return {
    over,
    counts: new Map(rows.map((r) => [r.key, r.count])),
    windowStart: rows[0]!.window_start,
    retryAfterSeconds: Math.max(1, rows[0]!.retry_after),
  };
}

/**
 * Takes back the hits of one window counted by hitRateLimitsUnlessOver (an attempt that
 * turned out to be allowed); the keys in `reset` start again from zero.
 */
export async function undoRateLimitHits(db: Db, keys: string[], reset: string[], windowStart: string): Promise<void> {
  const list = (values: string[]) =>
    values.length > 0
      ? sql.join(
          values.map((v) => sql`${v}`),
          sql`, `,
        )
      : sql`null`;
  await execute(
    db,
    sql`
    update rate_limits set count = case when key in (${list(reset)}) then 0 else greatest(count - 1, 0) end
    where key in (${list([...keys, ...reset])}) and window_start = ${windowStart}::timestamptz`,
  );
}

/** Drops every counter whose window has ended (the maintenance job, every 10 minutes). */
export async function deleteExpiredRateLimits(db: Db): Promise<number> {
  return execute(db, sql`delete from rate_limits where expires_at <= crm_now()`);
}

/**
 * Counts `hits` (per key) against each key's counter in the current window, in one statement
 * for a whole batch of requests, and returns each key's count after them. The row lock of
 * the upsert orders every process's batches, so the counts are exact across processes.
 */
export async function addRateLimitHits(db: Db, hits: Map<string, number>, windowSeconds: number): Promise<Map<string, number>> {
  if (hits.size === 0) return new Map();
  // Sorted, so two processes' batches lock shared keys in the same order and never deadlock.
  const keys = [...hits.keys()].sort();
  // Prepared (its text is the same for any batch): the analytics events' shared limit counts here.
  const rows = await queryRows(
    db,
    sql`
    insert into rate_limits as r (key, window_start, count, expires_at)
    select t.key, w.start, t.n, w.start + make_interval(secs => ${windowSeconds})
    from unnest(${pgArray(keys)}::text[], ${pgArray(keys.map((k) => hits.get(k)!))}::int[]) with ordinality as t(key, n, i),
      (select ${windowStart(windowSeconds)} as start) w
    order by t.i
    on conflict (key, window_start) do update set count = r.count + excluded.count
    returning r.key, r.count`,
    z.object({ key: z.string(), count: z.number().int() }),
    { prepared: PREPARED.addRateLimitHits },
  );
  return new Map(rows.map((r) => [r.key, r.count]));
}
