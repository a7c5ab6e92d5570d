import { chmodSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import type { PGlite } from '@electric-sql/pglite';
import { DataDirError } from './data-dir-errors.ts';
import { sealTarHeader, tarEntries } from './backup-tar.ts';

/**
 * DATA_DIR holds people's personal data and the admins' password hashes, in the tables and
 * in the write-ahead log. PGlite (Emscripten's file system) gave 968 of a new database's 1,046
 * files mode 0666, WAL included: readable by every local user. So every process that opens
 * DATA_DIR runs with umask 077 (`privateUmask`), refuses a DATA_DIR that other users can read
 * or enter (`refuseSharedDataDir`, as PostgreSQL refuses a data directory open to others),
 * tightens what is there (`tightenDataDir`, before and after PGlite starts), and keeps
 * PGlite's own chmod calls, which no umask limits, from granting group or others anything
 * (`keepPgliteFilesPrivate`).
 */
export const PRIVATE_UMASK = 0o077;

/** From now on this process creates files 0600 and directories 0700 at most. */
export function privateUmask(): void {
  process.umask(PRIVATE_UMASK);
}

/** Throws a one-line DataDirError when group or others may read, write or enter DATA_DIR itself. */
export function refuseSharedDataDir(dataDir: string): void {
  const mode = statSync(dataDir).mode & 0o777;
  if ((mode & 0o077) !== 0) {
    throw new DataDirError(
      `DATA_DIR ${dataDir} can be read by other users (mode ${mode.toString(8).padStart(4, '0')}): run chmod 700 ${dataDir} and start again. Nothing was changed.`,
    );
  }
}

/**
 * Files 0600 and directories 0700 under DATA_DIR, recursively (symbolic links are left alone:
 * chmod would follow them out of the directory). Cheap enough for every start
 * (docs/performance.md, "Measurements behind the code").
 */
export function tightenDataDir(dataDir: string): number {
  let changed = 0;
  for (const entry of readdirSync(dataDir, { recursive: true, withFileTypes: true })) {
    const wanted = entry.isDirectory() ? 0o700 : entry.isFile() ? 0o600 : undefined;
    if (wanted === undefined) continue;
    const file = path.join(entry.parentPath, entry.name);
    if ((statSync(file).mode & 0o777) === wanted) continue;
    chmodSync(file, wanted);
    changed++;
  }
  return changed;
}

/**
 * Sets the mode of every entry of a tar archive (ustar headers) to 0600, or 0700 for a
 * directory, and fixes each header's checksum: whoever unpacks a backup gets private files.
 * Changes `tar` in place and returns it.
 */
export function privateTarModes<T extends Uint8Array>(tar: T): T {
  for (const { header, type } of tarEntries(tar)) {
    header.set(new TextEncoder().encode(`${type === '5' ? '0000700' : '0000600'}\0`), 100);
    sealTarHeader(header);
  }
  return tar;
}

/**
 * Emscripten's file system creates a file, then chmods it to the mode PostgreSQL asked for
 * minus its own umask (022, not the process's): fopen()'s 0666 becomes 0644, and initdb's
 * files, written from JavaScript, 0666. Node's chmod ignores the process umask, so this strips
 * the group and other bits from every chmod of this PGlite instance. (Checked by
 * data-dir-modes.test.ts on a real server: no file under DATA_DIR has any of those bits.)
 */
export function keepPgliteFilesPrivate(client: PGlite): void {
  const fs = (client.Module as { FS?: { chmod?: (node: unknown, mode: number, dontFollow?: boolean) => void } }).FS;
  const chmod = fs?.chmod;
  if (!fs || typeof chmod !== 'function') return;
  fs.chmod = (node, mode, dontFollow) => chmod.call(fs, node, mode & ~0o077, dontFollow);
}
