import { createRoute, type RouteConfig } from '@hono/zod-openapi';
import { errorResponses } from '../http/openapi.ts';
import { requireUser } from './require-user.ts';

const unauthorized = errorResponses({ 401: 'Not signed in, or the session expired' });

/**
 * An admin operation: documented as needing the session cookie and guarded by requireUser,
 * in one place, so a route cannot be documented as protected and left open (or the reverse).
 */
export function createAdminRoute<const R extends Omit<RouteConfig, 'security' | 'middleware'>>(route: R) {
  return createRoute({
    ...route,
    security: [{ sessionCookie: [] }],
    middleware: [requireUser] as const,
    responses: { ...route.responses, ...unauthorized },
  });
}
