import { OpenAPIHono } from '@hono/zod-openapi';
import { createMiddleware } from 'hono/factory';
import { fieldErrors } from '#shared/schemas/error';
import { AppError } from './errors.ts';
import type { AppEnv } from './context.ts';

/** The 400 of a request whose fields are not valid: one message per field, as the forms show them. */
export const invalidFields = (fields: Record<string, string>) => new AppError('validation_failed', 'Some fields are not valid.', fields);

/** A sub-app whose request validation failures use our one error shape. */
export function createRouter() {
  return new OpenAPIHono<AppEnv>({
    defaultHook: (result) => {
      if (!result.success) {
        throw invalidFields(fieldErrors(result.error));
      }
    },
  });
}

/**
 * Puts the open database on the context as `c.get('db')` for every API request after it, or
 * answers 503 while the database is still opening (the server listens before it has opened).
 */
export const withDatabase = createMiddleware<AppEnv>(async (c, next) => {
  const database = c.get('deps').database();
  if (!database) throw new AppError('service_unavailable', 'The service is starting. Please try again shortly.');
  c.set('db', database.db);
  await next();
});
