import type { Context } from 'hono';
import { sql } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { deleteSessionsOf } from '../db/queries/sessions-queries.ts';
import { hashToken } from '../lib/secret-token.ts';
import { execute } from '../db/sql.ts';
import type { AppEnv } from '../http/context.ts';
import { readSessionToken } from './session-cookie.ts';

/**
 * Ends what an account holds open: its sessions (all, or all but the current request's) and
 * with them their live streams, and, when `feeds` is set, its calendar feed URL and the
 * devices remembered for two-factor. Used by deactivation, email changes and "sign out everywhere
 * else" (a password change or reset ends the same in its own transaction: db/queries/account-queries.ts).
 * Returns how many sessions ended.
 */
export async function endAccountAccess(
  c: Context<AppEnv>,
  db: Db,
  userId: string,
  { keepCurrent = false, feeds = false }: { keepCurrent?: boolean; feeds?: boolean } = {},
): Promise<number> {
  const current = keepCurrent ? readSessionToken(c) : undefined;
  const ended = await deleteSessionsOf(db, userId, current ? hashToken(current) : undefined);
  if (feeds) {
    await execute(db, sql`delete from calendar_feeds where user_id = ${userId}`);
    await execute(db, sql`delete from trusted_devices where user_id = ${userId}`);
  }
  for (const key of ended) c.get('deps').hub.endSession(key);
  return ended.length;
}
