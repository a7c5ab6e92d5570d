import { closeSync, existsSync, fsyncSync, linkSync, mkdirSync, openSync, renameSync, rmSync, writeSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { gunzip } from 'node:zlib';
import { readMigrationFiles } from 'drizzle-orm/migrator';
import { createPglite, migrationsFolder } from '../client.ts';
import { lockFilePath } from './data-dir-lock.ts';
import { tightenDataDir } from './data-dir-modes.ts';
import { tarEntries, unsafeTarEntry } from './backup-tar.ts';

/**
 * Backup files of the embedded database: a gzipped tarball of the data directory, as PGlite's
 * `dumpDataDir()` writes it and `loadDataDir` reads it (docs/decisions/005-backups.md), with
 * relative names since 2026-12 (backup-tar.ts); both forms restore.
 */
const gunzipAsync = promisify(gunzip);

/** A file that is not a usable backup of this app's database; nothing was changed. */
export class InvalidBackupError extends Error {}

export type BackupSummary = { tables: { name: string; rows: number }[]; rows: number };

async function unpack(bytes: Uint8Array): Promise<Uint8Array<ArrayBuffer>> {
  if (bytes[0] !== 0x1f || bytes[1] !== 0x8b) throw new InvalidBackupError('not a backup made by npm run backup (not a gzip file)');
  let tar: Uint8Array<ArrayBuffer>;
  try {
    tar = new Uint8Array(await gunzipAsync(bytes));
  } catch {
    throw new InvalidBackupError('the backup is damaged or cut short (its gzip data does not check out)');
  }
  let names: string[];
  try {
    names = [...tarEntries(tar)].map((entry) => entry.name.replace(/^\/+/, ''));
  } catch {
    throw new InvalidBackupError('not a backup: its archive is damaged');
  }
  if (!names.includes('PG_VERSION')) throw new InvalidBackupError('not a backup of an embedded database (no PG_VERSION in the archive)');
  // Refused before anything is unpacked: whatever PGlite would make of it.
  const unsafe = unsafeTarEntry(tar);
  if (unsafe) throw new InvalidBackupError(`not a backup made by npm run backup: it holds ${unsafe}`);
  return tar;
}

/**
 * Opens a backup as a database in `dir` (a new directory, left holding the restored data
 * directory), checks that it is this app's database, counts the rows of every table, and
 * closes it. Throws InvalidBackupError for a file that is not such a backup.
 */
export async function openBackup(bytes: Uint8Array, dir: string): Promise<BackupSummary> {
  const tar = await unpack(bytes);
  const client = createPglite({ dataDir: dir, loadDataDir: new Blob([tar], { type: 'application/x-tar' }) });
  try {
    await client.waitReady;
  } catch (err) {
    throw new InvalidBackupError(`the backup does not open as a database: ${err instanceof Error ? err.message : String(err)}`, {
      cause: err,
    });
  }
  try {
    const { rows: found } = await client.query<{ migrations: string | null; leads: string | null }>(
      `select to_regclass('drizzle.__drizzle_migrations')::text as migrations, to_regclass('public.leads')::text as leads`,
    );
    if (!found[0]?.migrations || !found[0].leads)
      throw new InvalidBackupError("the backup is a database, but not this app's (no leads or migrations tables)");
    const { rows: latest } = await client.query<{ at: string | null }>(
      'select max(created_at)::text as at from drizzle.__drizzle_migrations',
    );
    const known = Math.max(...readMigrationFiles({ migrationsFolder: migrationsFolder() }).map((m) => m.folderMillis));
    if (Number(latest[0]?.at ?? 0) > known) {
      throw new InvalidBackupError('the backup was made by a newer version of this app: update the app first, then restore');
    }
    const tables = await countRows((q) => client.query<{ name: string; rows: number }>(q).then((r) => r.rows));
    return { tables, rows: tables.reduce((sum, t) => sum + t.rows, 0) };
  } finally {
    await client.close();
    // The lock file of the process that made the backup is not part of the data.
    rmSync(lockFilePath(dir), { force: true });
    // A backup made before its entries were 0600 unpacks with the modes it recorded (0666).
    tightenDataDir(dir);
  }
}

/** One line for people: table and row counts, with the tables they know. */
export function describeSummary(summary: BackupSummary): string {
  const count = (name: string) => summary.tables.find((t) => t.name === `public.${name}`)?.rows ?? 0;
  const highlights = ['leads', 'appointments', 'notifications', 'users', 'analytics_events'].map((t) => `${t} ${count(t)}`).join(', ');
  return `${summary.tables.length} tables, ${summary.rows} rows (${highlights})`;
}

/** Every table of the app (public and the migrations' schema) with its row count. */
async function countRows(query: (sql: string) => Promise<{ name: string; rows: number }[]>) {
  const tables = await query(`
    select table_schema || '.' || table_name as name, 0 as rows from information_schema.tables
    where table_type = 'BASE TABLE' and table_schema in ('public', 'drizzle') order by 1`);
  const counted: { name: string; rows: number }[] = [];
  for (const { name } of tables) {
    const [schema, table] = name.split('.') as [string, string];
    const [row] = await query(`select '${name}' as name, count(*)::int as rows from "${schema}"."${table}"`);
    counted.push(row!);
  }
  return counted;
}

/**
 * Writes a file so that it appears complete or not at all: a temporary file, flushed to
 * disk, then linked under its name (which fails rather than overwrite an existing file).
 */
export function writeFileAtomically(file: string, bytes: Uint8Array): void {
  const dir = path.dirname(file);
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const temporary = `${file}.partial-${process.pid}`;
  const fd = openSync(temporary, 'wx', 0o600); // backups hold personal data and password hashes
  try {
    for (let written = 0; written < bytes.length; ) written += writeSync(fd, bytes, written);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  try {
    try {
      linkSync(temporary, file);
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      if (code === 'EEXIST' || existsSync(file)) throw new Error(`${file} already exists: choose another name`, { cause: err });
      renameSync(temporary, file); // a file system without hard links
    }
  } finally {
    rmSync(temporary, { force: true });
  }
  const dirFd = openSync(dir, 'r');
  try {
    fsyncSync(dirFd);
  } finally {
    closeSync(dirFd);
  }
}

/** Removes a path that may not exist (a staging or verification directory). */
export const removeQuietly = (target: string) => {
  try {
    rmSync(target, { recursive: true, force: true });
  } catch {
    // best effort: a leftover temporary directory is harmless
  }
};

/** UTC time as used in file names: 20261122T231500Z. */
export const fileTimestamp = (now = new Date()) =>
  now
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d+Z$/, 'Z');
