import { createRoute, type RouteConfig } from '@hono/zod-openapi';
import type * as z from 'zod';
import { errorResponseSchema } from '#shared/schemas/error';

/**
 * How every route declares its responses, so the OpenAPI document and the handlers' types
 * come from one place: `jsonContent(schema, 'what it is')` for a JSON answer,
 * `mediaContent('text/csv', 'what it is')` for anything else, and `errorResponses({ 404: 'No such
 * lead' })` for the error envelope under the statuses the route can answer with. A shared schema
 * named with `.meta({ id })` (the error envelope is `ErrorResponse`) appears once in the document,
 * under components.schemas, and as a `$ref` wherever it is used (docs/conventions.md, "The contract").
 */

export const jsonContent = <T extends z.ZodType>(schema: T, description: string) => ({
  description,
  content: { 'application/json': { schema } },
});

/** A non-JSON body (CSV, iCalendar, an event stream), documented as a string. */
export const mediaContent = <M extends string>(mediaType: M, description: string, schema: z.ZodType) => ({
  description,
  content: { [mediaType]: { schema } } as Record<M, { schema: z.ZodType }>,
});

type ErrorStatus = 400 | 401 | 403 | 404 | 409 | 413 | 422 | 429 | 503;
type ErrorContent = ReturnType<typeof jsonContent<typeof errorResponseSchema>>;

/** The error envelope under each status given, with what that status means for this route. */
export function errorResponses<const T extends Partial<Record<ErrorStatus, string>>>(descriptions: T): { [K in keyof T]: ErrorContent } {
  const out: Record<string, ErrorContent> = {};
  for (const [status, description] of Object.entries(descriptions)) out[status] = jsonContent(errorResponseSchema, description as string);
  return out as { [K in keyof T]: ErrorContent };
}

/**
 * An operation anyone may call: documented with `security: []`, which the OpenAPI access walk
 * reads as public. Operations that need a session use createAdminRoute (auth/admin-route.ts).
 */
export function createPublicRoute<const R extends Omit<RouteConfig, 'security'>>(route: R) {
  return createRoute({ ...route, security: [] });
}
