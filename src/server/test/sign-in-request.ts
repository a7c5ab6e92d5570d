import pino from 'pino';
import type { SignInRequest } from '../auth/password-sign-in.ts';
import type { AttemptSource } from '../auth/strangers.ts';
import type { Db } from '../db/client.ts';

/**
 * For auth/'s own tests of a sign-in step: the request from `ip` (its browser holding the
 * session and remembered device `source` names, if any), acting as routes/auth-routes.ts's do; what it
 * logs is kept in `logged`.
 */
export function signInRequestFrom(db: Db, ip: string, source: Partial<AttemptSource> = {}) {
  const logged: { event?: string; delayMs?: number }[] = [];
  const logger = pino({ level: 'info' }, { write: (line: string) => void logged.push(JSON.parse(line) as (typeof logged)[number]) });
  const request: SignInRequest = {
    db,
    source: { ip, sessionToken: undefined, deviceToken: undefined, ...source },
    logger,
    requestId: 'request-1',
    actor: (user) => ({ id: user?.id ?? null, email: user?.email ?? null, ip, userAgent: 'test' }),
  };
  return { request, logged };
}
