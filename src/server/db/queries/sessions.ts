import { createHash, randomBytes } from 'node:crypto';
import { sql } from 'drizzle-orm';
import * as z from 'zod';
import { currentUserSchema, type CurrentUser } from '#shared/schemas/auth';
import type { Db } from '../client.ts';
import { execute, queryRows } from '../sql.ts';

export const SESSION_IDLE_DAYS = 7;
export const SESSION_ABSOLUTE_DAYS = 30;

/** Only this hash is stored: a copy of the sessions table opens no session. */
export const hashToken = (token: string) => createHash('sha256').update(token).digest('hex');

/** Starts a session and returns its token (256 random bits) for the cookie. */
export async function createSession(db: Db, userId: string): Promise<string> {
  const token = randomBytes(32).toString('base64url');
  await execute(db, sql`
    insert into sessions (token_hash, user_id, expires_at)
    values (${hashToken(token)}, ${userId}, now() + make_interval(days => ${SESSION_ABSOLUTE_DAYS}))`);
  return token;
}

/**
 * The user a token belongs to, if its session is within both its idle and absolute
 * expiry. Refreshes last_seen_at at most once a minute to keep reads cheap.
 */
export async function findSessionUser(db: Db, token: string): Promise<CurrentUser | undefined> {
  const rows = await queryRows(db, sql`
    select u.id, u.email, s.last_seen_at < now() - interval '1 minute' as stale
    from sessions s join users u on u.id = s.user_id
    where s.token_hash = ${hashToken(token)}
      and s.expires_at > now()
      and s.last_seen_at > now() - make_interval(days => ${SESSION_IDLE_DAYS})`, currentUserSchema.extend({ stale: z.boolean() }));
  const row = rows[0];
  if (!row) return undefined;
  if (row.stale) await execute(db, sql`update sessions set last_seen_at = now() where token_hash = ${hashToken(token)}`);
  return { id: row.id, email: row.email };
}

export async function deleteSession(db: Db, token: string): Promise<void> {
  await execute(db, sql`delete from sessions where token_hash = ${hashToken(token)}`);
}

export async function deleteExpiredSessions(db: Db): Promise<number> {
  return execute(db, sql`
    delete from sessions
    where expires_at <= now() or last_seen_at <= now() - make_interval(days => ${SESSION_IDLE_DAYS})`);
}
