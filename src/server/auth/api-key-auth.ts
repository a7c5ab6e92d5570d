import { createMiddleware } from 'hono/factory';
import type { ApiKeyScope } from '#shared/schemas/api-keys';
import { findApiKeyUse } from '../db/queries/api-keys-queries.ts';
import { hitRateLimit } from '../db/queries/rate-limits-queries.ts';
import type { AppEnv } from '../http/context.ts';
import { AppError, tooManyRequests } from '../http/errors.ts';
import { bearerKeyOf } from './bearer.ts';
import { requireUser } from './require-user.ts';

/** Wrong, revoked, or its maker deactivated or removed: one answer, with nothing about which. */
const INVALID_KEY = 'Invalid API key.';
export const keyLacksScope = (scope: ApiKeyScope) => `This API key does not have the ${scope} scope.`;

/**
 * For operations that take a session or an API key with `scope`: with a bearer, the key's
 * maker becomes the request's user (their writes, with the key's name in the audit log),
 * once the key is found, within its rate limit (per key, every process) and holds the scope.
 */
export function requireUserOrApiKey(scope: ApiKeyScope) {
  return createMiddleware<AppEnv>(async (c, next) => {
    const token = bearerKeyOf(c);
    if (token === undefined) return requireUser(c, next);
    const db = c.get('db');
    const use = token ? await findApiKeyUse(db, token, c.get('clientIp') ?? null) : undefined;
    if (!use) throw new AppError('unauthorized', INVALID_KEY, undefined, { 'WWW-Authenticate': 'Bearer' });
    const limit = c.get('deps').config.apiKeyRateLimit;
    if (limit > 0) {
      const hit = await hitRateLimit(db, `api-key:${use.key.id}`, limit, 60);
      if (!hit.allowed) throw tooManyRequests(hit.retryAfterSeconds, 'requests with this API key');
    }
    if (!use.key.scopes.includes(scope)) throw new AppError('forbidden', keyLacksScope(scope));
    c.set('user', use.user);
    c.set('apiKey', { id: use.key.id, name: use.key.name, scopes: use.key.scopes });
    await next();
  });
}
