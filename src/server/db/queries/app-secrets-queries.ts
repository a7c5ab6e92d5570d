import { sql } from 'drizzle-orm';
import * as z from 'zod';
import type { Db } from '../client.ts';
import { execute, queryRows } from '../sql.ts';
import { newSecretToken } from '../../lib/secret-token.ts';

/** The names of the secrets the server makes for itself. */
export type AppSecretName = 'lead_form_token' | 'erased_senders';

const cache = new WeakMap<Db, Map<AppSecretName, Promise<Buffer>>>();

/**
 * The secret `name` (32 random bytes), made on first use and then the same in every process
 * on this database and after restarts. Two processes making it at once agree: each inserts
 * its own, the second insert does nothing, and both read the row that won. Kept in memory per
 * database once read (a secret never changes).
 */
export function appSecret(db: Db, name: AppSecretName): Promise<Buffer> {
  const secrets = cache.get(db) ?? new Map<AppSecretName, Promise<Buffer>>();
  cache.set(db, secrets);
  const known = secrets.get(name);
  if (known) return known;
  const secret = readOrCreate(db, name);
  secrets.set(name, secret);
  // A failure (the database is down) is not remembered: the next request tries again.
  secret.catch(() => {
    if (secrets.get(name) === secret) secrets.delete(name);
  });
  return secret;
}

async function readOrCreate(db: Db, name: AppSecretName): Promise<Buffer> {
  await execute(
    db,
    sql`
    insert into app_secrets (name, value) values (${name}, ${newSecretToken()})
    on conflict (name) do nothing`,
  );
  // A statement of its own: it sees the row another process committed while ours waited.
  const rows = await queryRows(db, sql`select value from app_secrets where name = ${name}`, z.object({ value: z.string().min(1) }));
  const row = rows[0];
  if (!row) throw new Error(`app secret ${name} is missing after it was made`);
  return Buffer.from(row.value, 'base64url');
}
