import { sql, type SQL } from 'drizzle-orm';
import {
  auditEntrySchema,
  type AuditAction,
  type AuditEntryView,
  type AuditQuery,
  type AuditTarget,
  type FieldChange,
} from '#shared/schemas/audit';
import type { Db } from '../client.ts';
import { execute, isoTimestamp, queryRows, transaction } from '../sql.ts';

/**
 * The audit log: who did what, when, from where. An entry is written in the same
 * transaction as the change it records (pass the transaction as `db`), so a change is never
 * recorded without happening or the reverse. The table is append-only (a trigger refuses
 * updates and deletes; see the migration 0016_team_accounts).
 */

/** Who acts, and from where. `id` is null for someone not signed in (a failed sign-in, a reset link). */
export type AuditActor = {
  id: string | null;
  email: string | null;
  ip: string | null;
  userAgent: string | null;
  /** The API key's name when the person acts through one (their key, their act). */
  apiKeyName?: string | null;
};

export type AuditEntry = {
  action: AuditAction;
  targetType?: AuditTarget;
  targetId?: string | null;
  /** What changed (`changes`: field → from/to), or what the act was about; kept small. */
  details?: Record<string, unknown>;
};

/**
 * The INSERT of one entry, to run alone or inside a larger statement's transaction. The actor's
 * name then is kept beside their email (read from their account), so the entry still says who
 * once the account is removed.
 */
export function auditInsert(actor: AuditActor, entry: AuditEntry): SQL {
  return sql`insert into audit_log (actor_id, actor_email, actor_name, action, target_type, target_id, details, ip, user_agent, api_key_name)
    values (${actor.id}, ${actor.email}, (select u.display_name from users u where u.id = ${actor.id}::uuid), ${entry.action},
      ${entry.targetType ?? null}, ${entry.targetId ?? null}, ${JSON.stringify(entry.details ?? {})}::jsonb, ${actor.ip}, ${actor.userAgent},
      ${actor.apiKeyName ?? null})`;
}

/** Records one entry (inside the caller's transaction when `db` is one). */
export async function recordAudit(db: Db, actor: AuditActor, entry: AuditEntry): Promise<void> {
  await execute(db, auditInsert(actor, entry));
}

/**
 * The fields whose values differ between `before` and `after`, as { field: { from, to } },
 * over `fields` (the ones a person can change). Values compare as JSON (arrays, dates as strings).
 */
export function changedFields<T extends Record<string, unknown>>(
  before: T,
  after: Partial<T>,
  fields: readonly (keyof T & string)[],
): Record<string, FieldChange> {
  const changes: Record<string, FieldChange> = {};
  for (const field of fields) {
    if (!(field in after)) continue;
    const from = before[field] ?? null;
    const to = after[field] ?? null;
    if (JSON.stringify(from) !== JSON.stringify(to)) changes[field] = { from, to };
  }
  return changes;
}

/** Deletes the entries older than `days` (the retention job), through the log's maintenance switch. How many went. */
export async function deleteExpiredAuditEntries(db: Db, days: number): Promise<number> {
  return transaction(db, async (t) => {
    await execute(t, sql`select set_config('crm.audit_maintenance', 'on', true)`);
    return execute(t, sql`delete from audit_log where at < crm_now() - make_interval(days => ${days})`);
  });
}

function auditWhere(filter: Omit<AuditQuery, 'limit' | 'cursor'>, timeZone: string): SQL {
  const conditions: SQL[] = [sql`true`];
  if (filter.actor === 'system') conditions.push(sql`a.actor_id is null and a.actor_email is null`);
  else if (filter.actor) conditions.push(sql`a.actor_id = ${filter.actor}::uuid`);
  if (filter.action) conditions.push(sql`a.action = ${filter.action}`);
  if (filter.from) conditions.push(sql`a.at >= (${filter.from}::date)::timestamp at time zone ${timeZone}`);
  if (filter.to) conditions.push(sql`a.at < (${filter.to}::date + 1)::timestamp at time zone ${timeZone}`);
  return sql.join(conditions, sql` and `);
}

const entryColumns = sql`a.id::text as id, ${isoTimestamp(sql`a.at`)} as at, a.actor_id::text as actor_id, a.actor_email,
  coalesce((select u.display_name from users u where u.id = a.actor_id), a.actor_name) as actor_name, a.action, a.target_type, a.target_id,
  case a.target_type
    when 'lead' then exists (select 1 from leads l where l.id::text = a.target_id)
    when 'appointment' then exists (select 1 from appointments p where p.id::text = a.target_id)
    else false end as target_exists,
  a.details, a.ip, a.user_agent, a.api_key_name`;

/** One page of entries, newest first, after `cursor` (keyset: the id, which grows with time). */
export async function listAuditEntries(
  db: Db,
  query: AuditQuery,
  timeZone: string,
): Promise<{ entries: AuditEntryView[]; next_cursor: string | null }> {
  const rows = await queryRows(
    db,
    sql`select ${entryColumns} from audit_log a
        where ${auditWhere(query, timeZone)} ${query.cursor ? sql`and a.id < ${query.cursor}::bigint` : sql``}
        order by a.id desc limit ${query.limit + 1}`,
    auditEntrySchema,
  );
  const more = rows.length > query.limit;
  const entries = more ? rows.slice(0, query.limit) : rows;
  return { entries, next_cursor: more ? entries.at(-1)!.id : null };
}

/** Every entry the filters match, newest first, in batches (the CSV export). */
export async function* iterateAuditEntries(
  db: Db,
  filter: Omit<AuditQuery, 'limit' | 'cursor'>,
  timeZone: string,
): AsyncGenerator<AuditEntryView[]> {
  let cursor: string | undefined;
  for (;;) {
    const page = await listAuditEntries(db, { ...filter, limit: 200, ...(cursor ? { cursor } : {}) }, timeZone);
    if (page.entries.length > 0) yield page.entries;
    if (!page.next_cursor) return;
    cursor = page.next_cursor;
  }
}

/** An erased person's values are taken out of the entries about them (the entries stay: who did what, when). */
export const ERASED = '[erased]';

/**
 * Inside the erasing transaction: every value the log kept about leads `ids` (their names, their
 * fields' old and new values), about the leads merged into them before (the same person's
 * duplicates, whose own entries named them), and about their appointments (notes), becomes
 * ERASED, through the log's maintenance switch (on for this transaction only). An entry about
 * a lead then reads "[erased]" where it named them.
 */
export async function redactLeadsInAudit(t: Db, ids: string[]): Promise<number> {
  if (ids.length === 0) return 0;
  await execute(t, sql`select set_config('crm.audit_maintenance', 'on', true)`);
  const list = sql`array[${sql.join(
    ids.map((id) => sql`${id}`),
    sql`, `,
  )}]::text[]`;
  const changed = await execute(
    t,
    sql`with recursive person(id) as (
          select unnest(${list})
          union
          -- A duplicate merged into one of them (and, before that, into the duplicate), by the merge's entry.
          select a.details->>'merged' from audit_log a join person p on a.target_id = p.id
          where a.target_type = 'lead' and a.action = 'leads_merged' and a.details ? 'merged'
        )
        update audit_log set details = jsonb_build_object('erased', true)
          || case when target_type = 'lead' then jsonb_build_object('name', ${ERASED}::text) else '{}'::jsonb end
          || case when details ? 'changes' then jsonb_build_object('changes',
               (select coalesce(jsonb_object_agg(k, jsonb_build_object('from', ${ERASED}::text, 'to', ${ERASED}::text)), '{}'::jsonb)
                from jsonb_object_keys(details->'changes') k)) else '{}'::jsonb end
        where (target_type = 'lead' and target_id in (select id from person))
          or (target_type = 'appointment' and details->>'lead_id' in (select id from person))`,
  );
  await execute(t, sql`select set_config('crm.audit_maintenance', 'off', true)`);
  return changed;
}
