import { setTimeout as sleep } from 'node:timers/promises';
import { z } from '@hono/zod-openapi';
import { loginRequestSchema, loginResponseSchema, sessionResponseSchema } from '#shared/schemas/auth';
import { hashPassword, verifyPassword } from '../auth/password.ts';
import { clearSessionCookie, readSessionToken, writeSessionCookie } from '../auth/session-cookie.ts';
import {
  MAX_FAILURES_PER_ACCOUNT_AND_IP,
  MAX_FAILURES_PER_IP,
  SIGN_IN_WINDOW_SECONDS,
  signInDelayMs,
  signInKeys,
  TOO_MANY_FOR_IP,
  TOO_MANY_FOR_PAIR,
} from '../auth/sign-in-limits.ts';
import { hitRateLimitsUnlessOver, undoRateLimitHits } from '../db/queries/rate-limits.ts';
import { createSession, deleteSession, findSessionUser, hashToken } from '../db/queries/sessions.ts';
import { isUsualSignInIp, rememberSignInIp } from '../db/queries/sign-in-ips.ts';
import { hasAnyUser } from '../db/queries/team.ts';
import { findPasswordHash, touchLastSignIn } from '../db/queries/users.ts';
import type { Db } from '../db/client.ts';
import { rateLimitKey } from '../lib/client-address.ts';
import { AppError, tooManyRequests } from '../http/errors.ts';
import { createPublicRoute, errorResponses, jsonContent } from '../http/openapi.ts';
import { createRouter } from '../http/router.ts';

export const ACCOUNT_DEACTIVATED = 'This account has been deactivated. Ask an owner of your team to reactivate it.';

// An unknown email is checked against this hash, so it costs the same time as a wrong password.
let dummyHash: Promise<string> | undefined;
const getDummyHash = () => (dummyHash ??= hashPassword(crypto.randomUUID()));

const loginRoute = createPublicRoute({
  method: 'post',
  path: '/api/auth/login',
  tags: ['auth'],
  summary: 'Sign in with email and password; sets the session cookie',
  request: { body: { required: true, ...jsonContent(loginRequestSchema, 'Email and password') } },
  responses: {
    200: jsonContent(loginResponseSchema, 'Signed in'),
    ...errorResponses({
      400: 'Invalid fields',
      401: 'Wrong email or password (the same answer for both)',
      403: 'The password is right but the account is deactivated',
      429: 'Too many failed sign-ins for this email from this IP, or from this IP',
    }),
  },
});

const logoutRoute = createPublicRoute({
  method: 'post',
  path: '/api/auth/logout',
  tags: ['auth'],
  summary: 'Sign out: deletes the server-side session and ends its live notification streams',
  responses: { 200: jsonContent(z.object({ ok: z.literal(true) }), 'Signed out') },
});

const sessionRoute = createPublicRoute({
  method: 'get',
  path: '/api/auth/session',
  tags: ['auth'],
  summary: 'Who is signed in (user is null when nobody is)',
  responses: { 200: jsonContent(sessionResponseSchema, 'The session') },
});

/** The account's owner: an IP it signed in from lately, or a live session of the same account. */
async function isOwnersSource(db: Db, userId: string, ip: string, sessionToken: string | undefined): Promise<boolean> {
  if (await isUsualSignInIp(db, userId, ip)) return true;
  return sessionToken !== undefined && (await findSessionUser(db, sessionToken))?.id === userId;
}

export const authRoutes = createRouter()
  .openapi(loginRoute, async (c) => {
    const { db } = c.var;
    const { email, password } = c.req.valid('json');
    const ip = c.var.clientIp;
    // IPv6 clients count by their /64 (lib/client-address.ts); the usual-IP check keeps the address.
    const keys = signInKeys(email, rateLimitKey(ip));

    // Count the attempt before checking the password, so parallel guesses cannot all slip in
    // under a limit; a sign-in that succeeds takes its count back. A blocked attempt writes
    // nothing, and is blocked before the password is looked at, right or wrong.
    const hit = await hitRateLimitsUnlessOver(
      db,
      [
        { key: keys.pair, limit: MAX_FAILURES_PER_ACCOUNT_AND_IP },
        { key: keys.ip, limit: MAX_FAILURES_PER_IP },
        { key: keys.account, limit: null },
      ],
      SIGN_IN_WINDOW_SECONDS,
    );
    if (hit.over.length > 0) {
      throw tooManyRequests(hit.retryAfterSeconds, hit.over.includes(keys.ip) ? TOO_MANY_FOR_IP : TOO_MANY_FOR_PAIR);
    }

    const account = await findPasswordHash(db, email);
    // Strangers failing against this account from many IPs slow everyone but its owner.
    // The wait comes before the password check, so its length says nothing about the
    // password, and no database connection is held while waiting.
    const delayMs = signInDelayMs(hit.counts.get(keys.account) ?? 0);
    if (delayMs > 0 && !(account && (await isOwnersSource(c.var.db, account.id, ip, readSessionToken(c))))) {
      c.var.deps.logger.info({ event: 'login_slowed', delayMs, requestId: c.var.requestId }, 'sign-in slowed');
      await sleep(delayMs);
    }
    const valid = await verifyPassword(account?.password_hash ?? (await getDummyHash()), password);
    if (!account || !valid) {
      c.var.deps.logger.info({ event: 'login_failed', requestId: c.var.requestId }, 'failed sign-in');
      throw new AppError('unauthorized', 'Invalid credentials');
    }
    // Said only to someone who knows the password: the account exists, and an owner can reactivate it.
    if (account.deactivated) throw new AppError('forbidden', ACCOUNT_DEACTIVATED);
    await undoRateLimitHits(db, [keys.ip, keys.account], [keys.pair], hit.windowStart);
    await rememberSignInIp(db, account.id, ip);
    await touchLastSignIn(db, account.id);

    // Rotate: whatever session the browser held before sign-in ends here.
    const previous = readSessionToken(c);
    if (previous) {
      await deleteSession(db, previous);
      c.var.deps.hub.endSession(hashToken(previous));
    }
    writeSessionCookie(c, await createSession(db, account.id, { ip, userAgent: c.req.header('user-agent') }));
    return c.json({ user: { id: account.id, email: account.email, role: account.role } }, 200);
  })
  .openapi(logoutRoute, async (c) => {
    const token = readSessionToken(c);
    if (token) {
      await deleteSession(c.var.db, token);
      // This process's streams of that session end now; other processes' within their session check.
      c.var.deps.hub.endSession(hashToken(token));
    }
    clearSessionCookie(c);
    return c.json({ ok: true as const }, 200);
  })
  .openapi(sessionRoute, async (c) => {
    const token = readSessionToken(c);
    const user = token ? await findSessionUser(c.var.db, token) : undefined;
    if (token && !user) clearSessionCookie(c);
    if (user) return c.json({ user }, 200);
    return c.json({ user: null, setup_needed: !(await hasAnyUser(c.var.db)) }, 200);
  });
