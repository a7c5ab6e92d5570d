import {
  chmodSync,
  closeSync,
  existsSync,
  fsyncSync,
  linkSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeSync,
} from 'node:fs';
import path from 'node:path';
import { CredentialsKey, parseCredentialsKey } from './credentials-key.ts';

/**
 * With the embedded database and no CREDENTIALS_KEY, the credentials key lives beside the
 * database in DATA_DIR, private to the server's user (0600), and is left out of backups
 * (db/embedded/pglite-snapshot.ts) and kept by a restore: a backup file alone opens no
 * calendar. A rotation (`npm run admin -- rotate-credentials-key`) writes the new key to
 * `.next`, seals every stored credential with it in one transaction, then renames the key to
 * `.previous` and `.next` to the key. Every one of the three files that exists is read, so a
 * crash between any two steps leaves every credential readable; the next load finishes a
 * rotation stopped between its two renames.
 */
export const KEY_FILE = 'credentials.key';
export const PREVIOUS_KEY_FILE = `${KEY_FILE}.previous`;
export const NEXT_KEY_FILE = `${KEY_FILE}.next`;
const TEMPORARY_PREFIX = `${KEY_FILE}.tmp-`;

/** The key files (and their temporary files): never copied into a backup, never replaced by a restore. */
export const isCredentialsKeyFile = (name: string) => name === KEY_FILE || name.startsWith(`${KEY_FILE}.`);

/** The key that seals (created on the first load) and the others that still open, or why there are none. */
export function readKeyFiles(dataDir: string): { current: CredentialsKey; others: CredentialsKey[] } | { reason: string } {
  const file = (name: string) => path.join(dataDir, name);
  try {
    // Left by a process that died while creating a key file; this process holds DATA_DIR's lock.
    if (existsSync(dataDir))
      for (const name of readdirSync(dataDir)) if (name.startsWith(TEMPORARY_PREFIX)) rmSync(file(name), { force: true });
    // Stopped between the renames: every credential is sealed with `.next` by now, so it becomes the key.
    if (!existsSync(file(KEY_FILE)) && existsSync(file(NEXT_KEY_FILE))) moveKeyFile(dataDir, NEXT_KEY_FILE, KEY_FILE);
    const current = existsSync(file(KEY_FILE)) ? readKeyFile(file(KEY_FILE)) : writeKeyFile(file(KEY_FILE), CredentialsKey.random());
    const others = [NEXT_KEY_FILE, PREVIOUS_KEY_FILE].filter((name) => existsSync(file(name))).map((name) => readKeyFile(file(name)));
    return { current, others };
  } catch (err) {
    return { reason: err instanceof Error ? err.message : String(err) };
  }
}

/** Rotation, first step: the new key in `.next` (the one a rotation cut short left there, if any). */
export function prepareNextKey(dataDir: string): CredentialsKey {
  const next = path.join(dataDir, NEXT_KEY_FILE);
  return existsSync(next) ? readKeyFile(next) : writeKeyFile(next, CredentialsKey.random());
}

/** Rotation, last step, once every credential is sealed with `.next`: the key → `.previous`, `.next` → the key. */
export function promoteNextKey(dataDir: string): void {
  if (existsSync(path.join(dataDir, KEY_FILE))) moveKeyFile(dataDir, KEY_FILE, PREVIOUS_KEY_FILE);
  moveKeyFile(dataDir, NEXT_KEY_FILE, KEY_FILE);
}

function readKeyFile(file: string): CredentialsKey {
  // Tightened, not refused: every file under DATA_DIR is made 0600 at start-up anyway
  // (docs/security.md, "Files on disk"), and a key put back with cp gets the copier's umask.
  if ((statSync(file).mode & 0o077) !== 0) chmodSync(file, 0o600);
  const key = parseCredentialsKey(readFileSync(file, 'utf8'));
  if (typeof key === 'string')
    throw new Error(
      `${file} does not hold a credentials key (32 random bytes in base64), so connected calendars cannot be opened. It was left as it is: put back a copy of the file.`,
    );
  return key;
}

/** Writes the key so that the file appears whole or not at all (a temporary file, flushed, then linked). */
function writeKeyFile(file: string, key: CredentialsKey): CredentialsKey {
  const dir = path.dirname(file);
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const temporary = path.join(dir, `${TEMPORARY_PREFIX}${process.pid}`);
  const fd = openSync(temporary, 'w', 0o600);
  try {
    writeSync(fd, `${key.toBase64()}\n`);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  try {
    linkSync(temporary, file);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'EEXIST') return readKeyFile(file);
    renameSync(temporary, file); // a file system without hard links
  } finally {
    rmSync(temporary, { force: true });
  }
  fsyncDir(dir);
  return key;
}

function moveKeyFile(dataDir: string, from: string, to: string): void {
  renameSync(path.join(dataDir, from), path.join(dataDir, to));
  fsyncDir(dataDir);
}

function fsyncDir(dir: string): void {
  const fd = openSync(dir, 'r');
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}
