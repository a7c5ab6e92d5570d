import { sql } from 'drizzle-orm';
import { hashPassword } from '../../auth/password.ts';
import { queryRows, type Db } from '../client.ts';

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
