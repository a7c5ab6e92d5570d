import { sql } from 'drizzle-orm';
import * as z from 'zod';
import { currentUserSchema, type CurrentUser } from '#shared/schemas/auth';
import type { Db } from '../client.ts';
import { execute, queryRows } from '../sql.ts';
import { lacksRequiredTwoFactor } from './two-factor-queries.ts';
import { hashToken, newSecretToken } from '../../lib/secret-token.ts';

export const SESSION_IDLE_DAYS = 7;
export const SESSION_ABSOLUTE_DAYS = 30;

/** Where a session was started from (the account page lists them). */
export type SessionOrigin = { ip?: string | null; userAgent?: string | null };

/** Starts a session and returns its token (256 random bits) for the cookie. */
export async function createSession(db: Db, userId: string, origin: SessionOrigin = {}): Promise<string> {
  const token = newSecretToken();
  await execute(
    db,
    sql`
    insert into sessions (token_hash, user_id, expires_at, ip, user_agent)
    values (${hashToken(token)}, ${userId}, crm_now() + make_interval(days => ${SESSION_ABSOLUTE_DAYS}),
      ${origin.ip ?? null}, ${origin.userAgent?.slice(0, 512) ?? null})`,
  );
  return token;
}

/**
 * The user a token belongs to, if its session is within both its idle and absolute
 * expiry. Refreshes last_seen_at at most once a minute to keep reads cheap.
 */
export async function findSessionUser(db: Db, token: string): Promise<CurrentUser | undefined> {
  const rows = await queryRows(
    db,
    sql`
    select u.id, u.email, u.display_name, u.phone, u.role, s.last_seen_at < crm_now() - interval '1 minute' as stale,
      ${lacksRequiredTwoFactor(sql`u`)} as must_set_up_two_factor
    from sessions s join users u on u.id = s.user_id
    where s.token_hash = ${hashToken(token)}
      and u.deactivated_at is null
      and s.expires_at > crm_now()
      and s.last_seen_at > crm_now() - make_interval(days => ${SESSION_IDLE_DAYS})`,
    currentUserSchema.extend({ stale: z.boolean() }),
  );
  const row = rows[0];
  if (!row) return undefined;
  if (row.stale) await execute(db, sql`update sessions set last_seen_at = crm_now() where token_hash = ${hashToken(token)}`);
  return {
    id: row.id,
    email: row.email,
    display_name: row.display_name,
    phone: row.phone,
    role: row.role,
    ...(row.must_set_up_two_factor ? { must_set_up_two_factor: true } : {}),
  };
}

export async function deleteSession(db: Db, token: string): Promise<void> {
  await execute(db, sql`delete from sessions where token_hash = ${hashToken(token)}`);
}

export async function deleteExpiredSessions(db: Db): Promise<number> {
  return execute(
    db,
    sql`
    delete from sessions
    where expires_at <= crm_now() or last_seen_at <= crm_now() - make_interval(days => ${SESSION_IDLE_DAYS})`,
  );
}

/**
 * Ends the sessions of an account, all of them or all but `keepTokenHash` (the one making
 * the change), and returns the hashes of those ended so this process can close their
 * streams at once (other processes find them gone within their session check).
 */
export async function deleteSessionsOf(db: Db, userId: string, keepTokenHash?: string): Promise<string[]> {
  const rows = await queryRows(
    db,
    sql`delete from sessions where user_id = ${userId} and token_hash is distinct from ${keepTokenHash ?? null} returning token_hash`,
    z.object({ token_hash: z.string() }),
  );
  return rows.map((r) => r.token_hash);
}
