import { createHash } from 'node:crypto';
import { closeSync, mkdirSync, openSync, readFileSync, realpathSync, unlinkSync, writeSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { DataDirError, dataDirError } from './data-dir-errors.ts';
import { refuseSharedDataDir, tightenDataDir } from './data-dir-modes.ts';

/**
 * PGlite takes no lock on its data directory, and two processes writing one directory
 * silently lose committed rows (measured: 15,242 of 19,100). So every process that opens
 * DATA_DIR holds this lock file for its whole life. A lock left by a killed process is
 * recognised by its dead pid and taken over.
 *
 * On Linux the process also binds an abstract Unix socket named after the directory: the
 * kernel lets one process bind a name and frees it when the process dies, however it dies.
 * That makes the check-then-take-over of a stale lock file race-free between processes of
 * one host. The lock file still guards hosts sharing a directory (its hostname check).
 */
export class DataDirLockedError extends DataDirError {
  /**
   * `inUse` says who holds DATA_DIR ("DATA_DIR /srv/data is in use by another process (server,
   * pid 42 on web1)"); the message adds what to do, which a command may say its own way.
   */
  constructor(
    readonly inUse: string,
    advice: string,
  ) {
    super(`${inUse}. ${advice}`);
  }
}

type LockInfo = { pid: number; hostname: string; purpose: string; since: string };

export const lockFilePath = (dataDir: string) => path.join(dataDir, 'crm.lock');

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function readLock(file: string): LockInfo | undefined {
  try {
    return JSON.parse(readFileSync(file, 'utf8')) as LockInfo;
  } catch {
    return undefined; // vanished, or half-written by a process that died mid-write
  }
}

const ONE_AT_A_TIME =
  'The embedded database allows one process at a time: stop that process first, or set DATABASE_URL to a PostgreSQL server to run several.';

function lockedError(dataDir: string, holder: LockInfo | undefined, more = ''): DataDirLockedError {
  const who = holder ? `${holder.purpose}, pid ${holder.pid} on ${holder.hostname}` : 'another process';
  return new DataDirLockedError(`DATA_DIR ${dataDir} is in use by another process (${who})`, `${ONE_AT_A_TIME}${more}`);
}

/** Binds the directory's abstract socket (Linux); undefined where there is none. */
function bindHostMutex(dataDir: string): Promise<net.Server | undefined> {
  if (process.platform !== 'linux') return Promise.resolve(undefined);
  const digest = createHash('sha256').update(realpathSync(dataDir)).digest('hex').slice(0, 40);
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', (err: NodeJS.ErrnoException) => {
      if (err.code === 'EADDRINUSE') reject(lockedError(dataDir, readLock(lockFilePath(dataDir))));
      else resolve(undefined); // no abstract sockets here (e.g. a sandbox): the lock file alone
    });
    server.listen({ path: `\0due-diligence-crm-${digest}` }, () => {
      server.unref();
      resolve(server);
    });
  });
}

export async function acquireDataDirLock(dataDir: string, purpose: string): Promise<() => void> {
  // A read-only, unwritable or full DATA_DIR is found here, before the database is touched.
  // A new one is private to its owner (0700, as PostgreSQL's own data directories): it holds
  // people's personal data and password hashes. One that others can read or enter is refused
  // before anything is written in it (data-dir-modes.ts).
  try {
    mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  } catch (err) {
    throw dataDirError(dataDir, err) ?? err;
  }
  refuseSharedDataDir(dataDir);
  const mutex = await bindHostMutex(dataDir);
  try {
    let releaseFile: () => void;
    try {
      releaseFile = acquireLockFile(dataDir, purpose);
    } catch (err) {
      throw err instanceof DataDirError ? err : (dataDirError(dataDir, err) ?? err);
    }
    try {
      // Files an earlier version (or a copy) left readable by others: 0600, directories 0700.
      tightenDataDir(dataDir);
    } catch (err) {
      releaseFile();
      throw err instanceof DataDirError ? err : (dataDirError(dataDir, err) ?? err);
    }
    return () => {
      releaseFile();
      mutex?.close();
    };
  } catch (err) {
    mutex?.close();
    throw err;
  }
}

function acquireLockFile(dataDir: string, purpose: string): () => void {
  const file = lockFilePath(dataDir);
  const me: LockInfo = { pid: process.pid, hostname: os.hostname(), purpose, since: new Date().toISOString() };
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      const fd = openSync(file, 'wx', 0o600);
      writeSync(fd, JSON.stringify(me));
      closeSync(fd);
      let released = false;
      const release = () => {
        if (released) return;
        released = true;
        if (readLock(file)?.pid === process.pid) unlinkSync(file);
      };
      process.once('exit', release);
      return release;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    }
    const holder = readLock(file);
    const sameHost = holder === undefined || holder.hostname === me.hostname;
    if (holder && holder.pid !== process.pid && (!sameHost || isAlive(holder.pid))) {
      throw lockedError(dataDir, holder, ` If no such process is running, delete ${file}.`);
    }
    try {
      unlinkSync(file); // stale: its process is gone
    } catch {
      // another process removed it first; try again
    }
  }
  throw new DataDirLockedError(`Could not lock DATA_DIR ${dataDir}`, 'Another process keeps taking it.');
}
