import { sql } from 'drizzle-orm';
import * as z from 'zod';
import { accountSessionSchema, type AccountSession } from '#shared/schemas/account';
import type { Db } from '../client.ts';
import { execute, isoTimestamp, queryRows, transaction } from '../sql.ts';
import { auditInsert, type AuditActor } from './audit-log-queries.ts';
import { activeKeysOf, type ActiveKey } from './api-keys-queries.ts';
import { newEmail, type QueueMail } from './emails-queries.ts';

/** One's own account: email, password, sessions, and the password reset by email. */

export const RESET_MINUTES = 30;
/**
 * Reset links one account may be sent in any 60 minutes, whatever the addresses asking:
 * the per-address limits alone let N addresses send 3N mails. Counted from the links made
 * (account_tokens keeps them), so it is a sliding hour, exact across processes.
 */
export const MAX_RESETS_PER_ACCOUNT_PER_HOUR = 3;

/** The account's sessions, newest activity first; `currentHash` marks the asking browser's. */
export function listSessions(db: Db, userId: string, currentHash: string | undefined): Promise<AccountSession[]> {
  return queryRows(
    db,
    sql`select id, ip, user_agent, ${isoTimestamp(sql`created_at`)} as created_at, ${isoTimestamp(sql`last_seen_at`)} as last_seen_at,
          token_hash = ${currentHash ?? ''} as current
        from sessions where user_id = ${userId} and expires_at > crm_now()
        order by token_hash = ${currentHash ?? ''} desc, last_seen_at desc`,
    accountSessionSchema,
  );
}

/** Ends one session of the account; its key (to close its streams), or undefined if it has no such session. */
export async function endSession(db: Db, userId: string, sessionId: string, actor: AuditActor): Promise<string | undefined> {
  return transaction(db, async (t) => {
    const [row] = await queryRows(
      t,
      sql`delete from sessions where id = ${sessionId} and user_id = ${userId} returning token_hash, ip, user_agent`,
      z.object({ token_hash: z.string(), ip: z.string().nullable(), user_agent: z.string().nullable() }),
    );
    if (!row) return undefined;
    await execute(
      t,
      auditInsert(actor, {
        action: 'session_ended',
        targetType: 'account',
        targetId: userId,
        details: { ip: row.ip, user_agent: row.user_agent },
      }),
    );
    return row.token_hash;
  });
}

export async function passwordHashOf(db: Db, userId: string): Promise<string | undefined> {
  const [row] = await queryRows(db, sql`select password_hash from users where id = ${userId}`, z.object({ password_hash: z.string() }));
  return row?.password_hash;
}

/** Changes the account's email; false when another account has it. */
export async function changeEmail(db: Db, userId: string, email: string, actor: AuditActor): Promise<boolean> {
  return transaction(db, async (t) => {
    const [before] = await queryRows(t, sql`select email from users where id = ${userId} for update`, z.object({ email: z.string() }));
    if (!before) return false;
    if (before.email === email) return true;
    const rows = await queryRows(
      t,
      sql`update users set email = ${email} where id = ${userId} and not exists (select 1 from users where email = ${email}) returning id`,
      z.object({ id: z.uuid() }),
    );
    if (rows.length === 0) return false;
    await execute(
      t,
      auditInsert(actor, {
        action: 'email_changed',
        targetType: 'account',
        targetId: userId,
        details: { changes: { email: { from: before.email, to: email } } },
      }),
    );
    return true;
  });
}

/**
 * In the caller's transaction, ends what a password opened: the account's sessions (all, or all
 * but `keepTokenHash`, the browser making the change), its calendar feed URL and the devices
 * remembered for two-factor. The ended sessions' keys, so the caller closes their live streams.
 */
async function endWhatThePasswordOpened(t: Db, userId: string, keepTokenHash?: string): Promise<string[]> {
  const ended = await queryRows(
    t,
    sql`delete from sessions where user_id = ${userId} and token_hash is distinct from ${keepTokenHash ?? null} returning token_hash`,
    z.object({ token_hash: z.string() }),
  );
  await execute(t, sql`delete from calendar_feeds where user_id = ${userId}`);
  await execute(t, sql`delete from trusted_devices where user_id = ${userId}`);
  return ended.map((r) => r.token_hash);
}

/**
 * Tells `userId` their password was changed (`how`), by email, in the change's transaction: a
 * change they did not make is a stolen account, and the API keys they made still work after it,
 * so the mail names each with the way to revoke them all (Settings → Integrations). The keys, as
 * the page shows them.
 */
export async function tellOfPasswordChange(
  db: Db,
  userId: string,
  how: 'account' | 'reset_link' | 'admin_command',
  mail: QueueMail,
): Promise<ActiveKey[]> {
  const keys = await activeKeysOf(db, userId);
  await execute(
    db,
    sql`insert into emails (message_id, status, last_error, kind, to_address, data)
        select ${newEmail(mail)}, 'password-changed', u.email,
          jsonb_build_object('how', ${how}::text, 'keys', ${JSON.stringify(keys.map(({ name, prefix }) => ({ name, prefix })))}::jsonb)
        from users u where u.id = ${userId}`,
  );
  return keys;
}

/** What a password change ended (the sessions' keys), and the API keys it did not (tellOfPasswordChange). */
export type PasswordChanged = { ended: string[]; keys: ActiveKey[] };

/**
 * Sets a new password from the account page and, in the same transaction, ends what the old one
 * opened (as a reset does), but the session making the change, and emails the person that it
 * changed, naming the API keys that still work.
 */
export async function changePassword(
  db: Db,
  userId: string,
  passwordHash: string,
  actor: AuditActor,
  keepTokenHash: string | undefined,
  mail: QueueMail,
): Promise<PasswordChanged> {
  return transaction(db, async (t) => {
    await execute(t, sql`update users set password_hash = ${passwordHash}, password_changed_at = crm_now() where id = ${userId}`);
    const ended = await endWhatThePasswordOpened(t, userId, keepTokenHash);
    await execute(t, auditInsert(actor, { action: 'password_changed', targetType: 'account', targetId: userId }));
    return { ended, keys: await tellOfPasswordChange(t, userId, 'account', mail) };
  });
}

/**
 * Queues a password reset for `email` when an active account has it and has had fewer than
 * MAX_RESETS_PER_ACCOUNT_PER_HOUR links in the last hour: a 30-minute single-use token (its
 * hash stored) and the email with the link. Says nothing either way to the caller's caller
 * (the answer is the same); returns what happened, for tests and the log.
 */
export async function requestPasswordReset(
  db: Db,
  email: string,
  token: { hash: string; link: string },
  actor: AuditActor,
  mail: QueueMail,
): Promise<'sent' | 'no_account' | 'account_limit'> {
  return transaction(db, async (t) => {
    // The row lock orders requests for one account, so two at once cannot both pass the count.
    // The count is a statement of its own: its snapshot, taken once the lock is held, sees the
    // link the request before committed (a subquery of the locking statement would not).
    const [user] = await queryRows(
      t,
      sql`select id from users where email = ${email} and deactivated_at is null for update`,
      z.object({ id: z.uuid() }),
    );
    if (!user) return 'no_account';
    const [{ recent }] = (await queryRows(
      t,
      sql`select count(*)::int as recent from account_tokens
          where kind = 'password_reset' and user_id = ${user.id} and created_at > crm_now() - interval '1 hour'`,
      z.object({ recent: z.number().int() }),
    )) as [{ recent: number }];
    // The last link sent stays valid: the person can still use it.
    if (recent >= MAX_RESETS_PER_ACCOUNT_PER_HOUR) return 'account_limit';
    // One link at a time: an older one stops working.
    await execute(
      t,
      sql`update account_tokens set revoked_at = crm_now() where kind = 'password_reset' and user_id = ${user.id} and used_at is null and revoked_at is null`,
    );
    await execute(
      t,
      sql`
      insert into account_tokens (token_hash, kind, email, user_id, expires_at)
      values (${token.hash}, 'password_reset', ${email}, ${user.id}, crm_now() + make_interval(mins => ${RESET_MINUTES}))`,
    );
    await execute(
      t,
      sql`
      insert into emails (message_id, status, last_error, kind, to_address, data)
      values (${newEmail(mail)}, 'password-reset', ${email},
        jsonb_build_object('expires_minutes', ${RESET_MINUTES}::int)
          || case when ${mail.sending} then jsonb_build_object('link', ${token.link}::text) else '{}'::jsonb end)`,
    );
    await execute(
      t,
      auditInsert({ ...actor, id: user.id, email }, { action: 'password_reset_requested', targetType: 'account', targetId: user.id }),
    );
    return 'sent';
  });
}

const validReset = sql`t.kind = 'password_reset' and t.used_at is null and t.revoked_at is null and t.expires_at > crm_now()`;

export async function findPasswordReset(db: Db, tokenHash: string): Promise<{ email: string } | undefined> {
  const [row] = await queryRows(
    db,
    sql`select u.email from account_tokens t join users u on u.id = t.user_id where t.token_hash = ${tokenHash} and ${validReset} and u.deactivated_at is null`,
    z.object({ email: z.string() }),
  );
  return row;
}

/**
 * Uses a reset token: sets the password, ends everything the account had open (sessions,
 * calendar feed, remembered devices) and emails the person that it changed, naming the API keys
 * that still work. Undefined for a token that is used, expired or unknown.
 */
export async function completePasswordReset(
  db: Db,
  tokenHash: string,
  passwordHash: string,
  actor: Omit<AuditActor, 'id' | 'email'>,
  mail: QueueMail,
): Promise<PasswordChanged | undefined> {
  return transaction(db, async (t) => {
    const [used] = await queryRows(
      t,
      sql`update account_tokens t set used_at = crm_now() from users u
          where t.token_hash = ${tokenHash} and ${validReset} and u.id = t.user_id and u.deactivated_at is null
          returning u.id, u.email`,
      z.object({ id: z.uuid(), email: z.string() }),
    );
    if (!used) return undefined;
    await execute(t, sql`update users set password_hash = ${passwordHash}, password_changed_at = crm_now() where id = ${used.id}`);
    const ended = await endWhatThePasswordOpened(t, used.id);
    await execute(
      t,
      auditInsert({ ...actor, id: used.id, email: used.email }, { action: 'password_reset', targetType: 'account', targetId: used.id }),
    );
    return { ended, keys: await tellOfPasswordChange(t, used.id, 'reset_link', mail) };
  });
}
