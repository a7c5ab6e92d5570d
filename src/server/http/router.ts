import { OpenAPIHono } from '@hono/zod-openapi';
import { fieldErrors } from '#shared/schemas/error';
import { AppError } from './errors.ts';
import type { AppEnv } from './context.ts';

/** A sub-app whose request validation failures use our one error shape. */
export function createRouter() {
  return new OpenAPIHono<AppEnv>({
    defaultHook: (result) => {
      if (!result.success) {
        throw new AppError('validation_failed', 'Some fields are not valid.', fieldErrors(result.error));
      }
    },
  });
}

/** Where a handler needs the database: 503 while it is still opening. */
export function requireDb(c: { get: (k: 'deps') => AppEnv['Variables']['deps'] }) {
  const database = c.get('deps').database();
  if (!database) throw new AppError('service_unavailable', 'The service is starting. Please try again shortly.');
  return database.db;
}
