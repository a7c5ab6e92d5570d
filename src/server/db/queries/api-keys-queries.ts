import { sql } from 'drizzle-orm';
import * as z from 'zod';
import { apiKeySchema, type ApiKey, type ApiKeyScope, type CreateApiKeyRequest, type CreatedApiKey } from '#shared/schemas/api-keys';
import { currentUserSchema, type CurrentUser } from '#shared/schemas/auth';
import type { Db } from '../client.ts';
import { execute, isoTimestamp, pgArray, queryRows, transaction } from '../sql.ts';
import { auditInsert, type AuditActor } from './audit-log-queries.ts';
import { lacksRequiredTwoFactor } from './two-factor-queries.ts';
import { hashToken, newSecretToken } from '../../lib/secret-token.ts';

/**
 * API keys: `crm_` and a 256-bit secret token. The database keeps its SHA-256 (a leaked table
 * opens nothing) and its first characters, shown in the list so a person can tell keys apart.
 */
const KEY_PREFIX = 'crm_';
const SHOWN_CHARACTERS = KEY_PREFIX.length + 8;

const keyColumns = sql`k.id, k.name, k.scopes, k.prefix,
  jsonb_build_object('id', u.id, 'name', u.display_name) as created_by,
  ${isoTimestamp(sql`k.created_at`)} as created_at, ${isoTimestamp(sql`k.last_used_at`)} as last_used_at, k.last_used_ip`;

/** Every key of the team, newest first (owners manage them all, whoever made them). */
export async function listApiKeys(db: Db): Promise<ApiKey[]> {
  return queryRows(
    db,
    sql`select ${keyColumns} from api_keys k join users u on u.id = k.user_id order by k.created_at desc, k.id`,
    apiKeySchema,
  );
}

/** Makes a key for `actor` (its maker: the key acts as them) and returns it, with the key itself, this once. */
export async function createApiKey(db: Db, actor: AuditActor & { id: string }, request: CreateApiKeyRequest): Promise<CreatedApiKey> {
  const key = KEY_PREFIX + newSecretToken();
  return transaction(db, async (t) => {
    const [created] = await queryRows(
      t,
      sql`with k as (
        insert into api_keys (name, key_hash, prefix, scopes, user_id)
        values (${request.name}, ${hashToken(key)}, ${key.slice(0, SHOWN_CHARACTERS)}, ${pgArray(request.scopes)}::text[], ${actor.id})
        returning *)
      select ${keyColumns} from k join users u on u.id = k.user_id`,
      apiKeySchema,
    );
    await execute(
      t,
      auditInsert(actor, {
        action: 'api_key_created',
        targetType: 'api_key',
        targetId: created!.id,
        details: { name: created!.name, scopes: created!.scopes },
      }),
    );
    return { ...created!, key };
  });
}

/** Revokes (deletes) a key; false when there is no such key. */
export async function deleteApiKey(db: Db, actor: AuditActor, id: string): Promise<boolean> {
  return transaction(db, async (t) => {
    const rows = await queryRows(t, sql`delete from api_keys where id = ${id} returning name`, z.object({ name: z.string() }));
    if (rows.length === 0) return false;
    await execute(
      t,
      auditInsert(actor, { action: 'api_key_revoked', targetType: 'api_key', targetId: id, details: { name: rows[0]!.name } }),
    );
    return true;
  });
}

/**
 * Revokes every key `userId` made, inside the caller's transaction, with an audit entry each
 * saying why. A maker's deactivation, removal or demotion ends their keys for good: a
 * reactivation or a promotion brings none back. Staff make no keys (the keys are owners'), so a
 * demotion ends them all. How many were revoked.
 */
export async function revokeKeysOf(
  db: Db,
  actor: AuditActor,
  userId: string,
  reason: 'deactivated' | 'removed' | 'demoted' | 'revoked_by_maker',
): Promise<number> {
  const revoked = await queryRows(
    db,
    sql`delete from api_keys where user_id = ${userId} returning id, name`,
    z.object({ id: z.uuid(), name: z.string() }),
  );
  for (const key of revoked)
    await execute(
      db,
      auditInsert(actor, { action: 'api_key_revoked', targetType: 'api_key', targetId: key.id, details: { name: key.name, reason } }),
    );
  return revoked.length;
}

/** A key its maker still has: named in the security mail and on the page after a password change. */
export type ActiveKey = { id: string; name: string; prefix: string };

/** The keys `userId` made that still work, oldest first. */
export function activeKeysOf(db: Db, userId: string): Promise<ActiveKey[]> {
  return queryRows(
    db,
    sql`select id, name, prefix from api_keys where user_id = ${userId} order by created_at, id`,
    z.object({ id: z.uuid(), name: z.string(), prefix: z.string() }),
  );
}

export type ApiKeyUse = { user: CurrentUser; key: { id: string; name: string; scopes: ApiKeyScope[] } };

/**
 * The key `token` names and its maker, if the key exists and its maker is active. Notes the
 * time and address of its use at most once a minute per key, to keep requests cheap.
 */
export async function findApiKeyUse(db: Db, token: string, ip: string | null): Promise<ApiKeyUse | undefined> {
  const rows = await queryRows(
    db,
    sql`
    select u.id, u.email, u.display_name, u.phone, u.role,
      ${lacksRequiredTwoFactor(sql`u`)} as must_set_up_two_factor,
      k.id as key_id, k.name as key_name, k.scopes,
      (k.last_used_at is null or k.last_used_at < crm_now() - interval '1 minute') as stale
    from api_keys k join users u on u.id = k.user_id
    where k.key_hash = ${hashToken(token)} and u.deactivated_at is null`,
    currentUserSchema.extend({
      key_id: z.uuid(),
      key_name: z.string(),
      scopes: z.array(z.string()),
      stale: z.boolean(),
    }),
  );
  const row = rows[0];
  if (!row) return undefined;
  if (row.stale)
    await execute(
      db,
      sql`update api_keys set last_used_at = crm_now(), last_used_ip = ${ip}
        where id = ${row.key_id} and (last_used_at is null or last_used_at < crm_now() - interval '1 minute')`,
    );
  return {
    user: {
      id: row.id,
      email: row.email,
      display_name: row.display_name,
      phone: row.phone,
      role: row.role,
      ...(row.must_set_up_two_factor ? { must_set_up_two_factor: true } : {}),
    },
    key: { id: row.key_id, name: row.key_name, scopes: row.scopes as ApiKeyScope[] },
  };
}
