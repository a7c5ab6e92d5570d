import { existsSync, mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Config } from '../config.ts';
import { backupSocketPath, NoBackupServerError, requestBackup } from '../db/embedded/backup-control.ts';
import {
  describeSummary,
  fileTimestamp,
  openBackup,
  removeQuietly,
  writeFileAtomically,
  type BackupSummary,
} from '../db/embedded/backup-archive.ts';
import { createPglite } from '../db/client.ts';
import { acquireDataDirLock, DataDirLockedError } from '../db/embedded/data-dir-lock.ts';
import { keepPgliteFilesPrivate } from '../db/embedded/data-dir-modes.ts';
import { snapshotPglite } from '../db/embedded/pglite-snapshot.ts';
import { postgresBackupHelp } from './postgres-backup-help.ts';
import { runCommand } from './run-cli.ts';

// npm run backup [-- --out <file> | --out-dir <dir>]: a consistent, checked backup of the embedded database,
// taken by the running server if there is one. Exit codes: 0 written, 1 failed (nothing
// written), 2 bad arguments, 3 DATABASE_URL is set (nothing done; pg_dump explained).
const USAGE = 'Usage: npm run backup [-- --out <file> | --out-dir <directory>]   (default: backups/backup-<UTC time>.tar.gz)';

function parseArgs(args: string[]): { out?: string; outDir?: string } | undefined {
  if (args.length === 0) return {};
  if (args.length === 2 && args[0] === '--out' && args[1]) return { out: args[1] };
  // A timer's runs: each backup gets its own timestamped name in the directory.
  if (args.length === 2 && args[0] === '--out-dir' && args[1]) return { outDir: args[1] };
  if (args.length === 1 && args[0]!.startsWith('--out=') && args[0]!.length > 6) return { out: args[0]!.slice(6) };
  return undefined;
}

/** The backup's bytes: from the server holding DATA_DIR, or from DATA_DIR itself when none does. */
async function takeBackup(dataDir: string): Promise<{ bytes: Uint8Array; source: string }> {
  if (!existsSync(path.join(dataDir, 'PG_VERSION'))) throw new Error(`no database in DATA_DIR ${dataDir}: nothing to back up`);
  let release: () => void;
  try {
    release = await acquireDataDirLock(dataDir, 'backup');
  } catch (err) {
    if (!(err instanceof DataDirLockedError)) throw err;
    try {
      return { bytes: await requestBackup(backupSocketPath(dataDir)), source: 'taken by the running server' };
    } catch (requestErr) {
      if (!(requestErr instanceof NoBackupServerError)) throw requestErr;
      throw new Error(`${err.message} It does not answer backup requests (${requestErr.message}); once it has stopped, run backup again.`, {
        cause: requestErr,
      });
    }
  }
  try {
    const client = createPglite({ dataDir });
    await client.waitReady;
    keepPgliteFilesPrivate(client);
    try {
      return { bytes: await snapshotPglite(client), source: 'no server was running' };
    } finally {
      await client.close();
    }
  } finally {
    release();
  }
}

/** Opens the backup in a scratch directory: a file that does not open is never written. */
async function check(bytes: Uint8Array): Promise<BackupSummary> {
  const scratch = mkdtempSync(path.join(os.tmpdir(), 'crm-backup-check-'));
  try {
    return await openBackup(bytes, path.join(scratch, 'data'));
  } finally {
    removeQuietly(scratch);
  }
}

const formatSize = (bytes: number) => (bytes < 1024 * 1024 ? `${(bytes / 1024).toFixed(1)} KB` : `${(bytes / 1024 / 1024).toFixed(1)} MB`);

async function main(config: Config): Promise<number> {
  const args = parseArgs(process.argv.slice(2));
  if (!args) {
    process.stderr.write(`${USAGE}\n`);
    return 2;
  }
  if (config.databaseUrl) {
    process.stdout.write(postgresBackupHelp(config.databaseUrl));
    return 3;
  }
  const out = path.resolve(args.out ?? path.join(args.outDir ?? 'backups', `backup-${fileTimestamp()}.tar.gz`));
  if (existsSync(out)) throw new Error(`${out} already exists: choose another name`);
  const { bytes, source } = await takeBackup(config.dataDir);
  const summary = await check(bytes);
  writeFileAtomically(out, bytes);
  process.stdout.write(
    `Backup written: ${out} (${formatSize(bytes.length)}; ${source}).\nChecked: it opens, ${describeSummary(summary)}.\n`,
  );
  return 0;
}

await runCommand('backup', main, 'No backup was written.');
