import type { Context } from 'hono';
import type { Db } from '../db/client.ts';
import { createSession, deleteSession } from '../db/queries/sessions-queries.ts';
import { hashToken } from '../lib/secret-token.ts';
import { touchLastSignIn } from '../db/queries/users-queries.ts';
import type { AppEnv } from '../http/context.ts';
import { readSessionToken, writeSessionCookie } from './session-cookie.ts';

/**
 * Signs the browser in as `userId`: whatever session it held before ends (rotation), a new
 * one starts with the request's IP and user agent, and the account's last sign-in is now.
 */
export async function startSession(c: Context<AppEnv>, db: Db, userId: string): Promise<void> {
  const previous = readSessionToken(c);
  if (previous) {
    await deleteSession(db, previous);
    c.get('deps').hub.endSession(hashToken(previous));
  }
  await touchLastSignIn(db, userId);
  writeSessionCookie(c, await createSession(db, userId, { ip: c.get('clientIp'), userAgent: c.req.header('user-agent') }));
}
