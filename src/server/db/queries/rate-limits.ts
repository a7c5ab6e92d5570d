import { sql } from 'drizzle-orm';
import * as z from 'zod';
import type { Db } from '../client.ts';
import { execute, queryRows } from '../sql.ts';

export type RateLimitResult = { allowed: boolean; count: number; retryAfterSeconds: number };

/**
 * Counts one hit against `key` in a fixed window and says whether it is within `limit`.
 * Counters live in Postgres so every app process shares them.
 */
export async function hitRateLimit(
  db: Db,
  key: string,
  limit: number,
  windowSeconds: number,
): Promise<RateLimitResult> {
  const rows = await queryRows(db, sql`
    insert into rate_limits as r (key, window_start, count)
    values (${key}, to_timestamp(floor(extract(epoch from now()) / ${windowSeconds}) * ${windowSeconds}), 1)
    on conflict (key, window_start) do update set count = r.count + 1
    returning r.count,
      ceil(extract(epoch from r.window_start) + ${windowSeconds} - extract(epoch from now()))::int as retry_after`, z.object({ count: z.number().int(), retry_after: z.number().int() }));
  const row = rows[0]!;
  return { allowed: row.count <= limit, count: row.count, retryAfterSeconds: Math.max(1, row.retry_after) };
}

/** Drops windows that ended more than a day ago. */
export async function deleteExpiredRateLimits(db: Db): Promise<number> {
  return execute(db, sql`delete from rate_limits where window_start < now() - interval '1 day'`);
}

export async function clearRateLimit(db: Db, key: string): Promise<void> {
  await execute(db, sql`delete from rate_limits where key = ${key}`);
}

/** Takes back one hit of the current window (a sign-in that turned out to succeed). */
export async function undoRateLimitHit(db: Db, key: string, windowSeconds: number): Promise<void> {
  await execute(db, sql`
    update rate_limits set count = greatest(count - 1, 0)
    where key = ${key} and window_start = to_timestamp(floor(extract(epoch from now()) / ${windowSeconds}) * ${windowSeconds})`);
}
