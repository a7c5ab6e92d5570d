import { createRoute, z } from '@hono/zod-openapi';
import { loginRequestSchema, loginResponseSchema, sessionResponseSchema } from '#shared/schemas/auth';
import { errorResponseSchema } from '#shared/schemas/error';
import { hashPassword, verifyPassword } from '../auth/password.ts';
import { clearSessionCookie, readSessionToken, writeSessionCookie } from '../auth/session-cookie.ts';
import { clearRateLimit, hitRateLimit, undoRateLimitHit } from '../db/queries/rate-limits.ts';
import { createSession, deleteSession, findSessionUser } from '../db/queries/sessions.ts';
import { findPasswordHash } from '../db/queries/users.ts';
import { AppError } from '../http/errors.ts';
import { createRouter, requireDb } from '../http/router.ts';

// OWASP: limit failed sign-ins per account and per source.
// https://cheatsheetseries.owasp.org/cheatsheets/Authentication_Cheat_Sheet.html
const WINDOW_SECONDS = 15 * 60;
const MAX_FAILURES_PER_ACCOUNT = 5;
const MAX_FAILURES_PER_IP = 20;
const errorJson = { 'application/json': { schema: errorResponseSchema } };

// An unknown email is checked against this hash, so it costs the same time as a wrong password.
let dummyHash: Promise<string> | undefined;
const getDummyHash = () => (dummyHash ??= hashPassword(crypto.randomUUID()));

const loginRoute = createRoute({
  method: 'post',
  path: '/api/auth/login',
  tags: ['auth'],
  summary: 'Sign in with email and password; sets the session cookie',
  security: [],
  request: { body: { required: true, content: { 'application/json': { schema: loginRequestSchema } } } },
  responses: {
    200: { description: 'Signed in', content: { 'application/json': { schema: loginResponseSchema } } },
    400: { description: 'Invalid fields', content: errorJson },
    401: { description: 'Wrong email or password (the same answer for both)', content: errorJson },
    429: { description: 'Too many failed attempts', content: errorJson },
  },
});

const logoutRoute = createRoute({
  method: 'post',
  path: '/api/auth/logout',
  tags: ['auth'],
  summary: 'Sign out: deletes the server-side session',
  security: [],
  responses: { 200: { description: 'Signed out', content: { 'application/json': { schema: z.object({ ok: z.literal(true) }) } } } },
});

const sessionRoute = createRoute({
  method: 'get',
  path: '/api/auth/session',
  tags: ['auth'],
  summary: 'Who is signed in (user is null when nobody is)',
  security: [],
  responses: { 200: { description: 'The session', content: { 'application/json': { schema: sessionResponseSchema } } } },
});

function tooMany(seconds: number): AppError {
  const minutes = Math.ceil(seconds / 60);
  return new AppError(
    'rate_limited',
    `Too many sign-in attempts. Please try again in ${minutes} ${minutes === 1 ? 'minute' : 'minutes'}.`,
    undefined,
    { 'Retry-After': String(seconds) },
  );
}

export const authRoutes = createRouter()
  .openapi(loginRoute, async (c) => {
    const db = requireDb(c);
    const { email, password } = c.req.valid('json');
    const accountKey = `login:account:${email}`;
    const ipKey = `login:ip:${c.get('clientIp')}`;

    // Count the attempt before checking the password, so parallel guesses cannot all slip
    // in under the limit; a sign-in that succeeds takes its count back.
    const account_ = await hitRateLimit(db, accountKey, MAX_FAILURES_PER_ACCOUNT, WINDOW_SECONDS);
    const ip = await hitRateLimit(db, ipKey, MAX_FAILURES_PER_IP, WINDOW_SECONDS);
    if (!account_.allowed || !ip.allowed) {
      throw tooMany(Math.max(account_.allowed ? 0 : account_.retryAfterSeconds, ip.allowed ? 0 : ip.retryAfterSeconds));
    }

    const account = await findPasswordHash(db, email);
    const valid = await verifyPassword(account?.password_hash ?? (await getDummyHash()), password);
    if (!account || !valid) {
      c.get('deps').logger.info({ event: 'login_failed', requestId: c.get('requestId') }, 'failed sign-in');
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
    if (token) await deleteSession(requireDb(c), token);
    clearSessionCookie(c);
    return c.json({ ok: true as const }, 200);
  })
  .openapi(sessionRoute, async (c) => {
    const token = readSessionToken(c);
    const user = token ? await findSessionUser(requireDb(c), token) : undefined;
    if (token && !user) clearSessionCookie(c);
    return c.json({ user: user ?? null }, 200);
  });
