import { sql, type SQL } from 'drizzle-orm';
import type { AuditAction, AuditTarget, FieldChange } from '#shared/schemas/audit';
import type { Db } from '../client.ts';
import { execute } from '../sql.ts';

/**
 * The audit log: who did what, when, from where. An entry is written in the same
 * transaction as the change it records (pass the transaction as `db`), so a change is never
 * recorded without happening or the reverse. The table is append-only (a trigger refuses
 * updates and deletes; see the migration 0016_team_accounts).
 */

/** Who acts, and from where. `id` is null for someone not signed in (a failed sign-in, a reset link). */
export type AuditActor = { id: string | null; email: string | null; ip: string | null; userAgent: string | null };

export type AuditEntry = {
  action: AuditAction;
  targetType?: AuditTarget;
  targetId?: string | null;
  /** What changed (`changes`: field → from/to), or what the act was about; kept small. */
  details?: Record<string, unknown>;
};

/** The INSERT of one entry, to run alone or inside a larger statement's transaction. */
export function auditInsert(actor: AuditActor, entry: AuditEntry): SQL {
  return sql`insert into audit_log (actor_id, actor_email, action, target_type, target_id, details, ip, user_agent)
    values (${actor.id}, ${actor.email}, ${entry.action}, ${entry.targetType ?? null}, ${entry.targetId ?? null},
      ${JSON.stringify(entry.details ?? {})}::jsonb, ${actor.ip}, ${actor.userAgent})`;
}

/** Records one entry (inside the caller's transaction when `db` is one). */
export async function recordAudit(db: Db, actor: AuditActor, entry: AuditEntry): Promise<void> {
  await execute(db, auditInsert(actor, entry));
}

/**
 * The fields whose values differ between `before` and `after`, as { field: { from, to } },
 * over `fields` (the ones a person can change). Values compare as JSON (arrays, dates as strings).
 */
export function changedFields<T extends Record<string, unknown>>(before: T, after: Partial<T>, fields: readonly (keyof T & string)[]): Record<string, FieldChange> {
  const changes: Record<string, FieldChange> = {};
  for (const field of fields) {
    if (!(field in after)) continue;
    const from = before[field] ?? null;
    const to = after[field] ?? null;
    if (JSON.stringify(from) !== JSON.stringify(to)) changes[field] = { from, to };
  }
  return changes;
}
