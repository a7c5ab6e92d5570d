import { createMiddleware } from 'hono/factory';
import { findSessionUser } from '../db/queries/sessions.ts';
import type { AppEnv } from '../http/context.ts';
import { AppError } from '../http/errors.ts';
import { readSessionToken } from './session-cookie.ts';

/** Every admin endpoint sits behind this: no valid session, 401 and no data. */
export const requireUser = createMiddleware<AppEnv>(async (c, next) => {
  const token = readSessionToken(c);
  const user = token ? await findSessionUser(c.get('db'), token) : undefined;
  if (!user) throw new AppError('unauthorized', 'Please sign in.');
  c.set('user', user);
  await next();
});
