import { sql } from 'drizzle-orm';
import * as z from 'zod';
import type { Db } from '../client.ts';
import { execute, isoTimestamp, queryRows } from '../sql.ts';
import { hashToken, newSecretToken } from '../../lib/secret-token.ts';
import { lacksRequiredTwoFactor } from './two-factor-queries.ts';

const createdRow = z.object({ created_at: z.string() });

/** A new feed token for the admin (replacing any earlier one, which stops working). */
export async function createCalendarFeed(db: Db, userId: string): Promise<{ token: string; created_at: string }> {
  const token = newSecretToken();
  const [row] = await queryRows(
    db,
    sql`
    insert into calendar_feeds (user_id, token_hash) values (${userId}, ${hashToken(token)})
    on conflict (user_id) do update set token_hash = excluded.token_hash, created_at = crm_now()
    returning ${isoTimestamp(sql`created_at`)} as created_at`,
    createdRow,
  );
  return { token, created_at: row!.created_at };
}

export async function getCalendarFeed(db: Db, userId: string): Promise<{ created_at: string } | undefined> {
  const [row] = await queryRows(
    db,
    sql`
    select ${isoTimestamp(sql`created_at`)} as created_at
    from calendar_feeds where user_id = ${userId}`,
    createdRow,
  );
  return row;
}

export async function revokeCalendarFeed(db: Db, userId: string): Promise<boolean> {
  return (await execute(db, sql`delete from calendar_feeds where user_id = ${userId}`)) > 0;
}

/**
 * What a feed token opens: `open`; `paused` while the team requires two-factor and its account
 * has not set it up (the rule that holds its sessions back holds its feed too); undefined when
 * the token is unknown or revoked (a removed account's feed cascades away; a deactivated one's
 * is deleted, and refused here as well).
 */
export async function calendarFeedAccess(db: Db, token: string): Promise<'open' | 'paused' | undefined> {
  const [row] = await queryRows(
    db,
    sql`select ${lacksRequiredTwoFactor(sql`u`)} as paused
        from calendar_feeds f join users u on u.id = f.user_id
        where f.token_hash = ${hashToken(token)} and u.deactivated_at is null`,
    z.object({ paused: z.boolean() }),
  );
  if (!row) return undefined;
  return row.paused ? 'paused' : 'open';
}
