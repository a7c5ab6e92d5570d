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
 * The stored credentials in the database (`calendar_connections.secret`, and the webhook
 * endpoints' signing secrets `webhook_endpoints.secret` and `.previous_secret`, sealed by
 * lib/credentials.ts) against the keys this process has: the start-up check, the re-sealing a
 * key rotation does, and what `db:move` tells the operator. docs/security.md, "Stored credentials".
 */

/** What a connection's secret is bound to: copied into another row, it does not open. */
export const calendarSecretContext = (connectionId: string) => `calendar_connections:${connectionId}`;
/** What a webhook endpoint's secrets (current and previous) are bound to. */
export const webhookSecretContext = (endpointId: string) => `webhook_endpoints:${endpointId}`;

const calendars = (n: number) => (n === 1 ? '1 connected calendar' : `${n} connected calendars`);
const webhookSecrets = (n: number) => (n === 1 ? '1 webhook signing secret' : `${n} webhook signing secrets`);
const reconnect = (n: number) => (n === 1 ? 'its owner connects it again' : 'their owners connect them again');
const FORGET = 'npm run admin -- rotate-credentials-key --forget-unreadable';

/** Sealed values counted by what they are: the calendars' passwords and the webhooks' secrets. */
type Counts = { calendar: number; webhook: number };
const sum = (c: Counts) => c.calendar + c.webhook;
/** "2 connected calendars", "1 webhook signing secret", "1 connected calendar and 2 webhook signing secrets". */
function stored(c: Counts): string {
  const parts = [c.calendar > 0 ? calendars(c.calendar) : '', c.webhook > 0 ? webhookSecrets(c.webhook) : ''].filter(Boolean);
  return parts.join(' and ');
}
/** What the people who own them do once they are removed. */
function redo(c: Counts): string {
  const parts = [
    c.calendar > 0 ? reconnect(c.calendar) : '',
    c.webhook > 0 ? `an owner adds ${c.webhook === 1 ? 'that webhook endpoint' : 'those webhook endpoints'} again, with a new secret` : '',
  ].filter(Boolean);
  return parts.join('; ');
}

/**
 * Every sealed value in the database, with what it is: a calendar's password, a webhook
 * endpoint's secret, or its previous secret (signing beside the new one after a rotation).
 */
const SEALED_VALUES = sql`
  select 'calendar' as kind, secret as sealed from calendar_connections
  union all select 'webhook', secret from webhook_endpoints
  union all select 'webhook', previous_secret from webhook_endpoints where previous_secret is not null`;

/**
 * Why the server must not start, or undefined: connected calendars or webhook endpoints exist
 * and this process cannot open their secrets (no key at all, or not the key they were sealed
 * with). Said at once, rather than as every sync and every webhook failing after an operator
 * moved to PostgreSQL without the key. Reads only the key ids (a short hash of each key), never
 * a secret.
 */
export async function sealedSecretsProblem(
  db: Db,
  vault: CredentialsVault,
  settings: Pick<CredentialsSettings, 'credentialsKey' | 'dataDir' | 'databaseUrl'>,
): Promise<string | undefined> {
  const byKey = await queryRows(
    db,
    // A value not in the sealed form has no key to ask for: its sync (or delivery) fails alone.
    sql`select kind, split_part(sealed, '.', 2) as key_id, count(*)::int as n from (${SEALED_VALUES}) v
        where sealed ~ '^v1\\.[^.]+\\.[^.]+\\.[^.]+$' group by 1, 2 order by 2, 1`,
    z.object({ kind: z.enum(['calendar', 'webhook']), key_id: z.string(), n: z.number() }),
  );
  const countOf = (rows: typeof byKey): Counts => ({
    calendar: rows.filter((r) => r.kind === 'calendar').reduce((total, r) => total + r.n, 0),
    webhook: rows.filter((r) => r.kind === 'webhook').reduce((total, r) => total + r.n, 0),
  });
  const all = countOf(byKey);
  const total = sum(all);
  if (total === 0) return undefined;
  const keyIds = (rows: typeof byKey) => [...new Set(rows.map((row) => row.key_id))].join(', ');
  if (!vault.available) {
    // Not "make a new key": these need the very key they were sealed with.
    if (settings.databaseUrl && !settings.credentialsKey)
      return `The database holds ${stored(all)}, sealed with key ${keyIds(byKey)}, and CREDENTIALS_KEY is not set. Set it on every server process to the key they were sealed with: after a move from the embedded database, the content of its DATA_DIR's ${KEY_FILE} (CREDENTIALS_KEY=$(cat data/${KEY_FILE})).`;
    return `The database holds ${stored(all)}, whose ${all.webhook === 0 ? 'passwords' : 'secrets'} this server cannot open. ${vault.reason}`;
  }
  const known = new Set(vault.keyIds());
  const missing = byKey.filter((row) => !known.has(row.key_id));
  if (missing.length === 0) return undefined;
  const lost = countOf(missing);
  const n = sum(lost);
  const they = n === 1 ? 'it was' : 'they were';
  const setting = settings.credentialsKey
    ? `Set CREDENTIALS_KEY to the key ${they} sealed with (or keep that key as CREDENTIALS_KEY_PREVIOUS until rotate-credentials-key has run)`
    : `Put the ${KEY_FILE} file ${they} sealed with back into DATA_DIR ${settings.dataDir} (or set CREDENTIALS_KEY to its content)`;
  const subject =
    n === total ? stored(lost) : all.webhook === 0 ? `${n} of the ${total} connected calendars` : `${stored(lost)} (of ${stored(all)})`;
  return `${subject} ${n === 1 ? 'was' : 'were'} sealed with a key this server does not have (key ${keyIds(missing)}). ${setting}, then start again. If that key is lost, ${FORGET} removes ${n === 1 ? 'it' : 'them'}, and ${redo(lost)}.`;
}

/** Sealed values seen, sealed again with the current key, and removed because no key opened them. */
export type ResealCounts = { total: number; resealed: number; forgotten: number };
/** The calendars' passwords (at the top, as before webhooks), and the webhook endpoints' secrets. */
export type ResealResult = ResealCounts & { webhooks: ResealCounts };

/**
 * Seals every connection's secret and every webhook endpoint's secrets (current and previous)
 * with the vault's current key, in one transaction: each is opened with any key the vault has
 * first, so nothing changes unless all open (or, with `forgetUnreadable`, the connections and
 * endpoints whose secret no key opens are deleted in the same transaction; a previous webhook
 * secret no key opens is dropped, the endpoint kept).
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
    const webhooks = await resealWebhookSecrets(t, vault, missingKeys);
    const lost: Counts = { calendar: n, webhook: webhooks.unreadable.length + webhooks.unreadablePrevious.length };
    if (sum(lost) > 0 && !forgetUnreadable)
      throw new Error(
        `${stored(lost)} cannot be opened with any key this server has (${[...missingKeys].join('; ')}); nothing was changed. Put that key back, or run ${FORGET} to remove ${sum(lost) === 1 ? 'it' : 'them'} (${redo(lost)}).`,
      );
    if (n > 0) await execute(t, sql`delete from calendar_connections where id = any(${pgArray(unreadable)}::uuid[])`);
    if (webhooks.unreadable.length > 0)
      await execute(t, sql`delete from webhook_endpoints where id = any(${pgArray(webhooks.unreadable)}::uuid[])`);
    if (webhooks.unreadablePrevious.length > 0)
      await execute(
        t,
        sql`update webhook_endpoints set previous_secret = null, previous_secret_until = null
            where id = any(${pgArray(webhooks.unreadablePrevious)}::uuid[])`,
      );
    return {
      total: rows.length,
      resealed,
      forgotten: unreadable.length,
      webhooks: { total: webhooks.total, resealed: webhooks.resealed, forgotten: lost.webhook },
    };
  });
}

/**
 * Within resealSecrets' transaction: every webhook endpoint's secrets sealed with the vault's
 * current key (both written at once, each bound to the endpoint's row). The endpoints whose
 * current secret no key opens, and those whose previous one none opens, are returned, not changed.
 */
async function resealWebhookSecrets(t: Db, vault: Extract<CredentialsVault, { available: true }>, missingKeys: Set<string>) {
  const rows = await queryRows(
    t,
    sql`select id, secret, previous_secret from webhook_endpoints order by id for update`,
    z.object({ id: z.uuid(), secret: z.string(), previous_secret: z.string().nullable() }),
  );
  const unreadable: string[] = [];
  const unreadablePrevious: string[] = [];
  let total = 0;
  let resealed = 0;
  for (const row of rows) {
    const context = webhookSecretContext(row.id);
    const reseal = (sealed: string): string | null | undefined => {
      total++;
      try {
        const plain = vault.open(sealed, context);
        if (!needsResealing(sealed, vault)) return undefined;
        resealed++;
        return vault.seal(plain, context);
      } catch (err) {
        if (!(err instanceof SealedSecretError)) throw err;
        const keyId = sealedKeyId(sealed);
        missingKeys.add(keyId !== undefined && !vault.keyIds().includes(keyId) ? `sealed with key ${keyId}` : 'damaged or changed');
        return null;
      }
    };
    const secret = reseal(row.secret);
    const previous = row.previous_secret === null ? undefined : reseal(row.previous_secret);
    if (secret === null) unreadable.push(row.id);
    else if (previous === null) unreadablePrevious.push(row.id);
    if (secret === null || (secret === undefined && previous == null)) continue;
    await execute(
      t,
      sql`update webhook_endpoints set secret = ${secret ?? row.secret}, previous_secret = ${previous ?? row.previous_secret} where id = ${row.id}`,
    );
  }
  return { total, resealed, unreadable, unreadablePrevious };
}

/**
 * `npm run admin -- rotate-credentials-key`: every connected calendar's password and every
 * webhook endpoint's secrets sealed with a new key; returns what the command prints. With CREDENTIALS_KEY the operator has already set
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

function describeReseal({ total, resealed, forgotten, webhooks }: ResealResult): string {
  if (total === 0 && webhooks.total === 0) return 'No calendar is connected and no webhook endpoint added: nothing to reseal';
  const parts: string[] = [];
  if (total > 0) {
    const current = total - resealed - forgotten;
    const already = current > 0 ? ` (${current} had this key already)` : '';
    const removed = forgotten > 0 ? `; removed ${calendars(forgotten)} that no key opened (${reconnect(forgotten)})` : '';
    parts.push(`Resealed ${resealed} of ${total} calendar password${total === 1 ? '' : 's'}${already}${removed}`);
  }
  if (webhooks.total > 0) {
    const current = webhooks.total - webhooks.resealed - webhooks.forgotten;
    const already = current > 0 ? ` (${current} had this key already)` : '';
    const removed =
      webhooks.forgotten > 0
        ? `; dropped ${webhookSecrets(webhooks.forgotten)} that no key opened (${redo({ calendar: 0, webhook: webhooks.forgotten })})`
        : '';
    parts.push(
      `${parts.length > 0 ? 'resealed' : 'Resealed'} ${webhooks.resealed} of ${webhookSecrets(webhooks.total)}${already}${removed}`,
    );
  }
  return parts.join('; ');
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
