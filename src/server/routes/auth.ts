import { setTimeout as sleep } from 'node:timers/promises';
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
import { CODE_INVALID } from '#shared/schemas/two-factor';
import { actorOf, recordAudit } from '../audit/audit-log.ts';
import { startSession } from '../auth/start-session.ts';
import { hashRecoveryCode, verifyTotp } from '../auth/totp.ts';
import {
  CHALLENGE_MINUTES,
  claimTotpStep,
  createChallenge,
  deleteChallenge,
  findChallenge,
  isTrustedDevice,
  rememberDevice,
  TRUSTED_DEVICE_DAYS,
  useRecoveryCode,
} from '../db/queries/two-factor.ts';
import type { AppEnv } from '../http/context.ts';
import type { Db } from '../db/client.ts';
import { requestScheme } from '../http/public-origin.ts';
import { hashPassword, verifyPassword } from '../auth/password.ts';
import { clearSessionCookie, readSessionToken } from '../auth/session-cookie.ts';
import {
  MAX_FAILURES_PER_ACCOUNT_AND_IP,
  MAX_FAILURES_PER_IP,
  SIGN_IN_WINDOW_SECONDS,
  signInDelayMs,
  signInKeys,
  TOO_MANY_CODES_FOR_IP,
  TOO_MANY_CODES_FOR_PAIR,
  TOO_MANY_FOR_IP,
  TOO_MANY_FOR_PAIR,
  twoFactorKeys,
} from '../auth/sign-in-limits.ts';
import { hitRateLimitsUnlessOver, undoRateLimitHits } from '../db/queries/rate-limits.ts';
import { deleteSession, findSessionUser } from '../db/queries/sessions.ts';
import { hashToken } from '../lib/secret-token.ts';
import { isUsualSignInIp, rememberSignInIp } from '../db/queries/sign-in-ips.ts';
import { hasAnyUser } from '../db/queries/team.ts';
import { findPasswordHash } from '../db/queries/users.ts';
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
export const SIGN_IN_EXPIRED = 'Your sign-in expired. Enter your email and password again.';

function cookieOptions(c: Context<AppEnv>, maxAgeSeconds: number) {
  const secure = c.get('deps').config.fixedOrigin?.startsWith('https:') === true || requestScheme(c) === 'https';
  return { httpOnly: true, sameSite: 'Lax' as const, secure, path: '/api/auth', maxAge: maxAgeSeconds };
}

/**
 * The account's owner: an IP it signed in from lately (all the way: with the code, when it
 * has two-factor), a live session of the same account, or a device remembered for it.
 */
async function isOwnersSource(c: Context<AppEnv>, userId: string): Promise<boolean> {
  const db = c.get('db');
  if (await isUsualSignInIp(db, userId, c.get('clientIp'))) return true;
  const sessionToken = readSessionToken(c);
  if (sessionToken !== undefined && (await findSessionUser(db, sessionToken))?.id === userId) return true;
  const device = getCookie(c, TRUSTED_DEVICE_COOKIE);
  return device !== undefined && (await isTrustedDevice(db, userId, device));
}

/**
 * Past the account's bound, an attempt from anyone but its owner waits before it is checked:
 * the wait says nothing about the answer, and no database connection is held meanwhile.
 */
async function slowStrangers(c: Context<AppEnv>, userId: string | undefined, accountFailures: number, event: string): Promise<void> {
  const delayMs = signInDelayMs(accountFailures);
  if (delayMs === 0 || (userId !== undefined && (await isOwnersSource(c, userId)))) return;
  c.get('deps').logger.info({ event, delayMs, requestId: c.get('requestId') }, 'attempt slowed');
  await sleep(delayMs);
}

/**
 * Counts an attempt against its three keys (this account from this address, this address, this
 * account), before the secret is looked at; past the address's or the pair's limit it is refused
 * with 429 and that limit's message. The account's own count only slows attempts (no lockout).
 */
async function countFailure(db: Db, keys: { pair: string; ip: string; account: string }, refused: { ip: string; pair: string }) {
  const hit = await hitRateLimitsUnlessOver(
    db,
    [
      { key: keys.pair, limit: MAX_FAILURES_PER_ACCOUNT_AND_IP },
      { key: keys.ip, limit: MAX_FAILURES_PER_IP },
      { key: keys.account, limit: null },
    ],
    SIGN_IN_WINDOW_SECONDS,
  );
  if (hit.over.length > 0) throw tooManyRequests(hit.retryAfterSeconds, hit.over.includes(keys.ip) ? refused.ip : refused.pair);
  return hit;
}

export const authRoutes = createRouter()
  .openapi(loginRoute, async (c) => {
    const db = c.get('db');
    const { email, password } = c.req.valid('json');
    const ip = c.get('clientIp');
    // IPv6 clients count by their /64 (lib/client-address.ts); the usual-IP check keeps the address.
    const keys = signInKeys(email, rateLimitKey(ip));

    // Count the attempt before checking the password, so parallel guesses cannot all slip in
    // under a limit; a sign-in that succeeds takes its count back. A blocked attempt writes
    // nothing, and is blocked before the password is looked at, right or wrong.
    const hit = await countFailure(db, keys, { ip: TOO_MANY_FOR_IP, pair: TOO_MANY_FOR_PAIR });

    const account = await findPasswordHash(db, email);
    // Strangers failing against this account from many IPs slow everyone but its owner.
    await slowStrangers(c, account?.id, hit.counts.get(keys.account) ?? 0, 'login_slowed');
    const valid = await verifyPassword(account?.password_hash ?? (await getDummyHash()), password);
    if (!account || !valid) {
      c.get('deps').logger.info({ event: 'login_failed', requestId: c.get('requestId') }, 'failed sign-in');
      await recordAudit(
        db,
        { ...actorOf(c, undefined), email },
        { action: 'sign_in_failed', targetType: 'account', targetId: account?.id ?? null },
      );
      throw new AppError('unauthorized', 'Invalid credentials');
    }
    // Said only to someone who knows the password: the account exists, and an owner can reactivate it.
    if (account.deactivated) throw new AppError('forbidden', ACCOUNT_DEACTIVATED);
    await undoRateLimitHits(db, [keys.ip, keys.account], [keys.pair], hit.windowStart);

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
    const token = getCookie(c, CHALLENGE_COOKIE);
    const challenge = token ? await findChallenge(db, token) : undefined;
    if (!token || !challenge?.secret) throw new AppError('unauthorized', SIGN_IN_EXPIRED);
    const { code, recovery_code, remember_device } = c.req.valid('json');
    if (!code && !recovery_code)
      throw new AppError('validation_failed', 'Enter the 6-digit code from your app, or a recovery code.', { code: 'Code is required' });

    // The password's rule (docs/security.md, "Two-factor and current-password limits"): wrong
    // codes are limited per (account, IP) and per IP, never per account, so a stranger who
    // knows the password cannot lock its owner out; past the account's bound they are slowed.
    const keys = twoFactorKeys(challenge.user_id, rateLimitKey(c.get('clientIp')));
    const hit = await countFailure(db, keys, { ip: TOO_MANY_CODES_FOR_IP, pair: TOO_MANY_CODES_FOR_PAIR });
    await slowStrangers(c, challenge.user_id, hit.counts.get(keys.account) ?? 0, 'two_factor_slowed');

    const actor = actorOf(c, { id: challenge.user_id, email: challenge.email });
    let ok: boolean;
    if (code) {
      const step = await verifyTotp(challenge.secret, code, challenge.last_step);
      // The step is claimed atomically: the same code sent twice at once signs in once.
      ok = step !== undefined && (await claimTotpStep(db, challenge.user_id, step));
    } else {
      ok = await useRecoveryCode(db, challenge.user_id, hashRecoveryCode(recovery_code!));
      if (ok) await recordAudit(db, actor, { action: 'recovery_code_used', targetType: 'account', targetId: challenge.user_id });
    }
    if (!ok) {
      await recordAudit(db, actor, {
        action: 'two_factor_failed',
        targetType: 'account',
        targetId: challenge.user_id,
        details: { with: code ? 'code' : 'recovery_code' },
      });
      throw new AppError('unauthorized', CODE_INVALID);
    }
    // A right code takes its count back: only failures count towards the limits.
    await undoRateLimitHits(db, [keys.ip, keys.account], [keys.pair], hit.windowStart);
    await rememberSignInIp(db, challenge.user_id, c.get('clientIp'));
    await deleteChallenge(db, token);
    deleteCookie(c, CHALLENGE_COOKIE, { path: '/api/auth' });
    if (remember_device)
      setCookie(
        c,
        TRUSTED_DEVICE_COOKIE,
        await rememberDevice(db, challenge.user_id, c.req.header('user-agent')),
        cookieOptions(c, TRUSTED_DEVICE_DAYS * 86_400),
      );
    await startSession(c, db, challenge.user_id);
    await recordAudit(db, actor, {
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
