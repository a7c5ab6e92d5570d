import { sql } from 'drizzle-orm';
import { hashPassword } from '../../auth/password.ts';
import { execute, queryRows, type Db } from '../client.ts';

export type User = { id: string; email: string; created_at: string };

export async function findUserByEmail(db: Db, email: string): Promise<User | undefined> {
  const rows = await queryRows<User>(
    db,
    sql`select id, email, created_at::text from users where email = ${email.toLowerCase()}`,
  );
  return rows[0];
}

/** Creates the user unless one has that email; says which happened. */
export async function ensureUser(db: Db, email: string, password: string): Promise<{ created: boolean; user: User }> {
  const existing = await findUserByEmail(db, email);
  if (existing) return { created: false, user: existing };
  const passwordHash = await hashPassword(password);
  const rows = await queryRows<User>(
    db,
    sql`insert into users (email, password_hash) values (${email.toLowerCase()}, ${passwordHash})
        on conflict (email) do nothing
        returning id, email, created_at::text`,
  );
  if (rows[0]) return { created: true, user: rows[0] };
  return { created: false, user: (await findUserByEmail(db, email))! };
}

/** The stored hash for sign-in; undefined for an unknown email. */
export async function findPasswordHash(db: Db, email: string): Promise<{ id: string; email: string; password_hash: string } | undefined> {
  const rows = await queryRows<{ id: string; email: string; password_hash: string }>(
    db,
    sql`select id, email, password_hash from users where email = ${email.toLowerCase()}`,
  );
  return rows[0];
}

export async function listUsers(db: Db): Promise<User[]> {
  return queryRows<User>(db, sql`select id, email, created_at::text from users order by email`);
}

/** Sets a new password and ends every session of that user. False if no such user. */
export async function setPassword(db: Db, email: string, password: string): Promise<boolean> {
  const passwordHash = await hashPassword(password);
  const rows = await queryRows<{ id: string }>(db, sql`
    with updated as (update users set password_hash = ${passwordHash} where email = ${email.toLowerCase()} returning id),
         ended as (delete from sessions where user_id in (select id from updated))
    select id from updated`);
  return rows.length > 0;
}

/** Deletes the user; their sessions and notifications go with them (foreign keys cascade). */
export async function deleteUser(db: Db, email: string): Promise<boolean> {
  return (await execute(db, sql`delete from users where email = ${email.toLowerCase()}`)) > 0;
}
