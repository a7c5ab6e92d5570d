import { sql } from 'drizzle-orm';
import * as z from 'zod';
import { defaultDisplayName } from '#shared/rules/profile';
import type { Profile, ProfileRequest } from '#shared/schemas/account';
import { roleSchema, type Role } from '#shared/schemas/auth';
import type { Db } from '../client.ts';
import { execute, queryRows } from '../sql.ts';

const userRow = z.object({ id: z.uuid(), email: z.string(), display_name: z.string(), created_at: z.string() });
export type User = z.infer<typeof userRow>;

export async function findUserByEmail(db: Db, email: string): Promise<User | undefined> {
  const rows = await queryRows(
    db,
    sql`select id, email, display_name, created_at::text from users where email = ${email.toLowerCase()}`,
    userRow,
  );
  return rows[0];
}

/**
 * Creates the user unless one has that email; says which happened. Takes the password's
 * hash (auth/accounts.ts hashes): no query ever sees a password. The first account is always
 * an owner, whatever `role` says (a team has at least one). Without a name, the email's part
 * before the @ (rules/profile.ts).
 */
export async function insertUser(
  db: Db,
  email: string,
  passwordHash: string,
  role: Role = 'owner',
  displayName: string = defaultDisplayName(email),
): Promise<{ created: boolean; user: User }> {
  const rows = await queryRows(
    db,
    sql`insert into users (email, display_name, password_hash, role)
        values (${email.toLowerCase()}, ${displayName}, ${passwordHash},
          case when exists (select 1 from users where role = 'owner' and deactivated_at is null) then ${role} else 'owner' end)
        on conflict (email) do nothing
        returning id, email, display_name, created_at::text`,
    userRow,
  );
  if (rows[0]) return { created: true, user: rows[0] };
  return { created: false, user: (await findUserByEmail(db, email))! };
}

const signInRow = z.object({
  id: z.uuid(),
  email: z.string(),
  display_name: z.string(),
  phone: z.string().nullable(),
  role: roleSchema,
  password_hash: z.string(),
  deactivated: z.boolean(),
  two_factor: z.boolean(),
});
export type SignInAccount = z.infer<typeof signInRow>;

/** What sign-in needs of an account (its hash, whether it may sign in, whether it has two-factor); undefined for an unknown email. */
export async function findPasswordHash(db: Db, email: string): Promise<SignInAccount | undefined> {
  const rows = await queryRows(
    db,
    sql`select id, email, display_name, phone, role, password_hash, deactivated_at is not null as deactivated, totp_secret is not null as two_factor
        from users where email = ${email.toLowerCase()}`,
    signInRow,
  );
  return rows[0];
}

/** Records a successful sign-in (the team page shows it). */
export async function touchLastSignIn(db: Db, userId: string): Promise<void> {
  await execute(db, sql`update users set last_sign_in_at = crm_now() where id = ${userId}`);
}

/** Every active admin's id, email and name, by name: whom a lead can be given to. */
export async function listAdmins(db: Db): Promise<{ id: string; email: string; display_name: string }[]> {
  return queryRows(
    db,
    sql`select id, email, display_name from users where deactivated_at is null order by lower(display_name), email, id`,
    z.object({ id: z.uuid(), email: z.string(), display_name: z.string() }),
  );
}

const profileRow = z.object({ display_name: z.string(), phone: z.string().nullable() });

/**
 * Sets one's name and phone (a blank or absent phone: none), returning them before and after,
 * in one statement on the locked row; undefined for an unknown admin.
 */
export async function setProfile(
  db: Db,
  userId: string,
  profile: ProfileRequest,
): Promise<{ before: Profile; after: Profile } | undefined> {
  const [row] = await queryRows(
    db,
    sql`with before as (select id, display_name, phone from users where id = ${userId} for update)
        update users u set display_name = ${profile.display_name}, phone = ${profile.phone || null}
        from before b where u.id = b.id
        returning b.display_name as before_name, b.phone as before_phone, u.display_name, u.phone`,
    profileRow.extend({ before_name: z.string(), before_phone: z.string().nullable() }),
  );
  if (!row) return undefined;
  return {
    before: { display_name: row.before_name, phone: row.before_phone },
    after: { display_name: row.display_name, phone: row.phone },
  };
}

/**
 * Sets a new password hash and ends every session of that user and revokes their calendar
 * feed (a reset is what an admin does when a credential may have leaked, and the feed's URL
 * is one). False if no such user.
 */
export async function setPasswordHash(db: Db, email: string, passwordHash: string): Promise<boolean> {
  const rows = await queryRows(
    db,
    sql`
    with updated as (update users set password_hash = ${passwordHash} where email = ${email.toLowerCase()} returning id),
         ended as (delete from sessions where user_id in (select id from updated)),
         revoked as (delete from calendar_feeds where user_id in (select id from updated))
    select id from updated`,
    z.object({ id: z.uuid() }),
  );
  return rows.length > 0;
}

/** Deletes the user; their sessions, calendar feed and notifications go with them (foreign keys cascade). */
export async function deleteUser(db: Db, email: string): Promise<boolean> {
  return (await execute(db, sql`delete from users where email = ${email.toLowerCase()}`)) > 0;
}

const preferencesRow = z.object({
  email_new_leads: z.boolean(),
  email_appointments: z.boolean(),
  email_weekly_report: z.boolean(),
  email_replies: z.boolean(),
  email_task_digest: z.boolean(),
});

/** An admin's email preferences; undefined for an unknown admin. */
export async function getEmailPreferences(db: Db, userId: string): Promise<z.infer<typeof preferencesRow> | undefined> {
  const [row] = await queryRows(
    db,
    sql`select email_new_leads, email_appointments, email_weekly_report, email_replies, email_task_digest from users where id = ${userId}`,
    preferencesRow,
  );
  return row;
}

/** Changes the preferences given (only those); the result, or undefined for an unknown admin. */
export async function setEmailPreferences(
  db: Db,
  userId: string,
  patch: Partial<z.infer<typeof preferencesRow>>,
): Promise<z.infer<typeof preferencesRow> | undefined> {
  const [row] = await queryRows(
    db,
    sql`update users set
      email_new_leads = coalesce(${patch.email_new_leads ?? null}::boolean, email_new_leads),
      email_appointments = coalesce(${patch.email_appointments ?? null}::boolean, email_appointments),
      email_weekly_report = coalesce(${patch.email_weekly_report ?? null}::boolean, email_weekly_report),
      email_replies = coalesce(${patch.email_replies ?? null}::boolean, email_replies),
      email_task_digest = coalesce(${patch.email_task_digest ?? null}::boolean, email_task_digest)
    where id = ${userId}
    returning email_new_leads, email_appointments, email_weekly_report, email_replies, email_task_digest`,
    preferencesRow,
  );
  return row;
}

/** The signature under the messages `userId` writes to leads ('' = none); undefined for an account that is gone. */
export async function getSignature(db: Db, userId: string): Promise<string | undefined> {
  const [row] = await queryRows(db, sql`select email_signature from users where id = ${userId}`, z.object({ email_signature: z.string() }));
  return row?.email_signature;
}

/** Saves it; false for an account that is gone. */
export async function setSignature(db: Db, userId: string, signature: string): Promise<boolean> {
  return (await execute(db, sql`update users set email_signature = ${signature} where id = ${userId}`)) > 0;
}
