import { sql } from 'drizzle-orm';
import * as z from 'zod';
import type { CurrentUser, Role } from '#shared/schemas/auth';
import { inviteLookupSchema, inviteSchema, teamMemberSchema, type Invite, type Team, type TeamMember } from '#shared/schemas/team';
import { auditInsert, type AuditActor } from './audit-log-queries.ts';
import { revokeKeysOf } from './api-keys-queries.ts';
import type { Db } from '../client.ts';
import { sqlState } from '../database-faults.ts';
import { execute, isoTimestamp, queryRows, transaction } from '../sql.ts';
import { newEmail, type QueueMail } from './emails-queries.ts';

/**
 * The team: its people (users) and the invitations not yet accepted (account_tokens of kind
 * 'invite'; only a token's SHA-256 is stored, and its first 16 hex digits name it on the page).
 * Every change is recorded in the audit log in its own transaction.
 */

export const INVITE_HOURS = 72;

/** Why a team change was refused: a 404, or a 409 with a message a person can act on. */
export class TeamChangeRefused extends Error {
  constructor(
    readonly kind: 'not_found' | 'conflict',
    message: string,
  ) {
    super(message);
  }
}

export const NEEDS_AN_OWNER = 'The team needs at least one active owner: make someone else an owner first.';
export const ALREADY_ON_TEAM = 'Someone on the team already uses that email.';
export const NO_SUCH_MEMBER = 'No such person on the team.';
export const NOT_YOURSELF = 'You cannot do this to your own account.';

const memberColumns = sql`u.id, u.email, u.display_name, u.phone, u.role, ${isoTimestamp(sql`u.created_at`)} as created_at,
  ${isoTimestamp(sql`u.last_sign_in_at`)} as last_sign_in_at, u.totp_enabled_at is not null as two_factor,
  ${isoTimestamp(sql`u.deactivated_at`)} as deactivated_at,
  (select count(*)::int from leads l where l.owner_id = u.id) as owned_leads,
  (select count(*)::int from calendar_connections c where c.user_id = u.id and c.last_error is not null) as failing_calendars`;

const pendingInvite = sql`t.kind = 'invite' and t.used_at is null and t.revoked_at is null and t.expires_at > crm_now()`;
const inviteColumns = sql`left(t.token_hash, 16) as id, t.email, t.role, ${isoTimestamp(sql`t.created_at`)} as created_at,
  ${isoTimestamp(sql`t.expires_at`)} as expires_at, (select display_name from users where id = t.created_by) as invited_by`;

export async function getTeam(db: Db): Promise<Team> {
  const members = await queryRows(
    db,
    sql`select ${memberColumns} from users u order by u.deactivated_at is not null, lower(u.display_name), u.email`,
    teamMemberSchema,
  );
  const invites = await queryRows(
    db,
    sql`select ${inviteColumns} from account_tokens t where ${pendingInvite} order by t.created_at desc`,
    inviteSchema,
  );
  return { members, invites };
}

async function getMember(db: Db, id: string): Promise<TeamMember | undefined> {
  const [member] = await queryRows(db, sql`select ${memberColumns} from users u where u.id = ${id}`, teamMemberSchema);
  return member;
}

/**
 * Makes the changes that can take an active owner away (role change, deactivation, removal,
 * and `npm run admin`'s) run one at a time, across processes: the caller's transaction waits
 * here for any other such change to commit, so the users_keep_an_owner trigger then counts the
 * owners with that change in view (two owners demoting each other at once: one is refused).
 * Taken before the transaction touches any row, so two changes queue instead of deadlocking
 * (the trigger takes the same lock, for writers that do not: migration 0022).
 */
export async function lockTeamOwners(t: Db): Promise<void> {
  await execute(t, sql`select pg_advisory_xact_lock(hashtext('team-owners'))`);
}

/** Runs a change of the team; the trigger that keeps an owner answers as a 409. */
async function keepingAnOwner<T>(change: () => Promise<T>): Promise<T> {
  try {
    return await change();
  } catch (err) {
    // check_violation: the users_keep_an_owner trigger (roles themselves are checked before).
    if (sqlState(err) === '23514') throw new TeamChangeRefused('conflict', NEEDS_AN_OWNER);
    throw err;
  }
}

/**
 * Invites `email` as `role`: replaces any invitation still pending for that address, and
 * queues the invitation email (its link in the message's data until it is sent). Refused
 * when someone on the team already has that email.
 */
export async function createInvite(
  db: Db,
  input: { email: string; role: Role; tokenHash: string; link: string },
  actor: AuditActor,
  mail: QueueMail,
): Promise<Invite> {
  return transaction(db, async (t) => {
    const [taken] = await queryRows(t, sql`select count(*)::int as n from users where email = ${input.email}`, z.object({ n: z.number() }));
    if (taken!.n > 0) throw new TeamChangeRefused('conflict', ALREADY_ON_TEAM);
    await execute(t, sql`update account_tokens t set revoked_at = crm_now() where t.email = ${input.email} and ${pendingInvite}`);
    await execute(
      t,
      sql`
      insert into account_tokens (token_hash, kind, email, role, created_by, expires_at)
      values (${input.tokenHash}, 'invite', ${input.email}, ${input.role}, ${actor.id}, crm_now() + make_interval(hours => ${INVITE_HOURS}))`,
    );
    await execute(
      t,
      sql`
      insert into emails (message_id, status, last_error, kind, to_address, data)
      values (${newEmail(mail)}, 'invite', ${input.email},
        jsonb_build_object('role', ${input.role}::text, 'expires_hours', ${INVITE_HOURS}::int,
          -- "Olive Owner (olive@firm.com) invited you": a name the invitee knows, and the address that is writing.
          'invited_by', coalesce((select display_name || ' (' || email || ')' from users where id = ${actor.id}::uuid), ${actor.email}::text))
          -- The link stays only while the message waits to be sent (the outbox removes it after):
          -- with email off it is never stored, and the owner copies it from the page.
          || case when ${mail.sending} then jsonb_build_object('link', ${input.link}::text) else '{}'::jsonb end)`,
    );
    await execute(
      t,
      auditInsert(actor, { action: 'invite_sent', targetType: 'invite', targetId: input.email, details: { role: input.role } }),
    );
    const [invite] = await queryRows(
      t,
      sql`select ${inviteColumns} from account_tokens t where t.token_hash = ${input.tokenHash}`,
      inviteSchema,
    );
    return invite!;
  });
}

/** Withdraws a pending invitation (its link stops working). False if none is pending with that id. */
export async function revokeInvite(db: Db, id: string, actor: AuditActor): Promise<boolean> {
  return transaction(db, async (t) => {
    const rows = await queryRows(
      t,
      sql`update account_tokens t set revoked_at = crm_now() where left(t.token_hash, 16) = ${id} and ${pendingInvite} returning t.email`,
      z.object({ email: z.string() }),
    );
    if (rows.length === 0) return false;
    await execute(t, auditInsert(actor, { action: 'invite_revoked', targetType: 'invite', targetId: rows[0]!.email }));
    return true;
  });
}

/** The pending invitation a link's token stands for (undefined when used, withdrawn, expired or unknown). */
export async function findInvite(db: Db, tokenHash: string): Promise<z.infer<typeof inviteLookupSchema> | undefined> {
  const [row] = await queryRows(
    db,
    sql`select t.email, t.role, ${isoTimestamp(sql`t.expires_at`)} as expires_at from account_tokens t where t.token_hash = ${tokenHash} and ${pendingInvite}`,
    inviteLookupSchema,
  );
  return row;
}

export const INVITE_NOT_VALID =
  'This invitation link is not valid any more: it was used, withdrawn or is older than 72 hours. Ask an owner of your team for a new one.';

/**
 * Accepts an invitation: creates the account, with the name its person chose and the invited
 * role, and uses up the token, in one transaction (two tabs accepting at once make one account).
 * The new account, as the session shows it.
 */
export async function acceptInvite(
  db: Db,
  tokenHash: string,
  account: { displayName: string; passwordHash: string },
  actor: Omit<AuditActor, 'id' | 'email'>,
): Promise<CurrentUser> {
  return transaction(db, async (t) => {
    const [invite] = await queryRows(
      t,
      sql`update account_tokens t set used_at = crm_now() where t.token_hash = ${tokenHash} and ${pendingInvite} returning t.email, t.role`,
      z.object({ email: z.string(), role: z.enum(['owner', 'staff']) }),
    );
    if (!invite) throw new TeamChangeRefused('not_found', INVITE_NOT_VALID);
    const [user] = await queryRows(
      t,
      sql`insert into users (email, display_name, password_hash, role, password_changed_at)
          values (${invite.email}, ${account.displayName}, ${account.passwordHash}, ${invite.role}, crm_now())
          on conflict (email) do nothing returning id`,
      z.object({ id: z.uuid() }),
    );
    if (!user) throw new TeamChangeRefused('conflict', ALREADY_ON_TEAM);
    await execute(
      t,
      auditInsert(
        { ...actor, id: user.id, email: invite.email },
        { action: 'invite_accepted', targetType: 'account', targetId: user.id, details: { role: invite.role } },
      ),
    );
    return { id: user.id, email: invite.email, display_name: account.displayName, phone: null, role: invite.role };
  });
}

/** One change to a person's account, recorded; the member after it, or a refusal. */
async function changeMember(
  db: Db,
  id: string,
  actor: AuditActor,
  change: (t: Db, before: TeamMember) => Promise<Parameters<typeof auditInsert>[1] | undefined>,
): Promise<TeamMember> {
  return keepingAnOwner(() =>
    transaction(db, async (t) => {
      await lockTeamOwners(t);
      const before = await getMember(t, id);
      if (!before) throw new TeamChangeRefused('not_found', NO_SUCH_MEMBER);
      const entry = await change(t, before);
      if (entry) await execute(t, auditInsert(actor, entry));
      return (await getMember(t, id))!;
    }),
  );
}

export function changeRole(db: Db, id: string, role: Role, actor: AuditActor): Promise<TeamMember> {
  return changeMember(db, id, actor, async (t, before) => {
    if (before.role === role) return undefined;
    await execute(t, sql`update users set role = ${role} where id = ${id}`);
    if (role !== 'owner') await revokeKeysOf(t, actor, id, 'demoted');
    return {
      action: 'role_changed',
      targetType: 'account',
      targetId: id,
      details: { email: before.email, name: before.display_name, changes: { role: { from: before.role, to: role } } },
    };
  });
}

/** Deactivates an account (sessions, feeds and remembered devices are the caller's to end: auth/end-access.ts). */
export function deactivateMember(db: Db, id: string, actor: AuditActor): Promise<TeamMember> {
  if (id === actor.id) return Promise.reject(new TeamChangeRefused('conflict', NOT_YOURSELF));
  return changeMember(db, id, actor, async (t, before) => {
    if (before.deactivated_at) return undefined;
    await execute(t, sql`update users set deactivated_at = crm_now() where id = ${id}`);
    await revokeKeysOf(t, actor, id, 'deactivated');
    return {
      action: 'account_deactivated',
      targetType: 'account',
      targetId: id,
      details: { email: before.email, name: before.display_name },
    };
  });
}

export function reactivateMember(db: Db, id: string, actor: AuditActor): Promise<TeamMember> {
  return changeMember(db, id, actor, async (t, before) => {
    if (!before.deactivated_at) return undefined;
    await execute(t, sql`update users set deactivated_at = null where id = ${id}`);
    return {
      action: 'account_reactivated',
      targetType: 'account',
      targetId: id,
      details: { email: before.email, name: before.display_name },
    };
  });
}

/**
 * Removes an account for good: its sessions, feed, notifications and tokens go with it (foreign
 * keys cascade); its leads, notes and history stay, without an owner or author. Returns the
 * ended sessions' keys, so the caller closes their live streams.
 */
export async function removeMember(db: Db, id: string, actor: AuditActor): Promise<string[]> {
  if (id === actor.id) throw new TeamChangeRefused('conflict', NOT_YOURSELF);
  return keepingAnOwner(() =>
    transaction(db, async (t) => {
      await lockTeamOwners(t);
      const before = await getMember(t, id);
      if (!before) throw new TeamChangeRefused('not_found', NO_SUCH_MEMBER);
      const sessions = await queryRows(t, sql`select token_hash from sessions where user_id = ${id}`, z.object({ token_hash: z.string() }));
      await revokeKeysOf(t, actor, id, 'removed');
      await execute(t, sql`delete from users where id = ${id}`);
      await execute(
        t,
        auditInsert(actor, {
          action: 'account_removed',
          targetType: 'account',
          targetId: id,
          details: { email: before.email, name: before.display_name, role: before.role },
        }),
      );
      return sessions.map((s) => s.token_hash);
    }),
  );
}

/** Gives every lead `fromId` owns to `toId` (null: nobody), each with an owner entry on its timeline. How many moved. */
export async function reassignLeads(db: Db, fromId: string, toId: string | null, actor: AuditActor): Promise<number> {
  return transaction(db, async (t) => {
    if (!(await getMember(t, fromId))) throw new TeamChangeRefused('not_found', NO_SUCH_MEMBER);
    if (toId) {
      const target = await getMember(t, toId);
      if (!target) throw new TeamChangeRefused('not_found', NO_SUCH_MEMBER);
      if (target.deactivated_at) throw new TeamChangeRefused('conflict', 'Leads cannot go to a deactivated account.');
    }
    if (fromId === toId) return 0;
    const [row] = await queryRows(
      t,
      sql`with updated as (
          update leads l set owner_id = ${toId}::uuid, updated_at = crm_now()
          where l.owner_id = ${fromId}
          returning l.id, ${fromId}::uuid as old_owner_id, l.owner_id
        ), owner_event as (
          insert into lead_events (lead_id, kind, actor_id, data)
          select u.id, 'owner', ${actor.id}, jsonb_build_object('from', (select display_name from users where id = u.old_owner_id),
            'to', (select display_name from users where id = u.owner_id))
          from updated u
        )
        select count(*)::int as moved from updated`,
      z.object({ moved: z.number().int() }),
    );
    const moved = row?.moved ?? 0;
    if (moved > 0) {
      await execute(
        t,
        auditInsert(actor, {
          action: 'lead_updated',
          targetType: 'account',
          targetId: fromId,
          details: { reassigned: moved, changes: { owner_id: { from: fromId, to: toId } } },
        }),
      );
    }
    return moved;
  });
}

/** Whether anyone has an account yet (the first-run set-up link is offered until someone does). */
export async function hasAnyUser(db: Db): Promise<boolean> {
  const [row] = await queryRows(db, sql`select exists (select 1 from users) as any`, z.object({ any: z.boolean() }));
  return row!.any;
}

/**
 * Creates the first owner, only while nobody has an account (a lock makes two set-ups at
 * once create one). Undefined when someone already has.
 */
export async function createFirstOwner(
  db: Db,
  account: { email: string; displayName: string; passwordHash: string },
  actor: Omit<AuditActor, 'id' | 'email'>,
): Promise<CurrentUser | undefined> {
  const { email, displayName } = account;
  return transaction(db, async (t) => {
    await execute(t, sql`lock table users in share row exclusive mode`);
    if (await hasAnyUser(t)) return undefined;
    const [user] = await queryRows(
      t,
      sql`insert into users (email, display_name, password_hash, role, password_changed_at) values (${email}, ${displayName}, ${account.passwordHash}, 'owner', crm_now()) returning id`,
      z.object({ id: z.uuid() }),
    );
    await execute(
      t,
      auditInsert({ ...actor, id: user!.id, email }, { action: 'first_owner_created', targetType: 'account', targetId: user!.id }),
    );
    return { id: user!.id, email, display_name: displayName, phone: null, role: 'owner' };
  });
}
