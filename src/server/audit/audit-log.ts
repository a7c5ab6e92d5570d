import type { Context } from 'hono';
import type { AuditActor } from '../db/queries/audit-log-queries.ts';
import type { AppEnv } from '../http/context.ts';

/** Who acts in a request, or outside one; writing entries is db/queries/audit-log-queries.ts's. */
export { auditInsert, changedFields, recordAudit, type AuditActor, type AuditEntry } from '../db/queries/audit-log-queries.ts';

/** The request's actor: its signed-in admin, if any (and the API key they act through), its client IP and user agent. */
export function actorOf(c: Context<AppEnv>, user: { id: string; email: string } | undefined = c.get('user')): AuditActor {
  return {
    id: user?.id ?? null,
    email: user?.email ?? null,
    ip: c.get('clientIp') ?? null,
    userAgent: c.req.header('user-agent')?.slice(0, 512) ?? null,
    apiKeyName: c.get('apiKey')?.name ?? null,
  };
}

/** The actor of a command-line tool or the server itself (`npm run admin`, a scheduled job). */
export const systemActor = (what: string): AuditActor => ({ id: null, email: null, ip: null, userAgent: what });
