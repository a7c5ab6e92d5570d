import { sql } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { queryRows } from '../db/sql.ts';
import * as z from 'zod';

/**
 * The rate limits count in fixed windows aligned to the epoch by the database's clock
 * (db/queries/rate-limits-queries.ts), which a test cannot move. A test that counts hits up to a limit
 * must not straddle two windows, or the second starts from zero (a stranger's sixth try
 * answered 401 where the fifth was the last). So when less than `roomSeconds` are left in the
 * current window, this waits for the next one to begin: a real wait, on the database's clock,
 * in at most `roomSeconds` / `windowSeconds` of the runs (about one in thirty for sign-ins).
 */
export async function awaitRoomInWindow(db: Db, windowSeconds: number, roomSeconds = 30): Promise<void> {
  const [row] = await queryRows(db, sql`select extract(epoch from now())::float8 as now`, z.object({ now: z.number() }));
  const left = windowSeconds - (row!.now % windowSeconds);
  if (left < roomSeconds) await new Promise((resolve) => setTimeout(resolve, left * 1000 + 50));
}
