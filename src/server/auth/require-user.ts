import { createMiddleware } from 'hono/factory';
import { findSessionUser } from '../db/queries/sessions-queries.ts';
import type { AppEnv } from '../http/context.ts';
import { AppError } from '../http/errors.ts';
import { bearerKeyOf } from './bearer.ts';
import { readSessionToken } from './session-cookie.ts';

export const KEY_NOT_ACCEPTED = 'This operation does not accept API keys. Sign in to the site instead.';

/**
 * Every admin endpoint sits behind this: no valid session, 401 and no data. A request with an
 * API key is refused here whatever its cookie: the operations a key may call check it first
 * (auth/api-key-auth.ts), so reaching here with one means this operation takes no key.
 */
export const requireUser = createMiddleware<AppEnv>(async (c, next) => {
  if (bearerKeyOf(c) !== undefined) throw new AppError('unauthorized', KEY_NOT_ACCEPTED, undefined, { 'WWW-Authenticate': 'Bearer' });
  const token = readSessionToken(c);
  const user = token ? await findSessionUser(c.get('db'), token) : undefined;
  if (!user) throw new AppError('unauthorized', 'Please sign in.');
  c.set('user', user);
  await next();
});
