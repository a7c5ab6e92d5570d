import { createRoute, type RouteConfig } from '@hono/zod-openapi';
import type { MiddlewareHandler } from 'hono';
import { errorResponses } from '../http/openapi.ts';
import { requireUser } from './require-user.ts';

const unauthorized = errorResponses({ 401: 'Not signed in, or the session expired' });

/**
 * An admin operation: documented as needing the session cookie and guarded by requireUser,
 * in one place, so a route cannot be documented as protected and left open (or the reverse).
 * `afterSignIn` runs once the session is known, before the body is read (the lead import's
 * larger body limit: nobody without a session gets to send megabytes).
 */
export function createAdminRoute<const R extends Omit<RouteConfig, 'security' | 'middleware'>>(route: R, afterSignIn: MiddlewareHandler[] = []) {
  return createRoute({
    ...route,
    security: [{ sessionCookie: [] }],
    middleware: [requireUser, ...afterSignIn] as const,
    responses: { ...route.responses, ...unauthorized },
  });
}
