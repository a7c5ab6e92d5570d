import { sql, type SQL } from 'drizzle-orm';
import * as z from 'zod';
import type { Db } from '../client.ts';
import { execute, queryRows, transaction } from '../sql.ts';
import { auditInsert, type AuditActor } from './audit-log-queries.ts';
import { hashToken, newSecretToken } from '../../lib/secret-token.ts';

/** Two-factor state: the TOTP secret, recovery codes, sign-in challenges, remembered devices, and the team's rule. */

export const CHALLENGE_MINUTES = 5;
export const TRUSTED_DEVICE_DAYS = 30;

const stateRow = z.object({
  secret: z.string().nullable(),
  pending: z.string().nullable(),
  last_step: z.number().nullable(),
  enabled: z.boolean(),
  recovery_codes_left: z.number().int(),
  has_calendar_feed: z.boolean(),
});
export type TwoFactorState = z.infer<typeof stateRow>;

export async function twoFactorState(db: Db, userId: string): Promise<TwoFactorState | undefined> {
  const [row] = await queryRows(
    db,
    sql`select totp_secret as secret, totp_pending_secret as pending, totp_last_step::float8 as last_step, totp_enabled_at is not null as enabled,
          (select count(*)::int from recovery_codes r where r.user_id = u.id and r.used_at is null) as recovery_codes_left,
          exists (select 1 from calendar_feeds f where f.user_id = u.id) as has_calendar_feed
        from users u where id = ${userId}`,
    stateRow,
  );
  return row;
}

export async function setPendingSecret(db: Db, userId: string, secret: string): Promise<void> {
  await execute(db, sql`update users set totp_pending_secret = ${secret} where id = ${userId}`);
}

async function replaceRecoveryCodes(t: Db, userId: string, hashes: string[]): Promise<void> {
  await execute(t, sql`delete from recovery_codes where user_id = ${userId}`);
  for (const hash of hashes) await execute(t, sql`insert into recovery_codes (user_id, code_hash) values (${userId}, ${hash})`);
}

/** Turns two-factor on with the pending secret (the code's step is the last used); false if the pending secret changed meanwhile. */
export async function enableTwoFactor(
  db: Db,
  userId: string,
  secret: string,
  step: number,
  codeHashes: string[],
  actor: AuditActor,
): Promise<boolean> {
  return transaction(db, async (t) => {
    const rows = await queryRows(
      t,
      sql`update users set totp_secret = totp_pending_secret, totp_pending_secret = null, totp_enabled_at = crm_now(), totp_last_step = ${step}
          where id = ${userId} and totp_pending_secret = ${secret} returning id`,
      z.object({ id: z.uuid() }),
    );
    if (rows.length === 0) return false;
    await replaceRecoveryCodes(t, userId, codeHashes);
    await execute(t, auditInsert(actor, { action: 'two_factor_enabled', targetType: 'account', targetId: userId }));
    return true;
  });
}

export async function disableTwoFactor(db: Db, userId: string, actor: AuditActor): Promise<void> {
  await transaction(db, async (t) => {
    await execute(
      t,
      sql`update users set totp_secret = null, totp_pending_secret = null, totp_enabled_at = null, totp_last_step = null where id = ${userId}`,
    );
    await execute(t, sql`delete from recovery_codes where user_id = ${userId}`);
    await execute(t, sql`delete from trusted_devices where user_id = ${userId}`);
    await execute(t, auditInsert(actor, { action: 'two_factor_disabled', targetType: 'account', targetId: userId }));
  });
}

export async function regenerateRecoveryCodes(db: Db, userId: string, codeHashes: string[], actor: AuditActor): Promise<void> {
  await transaction(db, async (t) => {
    await replaceRecoveryCodes(t, userId, codeHashes);
    await execute(t, auditInsert(actor, { action: 'recovery_codes_regenerated', targetType: 'account', targetId: userId }));
  });
}

/** Records `step` as used, unless a later or equal one was (two requests with one code: one wins). */
export async function claimTotpStep(db: Db, userId: string, step: number): Promise<boolean> {
  const rows = await queryRows(
    db,
    sql`update users set totp_last_step = ${step} where id = ${userId} and (totp_last_step is null or totp_last_step < ${step}) returning id`,
    z.object({ id: z.uuid() }),
  );
  return rows.length > 0;
}

/** Uses up a recovery code; false when it is not one of the account's unused codes. */
export async function useRecoveryCode(db: Db, userId: string, codeHash: string): Promise<boolean> {
  const rows = await queryRows(
    db,
    sql`update recovery_codes set used_at = crm_now() where user_id = ${userId} and code_hash = ${codeHash} and used_at is null returning id`,
    z.object({ id: z.uuid() }),
  );
  return rows.length > 0;
}

/**
 * A sign-in halfway: the password was right, the code is still to come. Its token (for a
 * cookie). It replaces only the challenge the account had from the same `source` (the
 * address's rate-limit key): a stranger who knows the password, signing in again and again
 * from elsewhere, cannot end the owner's sign-in. Rows stay bounded: one per account and
 * address, gone 5 minutes later.
 */
export async function createChallenge(db: Db, userId: string, source: string): Promise<string> {
  const token = newSecretToken();
  await execute(db, sql`delete from sign_in_challenges where (user_id = ${userId} and source = ${source}) or expires_at <= crm_now()`);
  await execute(
    db,
    sql`
    insert into sign_in_challenges (token_hash, user_id, source, expires_at)
    values (${hashToken(token)}, ${userId}, ${source}, crm_now() + make_interval(mins => ${CHALLENGE_MINUTES}))`,
  );
  return token;
}

const challengeRow = z.object({
  user_id: z.uuid(),
  email: z.string(),
  display_name: z.string(),
  phone: z.string().nullable(),
  role: z.enum(['owner', 'staff']),
  secret: z.string().nullable(),
  last_step: z.number().nullable(),
});

export async function findChallenge(db: Db, token: string): Promise<z.infer<typeof challengeRow> | undefined> {
  const [row] = await queryRows(
    db,
    sql`select u.id as user_id, u.email, u.display_name, u.phone, u.role, u.totp_secret as secret, u.totp_last_step::float8 as last_step
        from sign_in_challenges c join users u on u.id = c.user_id
        where c.token_hash = ${hashToken(token)} and c.expires_at > crm_now() and u.deactivated_at is null`,
    challengeRow,
  );
  return row;
}

export async function deleteChallenge(db: Db, token: string): Promise<void> {
  await execute(db, sql`delete from sign_in_challenges where token_hash = ${hashToken(token)}`);
}

export async function rememberDevice(db: Db, userId: string, userAgent: string | undefined): Promise<string> {
  const token = newSecretToken();
  await execute(
    db,
    sql`
    insert into trusted_devices (token_hash, user_id, user_agent, expires_at)
    values (${hashToken(token)}, ${userId}, ${userAgent?.slice(0, 512) ?? null}, crm_now() + make_interval(days => ${TRUSTED_DEVICE_DAYS}))`,
  );
  return token;
}

export async function isTrustedDevice(db: Db, userId: string, token: string): Promise<boolean> {
  const rows = await queryRows(
    db,
    sql`select 1 as ok from trusted_devices where token_hash = ${hashToken(token)} and user_id = ${userId} and expires_at > crm_now()`,
    z.object({ ok: z.number() }),
  );
  return rows.length > 0;
}

/**
 * Whether the account `users` row `u` stands for is held back by the team's rule: two-factor is
 * required and it has not set it up. Its sessions then reach only its account page, and its
 * calendar feed answers 403 (docs/security.md, "Team owners, password changes and the two-factor rule").
 */
export const lacksRequiredTwoFactor = (u: SQL) =>
  sql`(${u}.totp_enabled_at is null and coalesce((select t.require_two_factor from team_settings t where t.id = 1), false))`;

export async function requiresTwoFactor(db: Db): Promise<boolean> {
  const [row] = await queryRows(
    db,
    sql`select coalesce((select require_two_factor from team_settings where id = 1), false) as required`,
    z.object({ required: z.boolean() }),
  );
  return row!.required;
}

export async function setRequireTwoFactor(db: Db, required: boolean, actor: AuditActor): Promise<void> {
  await transaction(db, async (t) => {
    const [before] = await queryRows(
      t,
      sql`select require_two_factor from team_settings where id = 1`,
      z.object({ require_two_factor: z.boolean() }),
    );
    await execute(
      t,
      sql`
      insert into team_settings (id, require_two_factor, updated_at, updated_by) values (1, ${required}, crm_now(), ${actor.id})
      on conflict (id) do update set require_two_factor = excluded.require_two_factor, updated_at = crm_now(), updated_by = excluded.updated_by`,
    );
    if ((before?.require_two_factor ?? false) !== required) {
      await execute(
        t,
        auditInsert(actor, {
          action: 'settings_changed',
          targetType: 'settings',
          targetId: 'security',
          details: { changes: { require_two_factor: { from: before?.require_two_factor ?? false, to: required } } },
        }),
      );
    }
  });
}
