import { sql } from 'drizzle-orm';
import * as z from 'zod';
import path from 'node:path';
import { KEY_FILE, PREVIOUS_KEY_FILE, prepareNextKey, promoteNextKey } from '../lib/credentials-key-file.ts';
import {
  createVault,
  loadCredentialsKeys,
  needsResealing,
  SealedSecretError,
  sealedKeyId,
  type CredentialsSettings,
  type CredentialsVault,
} from '../lib/credentials.ts';
import type { Db } from './client.ts';
import { execute, pgArray, queryRows, transaction } from './sql.ts';

/**
 * The stored credentials in the database (`calendar_connections.secret`, sealed by
 * lib/credentials.ts) against the keys this process has: the start-up check, the re-sealing a
 * key rotation does, and what `db:move` tells the operator. docs/security.md, "Stored credentials".
 */

/** What a connection's secret is bound to: copied into another row, it does not open. */
export const calendarSecretContext = (connectionId: string) => `calendar_connections:${connectionId}`;

const calendars = (n: number) => (n === 1 ? '1 connected calendar' : `${n} connected calendars`);
const reconnect = (n: number) => (n === 1 ? 'its owner connects it again' : 'their owners connect them again');
const FORGET = 'npm run admin -- rotate-credentials-key --forget-unreadable';

/**
 * Why the server must not start, or undefined: connected calendars exist and this process
 * cannot open their passwords (no key at all, or not the key they were sealed with). Said at
 * once, rather than as every sync failing after an operator moved to PostgreSQL without the
 * key. Reads only the key ids (a short hash of each key), never a secret.
 */
export async function sealedSecretsProblem(
  db: Db,
  vault: CredentialsVault,
  settings: Pick<CredentialsSettings, 'credentialsKey' | 'dataDir' | 'databaseUrl'>,
): Promise<string | undefined> {
  const byKey = await queryRows(
    db,
    // A value not in the sealed form has no key to ask for: its sync fails alone.
    sql`select split_part(secret, '.', 2) as key_id, count(*)::int as n from calendar_connections
        where secret ~ '^v1\\.[^.]+\\.[^.]+\\.[^.]+$' group by 1 order by 1`,
    z.object({ key_id: z.string(), n: z.number() }),
  );
  const total = byKey.reduce((sum, row) => sum + row.n, 0);
  if (total === 0) return undefined;
  if (!vault.available) {
    // Not "make a new key": these need the very key they were sealed with.
    if (settings.databaseUrl && !settings.credentialsKey)
      return `The database holds ${calendars(total)}, sealed with key ${byKey.map((row) => row.key_id).join(', ')}, and CREDENTIALS_KEY is not set. Set it on every server process to the key they were sealed with: after a move from the embedded database, the content of its DATA_DIR's ${KEY_FILE} (CREDENTIALS_KEY=$(cat data/${KEY_FILE})).`;
    return `The database holds ${calendars(total)}, whose passwords this server cannot open. ${vault.reason}`;
  }
  const known = new Set(vault.keyIds());
  const missing = byKey.filter((row) => !known.has(row.key_id));
  if (missing.length === 0) return undefined;
  const n = missing.reduce((sum, row) => sum + row.n, 0);
  const ids = missing.map((row) => row.key_id).join(', ');
  const they = n === 1 ? 'it was' : 'they were';
  const setting = settings.credentialsKey
    ? `Set CREDENTIALS_KEY to the key ${they} sealed with (or keep that key as CREDENTIALS_KEY_PREVIOUS until rotate-credentials-key has run)`
    : `Put the ${KEY_FILE} file ${they} sealed with back into DATA_DIR ${settings.dataDir} (or set CREDENTIALS_KEY to its content)`;
  const subject = n === total ? calendars(n) : `${n} of the ${total} connected calendars`;
  return `${subject} ${n === 1 ? 'was' : 'were'} sealed with a key this server does not have (key ${ids}). ${setting}, then start again. If that key is lost, ${FORGET} removes ${n === 1 ? 'it' : 'them'}, and ${reconnect(n)}.`;
}

export type ResealResult = { total: number; resealed: number; forgotten: number };

/**
 * Seals every connection's secret with the vault's current key, in one transaction: each is
 * opened with any key the vault has first, so nothing changes unless all open (or, with
 * `forgetUnreadable`, the connections that no key opens are deleted in the same transaction).
 */
export async function resealSecrets(db: Db, vault: CredentialsVault, { forgetUnreadable = false } = {}): Promise<ResealResult> {
  if (!vault.available) throw new Error(vault.reason);
  return transaction(db, async (t) => {
    const rows = await queryRows(
      t,
      sql`select id, secret from calendar_connections order by id for update`,
      z.object({ id: z.uuid(), secret: z.string() }),
    );
    const unreadable: string[] = [];
    const missingKeys = new Set<string>();
    let resealed = 0;
    for (const row of rows) {
      const context = calendarSecretContext(row.id);
      let plain: string;
      try {
        plain = vault.open(row.secret, context);
      } catch (err) {
        if (!(err instanceof SealedSecretError)) throw err;
        unreadable.push(row.id);
        const keyId = sealedKeyId(row.secret);
        missingKeys.add(keyId !== undefined && !vault.keyIds().includes(keyId) ? `sealed with key ${keyId}` : 'damaged or changed');
        continue;
      }
      if (!needsResealing(row.secret, vault)) continue;
      await execute(t, sql`update calendar_connections set secret = ${vault.seal(plain, context)} where id = ${row.id}`);
      resealed++;
    }
    const n = unreadable.length;
    if (n > 0 && !forgetUnreadable)
      throw new Error(
        `${calendars(n)} cannot be opened with any key this server has (${[...missingKeys].join('; ')}); nothing was changed. Put that key back, or run ${FORGET} to remove ${n === 1 ? 'it' : 'them'} (${reconnect(n)}).`,
      );
    if (n > 0) await execute(t, sql`delete from calendar_connections where id = any(${pgArray(unreadable)}::uuid[])`);
    return { total: rows.length, resealed, forgotten: unreadable.length };
  });
}

/**
 * `npm run admin -- rotate-credentials-key`: every connected calendar's password sealed with a
 * new key; returns what the command prints. With CREDENTIALS_KEY the operator has already set
 * the new key there (the old one as CREDENTIALS_KEY_PREVIOUS), and everything is sealed with it.
 * With the key file the new key is made here, in steps that a crash between any two of them
 * cannot lose a password to (lib/credentials-key-file.ts).
 */
export async function rotateCredentialsKey(
  db: Db,
  settings: CredentialsSettings,
  options: { forgetUnreadable?: boolean } = {},
): Promise<string> {
  const keys = loadCredentialsKeys(settings);
  if ('reason' in keys) throw new Error(keys.reason);
  if (settings.credentialsKey) {
    const result = await resealSecrets(db, createVault(keys.current, keys.others), options);
    const next = settings.credentialsKeyPrevious
      ? 'Now restart every server process without CREDENTIALS_KEY_PREVIOUS.'
      : 'CREDENTIALS_KEY_PREVIOUS is not set: nothing else to do.';
    return `${describeReseal(result)}, with the key in CREDENTIALS_KEY (key ${keys.current.id}). ${next}\n`;
  }
  const next = prepareNextKey(settings.dataDir);
  const result = await resealSecrets(db, createVault(next, [keys.current, ...keys.others]), options);
  promoteNextKey(settings.dataDir);
  return (
    `${describeReseal(result)}, with a new key (key ${next.id}) in ${path.join(settings.dataDir, KEY_FILE)}.\n` +
    `The old key is kept as ${PREVIOUS_KEY_FILE} beside it, for backups taken before now; a backup restores its calendars only with the key it was taken under.\n`
  );
}

function describeReseal({ total, resealed, forgotten }: ResealResult): string {
  if (total === 0) return 'No calendar is connected: nothing to reseal';
  const current = total - resealed - forgotten;
  const already = current > 0 ? ` (${current} had this key already)` : '';
  const removed = forgotten > 0 ? `; removed ${calendars(forgotten)} that no key opened (${reconnect(forgotten)})` : '';
  return `Resealed ${resealed} of ${total} calendar password${total === 1 ? '' : 's'}${already}${removed}`;
}

/**
 * What `db:move` says after moving connected calendars: their passwords travel sealed, and the
 * key does not travel with them. Undefined when no calendar was moved.
 */
export function movedSecretsReminder(
  direction: { to: 'postgres' | 'embedded'; dataDir: string },
  calendarRows: number,
  settings: Pick<CredentialsSettings, 'credentialsKey'>,
): string | undefined {
  if (calendarRows === 0) return undefined;
  const moved = `${calendars(calendarRows)} moved with ${calendarRows === 1 ? 'its password' : 'their passwords'} sealed by a key that is not in the database.`;
  if (direction.to === 'postgres')
    return settings.credentialsKey
      ? `${moved} Start every server process with the same CREDENTIALS_KEY as this command had, or the server refuses to start.\n`
      : `${moved} Start every server process with CREDENTIALS_KEY set to the key file's content, e.g. CREDENTIALS_KEY=$(cat ${direction.dataDir}/${KEY_FILE}) npm start (or that value in the service's environment file); without it the server refuses to start.\n`;
  return `${moved} Start the server on ${direction.dataDir} with the same CREDENTIALS_KEY, or write that key into its key file: (umask 077; printf '%s\\n' "$CREDENTIALS_KEY" > ${direction.dataDir}/${KEY_FILE}).\n`;
}
