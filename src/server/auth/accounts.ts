import type { Role } from '#shared/schemas/auth';
import type { Db } from '../db/client.ts';
import { findUserByEmail, insertUser, setPasswordHash, type User } from '../db/queries/users-queries.ts';
import { hashPassword } from './password.ts';

/**
 * Admin accounts by email and password. Passwords are hashed here, above the database
 * layer, so the queries only ever store and compare hashes.
 */

/**
 * Creates the admin unless one has that email (that one is left as it is); says which
 * happened. An owner unless `role` says staff (the first account is an owner either way);
 * named `displayName`, or by the part of the email before the @.
 */
export async function ensureAdmin(
  db: Db,
  email: string,
  password: string,
  role: Role = 'owner',
  displayName?: string,
): Promise<{ created: boolean; user: User }> {
  const existing = await findUserByEmail(db, email);
  if (existing) return { created: false, user: existing };
  return insertUser(db, email, await hashPassword(password), role, displayName);
}

/** Sets a new password and ends every session of that admin. False if no admin has that email. */
export async function resetPassword(db: Db, email: string, password: string): Promise<boolean> {
  return setPasswordHash(db, email, await hashPassword(password));
}
