import { sql } from 'drizzle-orm';
import * as z from 'zod';
import { checkText } from '#shared/rules/text-checks';
import { defaultDisplayName, PROFILE_RULES } from '#shared/rules/profile';
import { loginRequestSchema, roleSchema } from '#shared/schemas/auth';
import type { Db } from '../db/client.ts';
import { auditInsert, type AuditActor } from '../db/queries/audit-log-queries.ts';
import { sqlState } from '../db/database-faults.ts';
import { lockTeamOwners, NEEDS_AN_OWNER } from '../db/queries/team-queries.ts';
import { tellOfPasswordChange } from '../db/queries/account-queries.ts';
import { activeKeysOf, revokeKeysOf, type ActiveKey } from '../db/queries/api-keys-queries.ts';
import type { QueueMail } from '../db/queries/emails-queries.ts';
import { execute, isoTimestamp, queryRows, transaction } from '../db/sql.ts';
import { hashPassword } from './password.ts';

/**
 * `npm run admin`'s commands, run by the command itself on the database, or by the running
 * server when the embedded database is in its hands (the CLI sends the command over the
 * control socket). Each returns what the command prints and the sessions it ended (so the
 * server closes their live streams at once); a refusal throws an Error whose message is said.
 */
export const ADMIN_COMMANDS = [
  'create',
  'reset-password',
  'list',
  'delete',
  'role',
  'deactivate',
  'reactivate',
  'reset-two-factor',
] as const;

export const adminCommandSchema = z.discriminatedUnion('command', [
  z.object({ command: z.literal('list') }),
  z.object({
    command: z.literal('create'),
    email: z.string(),
    password: z.string(),
    role: roleSchema.default('owner'),
    name: z.string().optional(),
  }),
  z.object({ command: z.literal('reset-password'), email: z.string(), password: z.string() }),
  z.object({ command: z.literal('delete'), email: z.string() }),
  z.object({ command: z.literal('role'), email: z.string(), role: roleSchema }),
  z.object({ command: z.literal('deactivate'), email: z.string() }),
  z.object({ command: z.literal('reactivate'), email: z.string() }),
  z.object({ command: z.literal('reset-two-factor'), email: z.string() }),
]);
export type AdminCommand = z.infer<typeof adminCommandSchema>;

export type AdminCommandResult = { output: string; endedSessions: string[] };

const CLI_ACTOR: AuditActor = { id: null, email: null, ip: null, userAgent: 'npm run admin' };

/** The email, checked and normalised as sign-in does; the password too when one is given. */
function credentials(email: string, password = 'x'.repeat(8)) {
  const parsed = loginRequestSchema.safeParse({ email, password });
  if (!parsed.success) throw new Error(parsed.error.issues[0]!.message);
  return parsed.data;
}

/** The name given with --name, checked as the account page checks it; without one, the email's part before the @. */
function displayName(name: string | undefined, email: string): string {
  if (name === undefined) return defaultDisplayName(email);
  const checked = checkText(name, PROFILE_RULES.display_name);
  if (!checked.ok) throw new Error(checked.error);
  return checked.value!;
}

const listRow = z.object({
  email: z.string(),
  display_name: z.string(),
  role: roleSchema,
  deactivated: z.boolean(),
  two_factor: z.boolean(),
  created_at: z.string(),
});

const NO_SUCH = (email: string) => new Error(`No admin has the email ${email}.`);

/**
 * Runs `change` in a transaction with the session keys of `email`'s account, refusing a change
 * that leaves no active owner. The team's owner lock comes first (as the API's changes take it),
 * so a command racing an owner's change in the dashboard is refused instead of both passing.
 */
async function onAccount<T>(
  db: Db,
  email: string,
  change: (t: Db, user: { id: string; role: string }, sessions: string[]) => Promise<T>,
): Promise<T> {
  try {
    return await transaction(db, async (t) => {
      await lockTeamOwners(t);
      const [user] = await queryRows(
        t,
        sql`select id, role from users where email = ${email} for update`,
        z.object({ id: z.uuid(), role: z.string() }),
      );
      if (!user) throw NO_SUCH(email);
      const sessions = await queryRows(
        t,
        sql`select token_hash from sessions where user_id = ${user.id}`,
        z.object({ token_hash: z.string() }),
      );
      return change(
        t,
        user,
        sessions.map((s) => s.token_hash),
      );
    });
  } catch (err) {
    if (sqlState(err) === '23514') throw new Error(NEEDS_AN_OWNER, { cause: err });
    throw err;
  }
}

/**
 * Carries out `npm run admin` commands. `mail`: how the server queues email (the security mail
 * after reset-password); a test may leave it out, and then none is queued.
 */
/** The API keys a password change left working, as the command says them. */
function keysStillWorking(keys: readonly ActiveKey[]): string {
  if (keys.length === 0) return '';
  const named = keys.map((k) => `  ${k.name} (${k.prefix}…)\n`).join('');
  return `Their API keys still work (a password change does not end them):\n${named}To end them: Settings → Integrations (any owner may revoke each; they may revoke all theirs at once).\n`;
}

export async function runAdminCommand(db: Db, request: AdminCommand, mail?: QueueMail): Promise<AdminCommandResult> {
  const none: string[] = [];
  switch (request.command) {
    case 'list': {
      const users = await queryRows(
        db,
        sql`select email, display_name, role, deactivated_at is not null as deactivated, totp_enabled_at is not null as two_factor, ${isoTimestamp(sql`created_at`)} as created_at
            from users order by email`,
        listRow,
      );
      // The name last: the columns before it keep their places for scripts that read them.
      const lines = users.map((u) =>
        [u.email, u.role, u.deactivated ? 'deactivated' : 'active', u.two_factor ? 'two-factor' : '-', u.created_at, u.display_name].join(
          '\t',
        ),
      );
      return { output: users.length === 0 ? 'No admins yet.\n' : `${lines.join('\n')}\n`, endedSessions: none };
    }
    case 'create': {
      const { email, password } = credentials(request.email, request.password);
      const name = displayName(request.name, email);
      const hash = await hashPassword(password);
      const role = await transaction(db, async (t) => {
        const [row] = await queryRows(
          t,
          sql`insert into users (email, display_name, password_hash, role, password_changed_at)
              values (${email}, ${name}, ${hash}, case when exists (select 1 from users where role = 'owner' and deactivated_at is null) then ${request.role} else 'owner' end, crm_now())
              on conflict (email) do nothing returning id, role`,
          z.object({ id: z.uuid(), role: roleSchema }),
        );
        if (!row) throw new Error(`An admin with the email ${email} already exists (use reset-password).`);
        await execute(
          t,
          auditInsert(CLI_ACTOR, {
            action: 'account_created',
            targetType: 'account',
            targetId: row.id,
            details: { email, name, role: row.role },
          }),
        );
        return row.role;
      });
      return { output: `Created ${role === 'owner' ? 'owner' : 'staff'} ${name} <${email}>.\n`, endedSessions: none };
    }
    case 'reset-password': {
      const { email, password } = credentials(request.email, request.password);
      const hash = await hashPassword(password);
      const ended = await onAccount(db, email, async (t, user, sessions) => {
        await execute(t, sql`update users set password_hash = ${hash}, password_changed_at = crm_now() where id = ${user.id}`);
        // A reset is what an admin does when a credential may have leaked: everything it opened ends.
        await execute(t, sql`delete from sessions where user_id = ${user.id}`);
        await execute(t, sql`delete from calendar_feeds where user_id = ${user.id}`);
        await execute(t, sql`delete from trusted_devices where user_id = ${user.id}`);
        await execute(
          t,
          auditInsert(CLI_ACTOR, { action: 'password_reset', targetType: 'account', targetId: user.id, details: { email } }),
        );
        // Their API keys go on working: named here and in the security mail, for them to revoke.
        const keys = mail ? await tellOfPasswordChange(t, user.id, 'admin_command', mail) : await activeKeysOf(t, user.id);
        return { sessions, keys };
      });
      return {
        output: `New password set for ${email}; their sessions have ended.\n${keysStillWorking(ended.keys)}`,
        endedSessions: ended.sessions,
      };
    }
    case 'delete': {
      const { email } = credentials(request.email);
      const ended = await onAccount(db, email, async (t, user, sessions) => {
        await revokeKeysOf(t, CLI_ACTOR, user.id, 'removed');
        await execute(t, sql`delete from users where id = ${user.id}`);
        await execute(
          t,
          auditInsert(CLI_ACTOR, {
            action: 'account_removed',
            targetType: 'account',
            targetId: user.id,
            details: { email, role: user.role },
          }),
        );
        return sessions;
      });
      return { output: `Deleted ${email}; their sessions have ended.\n`, endedSessions: ended };
    }
    case 'role': {
      const { email } = credentials(request.email);
      await onAccount(db, email, async (t, user) => {
        if (user.role === request.role) return;
        await execute(t, sql`update users set role = ${request.role} where id = ${user.id}`);
        if (request.role !== 'owner') await revokeKeysOf(t, CLI_ACTOR, user.id, 'demoted');
        await execute(
          t,
          auditInsert(CLI_ACTOR, {
            action: 'role_changed',
            targetType: 'account',
            targetId: user.id,
            details: { email, changes: { role: { from: user.role, to: request.role } } },
          }),
        );
      });
      return { output: `${email} is ${request.role === 'owner' ? 'an owner' : 'staff'}.\n`, endedSessions: none };
    }
    case 'reset-two-factor': {
      // A lost phone and lost recovery codes: two-factor off, so the person signs in with the password and sets it up again.
      const { email } = credentials(request.email);
      await onAccount(db, email, async (t, user) => {
        await execute(
          t,
          sql`update users set totp_secret = null, totp_pending_secret = null, totp_enabled_at = null, totp_last_step = null where id = ${user.id}`,
        );
        await execute(t, sql`delete from recovery_codes where user_id = ${user.id}`);
        await execute(t, sql`delete from trusted_devices where user_id = ${user.id}`);
        await execute(
          t,
          auditInsert(CLI_ACTOR, { action: 'two_factor_disabled', targetType: 'account', targetId: user.id, details: { email } }),
        );
      });
      return { output: `Two-factor is off for ${email}: they sign in with their password and set it up again.\n`, endedSessions: none };
    }
    case 'deactivate':
    case 'reactivate': {
      const { email } = credentials(request.email);
      const deactivate = request.command === 'deactivate';
      const ended = await onAccount(db, email, async (t, user, sessions) => {
        await execute(
          t,
          sql`update users set deactivated_at = ${deactivate ? sql`coalesce(deactivated_at, crm_now())` : sql`null`} where id = ${user.id}`,
        );
        if (!deactivate) {
          await execute(
            t,
            auditInsert(CLI_ACTOR, { action: 'account_reactivated', targetType: 'account', targetId: user.id, details: { email } }),
          );
          return none;
        }
        await execute(t, sql`delete from sessions where user_id = ${user.id}`);
        await execute(t, sql`delete from calendar_feeds where user_id = ${user.id}`);
        await execute(t, sql`delete from trusted_devices where user_id = ${user.id}`);
        await revokeKeysOf(t, CLI_ACTOR, user.id, 'deactivated');
        await execute(
          t,
          auditInsert(CLI_ACTOR, { action: 'account_deactivated', targetType: 'account', targetId: user.id, details: { email } }),
        );
        return sessions;
      });
      return {
        output: deactivate ? `Deactivated ${email}; their sessions have ended.\n` : `Reactivated ${email}.\n`,
        endedSessions: ended,
      };
    }
  }
}
