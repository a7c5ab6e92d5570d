import { z } from '@hono/zod-openapi';
import { loginRequestSchema, loginResponseSchema, sessionResponseSchema } from '#shared/schemas/auth';
import { hashPassword, verifyPassword } from '../auth/password.ts';
import { clearSessionCookie, readSessionToken, writeSessionCookie } from '../auth/session-cookie.ts';
import { clearRateLimit, hitRateLimit, undoRateLimitHit } from '../db/queries/rate-limits.ts';
import { createSession, deleteSession, findSessionUser } from '../db/queries/sessions.ts';
import { findPasswordHash } from '../db/queries/users.ts';
import { rateLimitKey } from '../lib/client-address.ts';
import { AppError, tooManyRequests } from '../http/errors.ts';
import { createPublicRoute, errorResponses, jsonContent } from '../http/openapi.ts';
import { createRouter } from '../http/router.ts';

// OWASP: limit failed sign-ins per account and per source.
// https://cheatsheetseries.owasp.org/cheatsheets/Authentication_Cheat_Sheet.html
const WINDOW_SECONDS = 15 * 60;
const MAX_FAILURES_PER_ACCOUNT = 5;
const MAX_FAILURES_PER_IP = 20;

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
    ...errorResponses({ 400: 'Invalid fields', 401: 'Wrong email or password (the same answer for both)', 429: 'Too many failed attempts' }),
  },
});

const logoutRoute = createPublicRoute({
  method: 'post',
  path: '/api/auth/logout',
  tags: ['auth'],
  summary: 'Sign out: deletes the server-side session',
  responses: { 200: jsonContent(z.object({ ok: z.literal(true) }), 'Signed out') },
});

const sessionRoute = createPublicRoute({
  method: 'get',
  path: '/api/auth/session',
  tags: ['auth'],
  summary: 'Who is signed in (user is null when nobody is)',
  responses: { 200: jsonContent(sessionResponseSchema, 'The session') },
});

export const authRoutes = createRouter()
  .openapi(loginRoute, async (c) => {
    const { db } = c.var;
    const { email, password } = c.req.valid('json');
    const accountKey = `login:account:${email}`;
    const ipKey = `login:ip:${rateLimitKey(c.var.clientIp)}`;

    // Count the attempt before checking the password, so parallel guesses cannot all slip
    // in under the limit; a sign-in that succeeds takes its count back.
    const account_ = await hitRateLimit(db, accountKey, MAX_FAILURES_PER_ACCOUNT, WINDOW_SECONDS);
    const ip = await hitRateLimit(db, ipKey, MAX_FAILURES_PER_IP, WINDOW_SECONDS);
    if (!account_.allowed || !ip.allowed) {
      throw tooManyRequests(Math.max(account_.allowed ? 0 : account_.retryAfterSeconds, ip.allowed ? 0 : ip.retryAfterSeconds), 'sign-in attempts');
    }

    const account = await findPasswordHash(db, email);
    const valid = await verifyPassword(account?.password_hash ?? (await getDummyHash()), password);
    if (!account || !valid) {
      c.var.deps.logger.info({ event: 'login_failed', requestId: c.var.requestId }, 'failed sign-in');
      throw new AppError('unauthorized', 'Invalid credentials');
    }
    await clearRateLimit(db, accountKey);
    await undoRateLimitHit(db, ipKey, WINDOW_SECONDS);

    // Rotate: whatever session the browser held before sign-in ends here.
    const previous = readSessionToken(c);
    if (previous) await deleteSession(db, previous);
    writeSessionCookie(c, await createSession(db, account.id));
    return c.json({ user: { id: account.id, email: account.email } }, 200);
  })
  .openapi(logoutRoute, async (c) => {
    const token = readSessionToken(c);
    if (token) await deleteSession(c.var.db, token);
    clearSessionCookie(c);
    return c.json({ ok: true as const }, 200);
  })
  .openapi(sessionRoute, async (c) => {
    const token = readSessionToken(c);
    const user = token ? await findSessionUser(c.var.db, token) : undefined;
    if (token && !user) clearSessionCookie(c);
    return c.json({ user: user ?? null }, 200);
  });
