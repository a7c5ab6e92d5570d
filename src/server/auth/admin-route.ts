import { createRoute, type RouteConfig } from '@hono/zod-openapi';
import { errorResponseSchema } from '#shared/schemas/error';
import { requireUser } from './require-user.ts';

const unauthorized = {
  401: { description: 'Not signed in, or the session expired', content: { 'application/json': { schema: errorResponseSchema } } },
};

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
