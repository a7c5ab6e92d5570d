import * as z from 'zod';
import { getCookie, setCookie, deleteCookie } from 'hono/cookie';
import type { Context } from 'hono';
import {
  loginRequestSchema,
  loginResponseSchema,
  sessionResponseSchema,
  twoFactorLoginSchema,
  currentUserSchema,
} from '#shared/schemas/auth';
import { actorOf, recordAudit } from '../audit/audit-log.ts';
import { checkPassword, type SignInRequest } from '../auth/password-sign-in.ts';
import { startSession } from '../auth/start-session.ts';
import { checkSecondFactor, openChallenge } from '../auth/two-factor-sign-in.ts';
import {
  CHALLENGE_MINUTES,
  createChallenge,
  deleteChallenge,
  isTrustedDevice,
  rememberDevice,
  TRUSTED_DEVICE_DAYS,
} from '../db/queries/two-factor-queries.ts';
import type { AppEnv } from '../http/context.ts';
import { requestScheme } from '../http/public-origin.ts';
import { clearSessionCookie, readSessionToken } from '../auth/session-cookie.ts';
import { deleteSession, findSessionUser } from '../db/queries/sessions-queries.ts';
import { hashToken } from '../lib/secret-token.ts';
import { rememberSignInIp } from '../db/queries/sign-in-ips-queries.ts';
import { hasAnyUser } from '../db/queries/team-queries.ts';
import { rateLimitKey } from '../lib/client-address.ts';
import { createPublicRoute, errorResponses, jsonContent } from '../http/openapi.ts';
import { createRouter } from '../http/router.ts';

/** Signing in and out (the rules of each step are in auth/: password-sign-in.ts, two-factor-sign-in.ts). */

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

const twoFactorRoute = createPublicRoute({
  method: 'post',
  path: '/api/auth/login/two-factor',
  tags: ['auth'],
  summary:
    'The second step of a sign-in with two-factor: a code from the app, or a recovery code; optionally remember this device for 30 days',
  request: { body: { required: true, ...jsonContent(twoFactorLoginSchema, 'A code or a recovery code') } },
  responses: {
    200: jsonContent(z.object({ user: currentUserSchema }), 'Signed in'),
    ...errorResponses({
      400: 'Neither a code nor a recovery code',
      401: 'The code is wrong or used already, or the sign-in expired',
      429: 'Too many wrong codes for this account from this IP, or from this IP',
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

/** The half-done sign-in (password right, code to come) and the device remembered for two-factor. */
const CHALLENGE_COOKIE = 'sign_in_challenge';
const TRUSTED_DEVICE_COOKIE = 'trusted_device';

function cookieOptions(c: Context<AppEnv>, maxAgeSeconds: number) {
  const secure = c.get('deps').config.fixedOrigin?.startsWith('https:') === true || requestScheme(c) === 'https';
  return { httpOnly: true, sameSite: 'Lax' as const, secure, path: '/api/auth', maxAge: maxAgeSeconds };
}

/** A sign-in step's request as auth/ takes it: where it comes from, and who acts. */
const signInRequest = (c: Context<AppEnv>): SignInRequest => ({
  db: c.get('db'),
  source: { ip: c.get('clientIp'), sessionToken: readSessionToken(c), deviceToken: getCookie(c, TRUSTED_DEVICE_COOKIE) },
  logger: c.get('deps').logger,
  requestId: c.get('requestId'),
  actor: (user) => actorOf(c, user),
});

export const authRoutes = createRouter()
  .openapi(loginRoute, async (c) => {
    const db = c.get('db');
    const { email, password } = c.req.valid('json');
    const ip = c.get('clientIp');
    const account = await checkPassword(signInRequest(c), email, password);
    if (account.two_factor) {
      const device = getCookie(c, TRUSTED_DEVICE_COOKIE);
      if (!(device && (await isTrustedDevice(db, account.id, device)))) {
        // The IP becomes one of the owner's usual ones only with the right code too: the
        // password alone must not exempt a stranger from the two-factor step's slow-down.
        setCookie(c, CHALLENGE_COOKIE, await createChallenge(db, account.id, rateLimitKey(ip)), cookieOptions(c, CHALLENGE_MINUTES * 60));
        return c.json({ two_factor_required: true as const }, 200);
      }
    }
    await rememberSignInIp(db, account.id, ip);
    await startSession(c, db, account.id);
    await recordAudit(db, actorOf(c, account), {
      action: 'sign_in',
      targetType: 'account',
      targetId: account.id,
      details: account.two_factor ? { two_factor: 'remembered device' } : {},
    });
    return c.json(
      { user: { id: account.id, email: account.email, display_name: account.display_name, phone: account.phone, role: account.role } },
      200,
    );
  })
  .openapi(twoFactorRoute, async (c) => {
    const db = c.get('db');
    const challenge = await openChallenge(db, getCookie(c, CHALLENGE_COOKIE));
    const { code, recovery_code, remember_device } = c.req.valid('json');
    await checkSecondFactor(signInRequest(c), challenge, { code, recovery_code });
    await rememberSignInIp(db, challenge.user_id, c.get('clientIp'));
    await deleteChallenge(db, challenge.token);
    deleteCookie(c, CHALLENGE_COOKIE, { path: '/api/auth' });
    if (remember_device)
      setCookie(
        c,
        TRUSTED_DEVICE_COOKIE,
        await rememberDevice(db, challenge.user_id, c.req.header('user-agent')),
        cookieOptions(c, TRUSTED_DEVICE_DAYS * 86_400),
      );
    await startSession(c, db, challenge.user_id);
    await recordAudit(db, actorOf(c, { id: challenge.user_id, email: challenge.email }), {
      action: 'sign_in',
      targetType: 'account',
      targetId: challenge.user_id,
      details: { two_factor: code ? 'code' : 'recovery code' },
    });
    const { user_id: id, email, display_name, phone, role } = challenge;
    return c.json({ user: { id, email, display_name, phone, role } }, 200);
  })
  .openapi(logoutRoute, async (c) => {
    const token = readSessionToken(c);
    if (token) {
      const user = await findSessionUser(c.get('db'), token);
      if (user) await recordAudit(c.get('db'), actorOf(c, user), { action: 'sign_out', targetType: 'account', targetId: user.id });
      await deleteSession(c.get('db'), token);
      // This process's streams of that session end now; other processes' within their session check.
      c.get('deps').hub.endSession(hashToken(token));
    }
    clearSessionCookie(c);
    return c.json({ ok: true as const }, 200);
  })
  .openapi(sessionRoute, async (c) => {
    const token = readSessionToken(c);
    const user = token ? await findSessionUser(c.get('db'), token) : undefined;
    if (token && !user) clearSessionCookie(c);
    if (user) return c.json({ user }, 200);
    return c.json({ user: null, setup_needed: !(await hasAnyUser(c.get('db'))) }, 200);
  });
