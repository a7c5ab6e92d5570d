import { createRoute, type RouteConfig } from '@hono/zod-openapi';
import type { MiddlewareHandler } from 'hono';
import { createMiddleware } from 'hono/factory';
import type { AppEnv } from '../http/context.ts';
import { AppError } from '../http/errors.ts';
import { errorResponses } from '../http/openapi.ts';
import { TWO_FACTOR_SETUP_REQUIRED } from '#shared/schemas/auth';
import { requireUser } from './require-user.ts';

const unauthorized = errorResponses({ 401: 'Not signed in, or the session expired' });
const forbidden = errorResponses({ 403: 'Signed in as staff: only an owner of the team may do this' });

export const OWNERS_ONLY = 'Only an owner of the team can do this.';

/**
 * After requireUser: while the team requires two-factor and this account has not set it up,
 * only its own account operations (where it sets it up) answer; everything else is 403.
 */
export const requireTwoFactorIfAsked = createMiddleware<AppEnv>(async (c, next) => {
  if (c.get('user').must_set_up_two_factor && !c.req.path.startsWith('/api/account/'))
    throw new AppError('forbidden', TWO_FACTOR_SETUP_REQUIRED);
  await next();
});

/** After requireUser: staff are answered 403 before anything is read or changed. */
export const requireOwner = createMiddleware<AppEnv>(async (c, next) => {
  if (c.get('user').role !== 'owner') throw new AppError('forbidden', OWNERS_ONLY);
  await next();
});

/**
 * An admin operation: documented as needing the session cookie and guarded by requireUser,
 * in one place, so a route cannot be documented as protected and left open (or the reverse).
 * `afterSignIn` runs once the session is known, before the body is read (the lead import's
 * larger body limit: nobody without a session gets to send megabytes).
 */
export function createAdminRoute<const R extends Omit<RouteConfig, 'security' | 'middleware'>>(
  route: R,
  afterSignIn: MiddlewareHandler[] = [],
) {
  return createRoute({
    ...route,
    security: [{ sessionCookie: [] }],
    middleware: [requireUser, requireTwoFactorIfAsked, ...afterSignIn] as const,
    responses: { ...route.responses, ...unauthorized },
  });
}

/**
 * An owner's operation (the team, the settings, the audit log): as createAdminRoute, and
 * staff are refused with 403. Documented with the `owner` scope on the session cookie, which
 * the access walk reads to check every such operation refuses staff.
 */
export function createOwnerRoute<const R extends Omit<RouteConfig, 'security' | 'middleware'>>(
  route: R,
  afterSignIn: MiddlewareHandler[] = [],
) {
  return createRoute({
    ...route,
    security: [{ sessionCookie: ['owner'] }],
    middleware: [requireUser, requireTwoFactorIfAsked, requireOwner, ...afterSignIn] as const,
    responses: { ...route.responses, ...unauthorized, ...forbidden },
  });
}
