import { createRoute, type RouteConfig } from '@hono/zod-openapi';
import type { MiddlewareHandler } from 'hono';
import { createMiddleware } from 'hono/factory';
import type { AppEnv } from '../http/context.ts';
import { AppError } from '../http/errors.ts';
import { errorResponses } from '../http/openapi.ts';
import { TWO_FACTOR_SETUP_REQUIRED } from '#shared/schemas/auth';
import { apiKeyScopeOf } from './api-key-scopes.ts';
import { requireUserOrApiKey } from './api-key-auth.ts';
import { requireUser } from './require-user.ts';

const unauthorized = errorResponses({ 401: 'Not signed in, or the session expired' });
const forbidden = errorResponses({ 403: 'Signed in as staff: only an owner of the team may do this' });
// Short: they repeat on every operation a key may call (the scheme's description says more).
const keyRefused = errorResponses({ 403: 'API key without this scope', 429: 'API key over its rate limit' });

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
 * When the API key table (api-key-scopes.ts) gives the operation a scope, it is documented
 * with the `bearerApiKey` scheme and that scope as the other way in, and guarded by
 * requireUserOrApiKey with the same scope. `afterSignIn` runs once the session (or key) is
 * known, before the body is read (the lead import's larger body limit: nobody without a
 * session gets to send megabytes).
 */
export function createAdminRoute<const R extends Omit<RouteConfig, 'security' | 'middleware'>>(
  route: R,
  afterSignIn: MiddlewareHandler[] = [],
) {
  const scope = apiKeyScopeOf(route.method, route.path);
  const signIn: MiddlewareHandler<AppEnv> = scope ? requireUserOrApiKey(scope) : requireUser;
  // Typed as the route's own answers and 401: a handler never answers the key's 403 or 429 itself.
  const responses = { ...(scope ? keyRefused : {}), ...route.responses, ...unauthorized } as R['responses'] & typeof unauthorized;
  return createRoute({
    ...route,
    // Cast to one shape: createRoute infers the handler's input wrongly from a union here.
    security: (scope ? [{ sessionCookie: [] }, { bearerApiKey: [scope] }] : [{ sessionCookie: [] }]) as [{ sessionCookie: [] }],
    middleware: [signIn, requireTwoFactorIfAsked, ...afterSignIn] as const,
    responses,
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
