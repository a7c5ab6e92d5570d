import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { readKeyFiles } from './credentials-key-file.ts';
import type { CredentialsKey } from './credentials-key.ts';

/**
 * Passwords of outside services that the server must send again later (a calendar's secret
 * address, a CalDAV account), stored sealed: AES-256-GCM under a key that is not in the
 * database, so a copy of the database or of a backup opens none of them. Each sealed value is
 * bound to its place (`context`, e.g. `calendar_connections:<row id>`, the cipher's additional
 * authenticated data): copied into another row, it no longer opens. docs/security.md,
 * "Stored credentials", says where the key lives and how it is rotated.
 */

/** A stored credential that does not open; the message holds no secret, at most the key's id. */
export class SealedSecretError extends Error {}

export type CredentialsVault =
  | {
      available: true;
      seal(plain: string, context: string): string;
      open(sealed: string, context: string): string;
      /** The ids of every key it opens with, the current one (which seals) first. */
      keyIds(): string[];
    }
  | { available: false; reason: string };

/** What loadCredentialsVault reads (Config's fields of the same names; CREDENTIALS_KEY and CREDENTIALS_KEY_PREVIOUS parsed). */
export type CredentialsSettings = {
  credentialsKey: CredentialsKey | undefined;
  credentialsKeyPrevious: CredentialsKey | undefined;
  dataDir: string;
  databaseUrl: string | undefined;
};

export const NEEDS_CREDENTIALS_KEY =
  'Connecting calendars needs CREDENTIALS_KEY: set it to 32 random bytes (openssl rand -base64 32) on every server process.';

const VERSION = 'v1';
const IV_BYTES = 12; // GCM's own nonce size (NIST SP 800-38D, 8.2)
const TAG_BYTES = 16;

/** The id of the key a sealed value names, if it is in the sealed form at all. */
export function sealedKeyId(sealed: string): string | undefined {
  const parts = sealed.split('.');
  return parts.length === 4 && parts[0] === VERSION ? parts[1] : undefined;
}

/** A vault that seals with `current` and opens with it and `others`. */
export function createVault(current: CredentialsKey, others: readonly CredentialsKey[] = []): CredentialsVault {
  const keys = new Map<string, CredentialsKey>([[current.id, current]]);
  for (const key of others) if (!keys.has(key.id)) keys.set(key.id, key);
  return {
    available: true,
    keyIds: () => [...keys.keys()],
    seal(plain, context) {
      const iv = randomBytes(IV_BYTES);
      const cipher = createCipheriv('aes-256-gcm', current.bytes(), iv, { authTagLength: TAG_BYTES });
      cipher.setAAD(Buffer.from(context, 'utf8'));
      const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final(), cipher.getAuthTag()]);
      return [VERSION, current.id, iv.toString('base64url'), body.toString('base64url')].join('.');
    },
    open(sealed, context) {
      const keyId = sealedKeyId(sealed);
      const [, , ivText = '', bodyText = ''] = sealed.split('.');
      const iv = Buffer.from(ivText, 'base64url');
      const body = Buffer.from(bodyText, 'base64url');
      if (keyId === undefined || iv.length !== IV_BYTES || body.length < TAG_BYTES)
        throw new SealedSecretError('A stored credential is damaged: it is not in the form this server writes.');
      const key = keys.get(keyId);
      if (!key) throw new SealedSecretError(`A stored credential was sealed with a key this server does not have (key ${keyId}).`);
      const decipher = createDecipheriv('aes-256-gcm', key.bytes(), iv, { authTagLength: TAG_BYTES });
      decipher.setAAD(Buffer.from(context, 'utf8'));
      decipher.setAuthTag(body.subarray(body.length - TAG_BYTES));
      try {
        return Buffer.concat([decipher.update(body.subarray(0, body.length - TAG_BYTES)), decipher.final()]).toString('utf8');
      } catch {
        throw new SealedSecretError(
          `A stored credential does not open with its key (key ${keyId}): it was changed, or it belongs to another record.`,
        );
      }
    },
  };
}

/** True when `sealed` names a key other than the vault's current one (rotate-credentials-key seals it again). */
export function needsResealing(sealed: string, vault: CredentialsVault): boolean {
  return vault.available && sealedKeyId(sealed) !== vault.keyIds()[0];
}

/**
 * The keys the settings name: CREDENTIALS_KEY (and CREDENTIALS_KEY_PREVIOUS) when set; else,
 * with the embedded database only, the key files in DATA_DIR (the first load creates
 * `credentials.key`); else none, with the sentence that tells the operator what to set. With
 * PostgreSQL a key file would be one process's alone, and every other process (or a new
 * machine) would hold calendars it cannot open.
 */
export function loadCredentialsKeys(
  settings: CredentialsSettings,
): { current: CredentialsKey; others: CredentialsKey[] } | { reason: string } {
  const previous = settings.credentialsKeyPrevious ? [settings.credentialsKeyPrevious] : [];
  if (settings.credentialsKey) return { current: settings.credentialsKey, others: previous };
  if (settings.databaseUrl) return { reason: NEEDS_CREDENTIALS_KEY };
  const files = readKeyFiles(settings.dataDir);
  if ('reason' in files) return files;
  return { current: files.current, others: [...files.others, ...previous] };
}

export function loadCredentialsVault(settings: CredentialsSettings): CredentialsVault {
  const keys = loadCredentialsKeys(settings);
  return 'reason' in keys ? { available: false, reason: keys.reason } : createVault(keys.current, keys.others);
}
