import { closeSync, cpSync, fsyncSync, mkdirSync, openSync, readdirSync, readFileSync, renameSync, rmdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import type { Config } from '../config.ts';
import {
  describeSummary,
  fileTimestamp,
  InvalidBackupError,
  openBackup,
  removeQuietly,
  type BackupSummary,
} from '../db/embedded/backup-archive.ts';
import { DataDirError } from '../db/embedded/data-dir-errors.ts';
import { acquireDataDirLock, DataDirLockedError, lockFilePath } from '../db/embedded/data-dir-lock.ts';
import { isCredentialsKeyFile, KEY_FILE } from '../lib/credentials-key-file.ts';
import { postgresBackupHelp } from './postgres-backup-help.ts';
import { runCommand } from './run-cli.ts';

// npm run restore -- <file>: replaces the embedded database with a backup from npm run backup.
// The server must be stopped. The file is opened and checked before DATA_DIR is touched, and
// the current data is moved aside, never deleted. Exit codes: 0 restored, 1 failed (DATA_DIR
// unchanged), 2 bad arguments, 3 DATABASE_URL is set (nothing done; pg_restore explained).
const USAGE = 'Usage: npm run restore -- <backup file>   (stop the server first)';

/** Moves a file or directory; across file systems (DATA_DIR a mount point) by copying. */
function move(from: string, to: string) {
  try {
    renameSync(from, to);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EXDEV') throw err;
    cpSync(from, to, { recursive: true, preserveTimestamps: true });
    rmSync(from, { recursive: true, force: true });
  }
}

function fsyncDir(dir: string) {
  const fd = openSync(dir, 'r');
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

/**
 * Swaps DATA_DIR's content for the staged one; returns where the old content went. Our lock file
 * stays, and so do the credentials key files: backups leave them out, and the restored calendars'
 * passwords open only with the key they were sealed with (docs/security.md, "Stored credentials").
 */
function install(dataDir: string, staging: string, aside: string): string | undefined {
  const lockName = path.basename(lockFilePath(dataDir));
  const current = readdirSync(dataDir).filter((name) => name !== lockName && !isCredentialsKeyFile(name));
  if (current.length > 0) {
    mkdirSync(aside, { mode: 0o700 });
    for (const name of current) move(path.join(dataDir, name), path.join(aside, name));
    fsyncDir(aside);
  }
  for (const name of readdirSync(staging)) {
    if (isCredentialsKeyFile(name)) rmSync(path.join(staging, name), { force: true });
    else move(path.join(staging, name), path.join(dataDir, name));
  }
  rmdirSync(staging);
  fsyncDir(dataDir);
  return current.length > 0 ? aside : undefined;
}

/** Connected calendars come back with their passwords sealed: they open with the key they were sealed with only. */
function calendarsNote(summary: BackupSummary, dataDir: string): string {
  const rows = summary.tables.find((t) => t.name === 'public.calendar_connections')?.rows ?? 0;
  if (rows === 0) return '';
  return `The backup holds ${rows} connected calendar${rows === 1 ? '' : 's'}, whose passwords open only with the key they were sealed with (${path.join(dataDir, KEY_FILE)}, kept as it was, or CREDENTIALS_KEY); the server says at start-up if that key is missing.\n`;
}

async function main(config: Config): Promise<number> {
  const args = process.argv.slice(2);
  if (args.length !== 1 || args[0]!.startsWith('-')) {
    process.stderr.write(`${USAGE}\n`);
    return 2;
  }
  const file = path.resolve(args[0]!);
  if (config.databaseUrl) {
    process.stdout.write(postgresBackupHelp(config.databaseUrl));
    return 3;
  }
  const bytes = readFileSync(file);
  const { dataDir } = config;
  // Held to the end, so no server starts on half-restored data.
  const release = await acquireDataDirLock(dataDir, 'restore').catch((err: unknown) => {
    throw err instanceof DataDirLockedError ? new DataDirError(`${err.inUse}: stop the server first, then run restore again.`) : err;
  });
  const stamp = fileTimestamp();
  const staging = `${dataDir}.restoring-${stamp}`;
  try {
    let summary;
    try {
      summary = await openBackup(bytes, staging);
    } catch (err) {
      removeQuietly(staging);
      throw err instanceof InvalidBackupError ? new InvalidBackupError(`${file}: ${err.message}.`) : err;
    }
    const aside = install(dataDir, staging, `${dataDir}.before-restore-${stamp}`);
    process.stdout.write(
      `Restored ${file} into DATA_DIR ${dataDir}: ${describeSummary(summary)}.\n` +
        (aside ? `The previous data was moved to ${aside}; delete it once you have checked the restored data.\n` : '') +
        calendarsNote(summary, dataDir) +
        'Start the server (npm start); it brings the schema up to date if the backup is from an older version.\n',
    );
    return 0;
  } finally {
    release();
  }
}

await runCommand('restore', main, 'Nothing was changed.');
