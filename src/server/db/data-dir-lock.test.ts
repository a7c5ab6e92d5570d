import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../test/process.ts';
import { acquireDataDirLock, DataDirLockedError, lockFilePath } from './data-dir-lock.ts';

describe('acquireDataDirLock', () => {
  it('writes the lock file and removes it on release', async () => {
    const dir = tempDir('lockfile');
    const release = await acquireDataDirLock(dir, 'test');
    expect(existsSync(lockFilePath(dir))).toBe(true);
    release();
    expect(existsSync(lockFilePath(dir))).toBe(false);
  });

  // The lock file alone cannot tell two takers in one process apart (same pid); the kernel
  // mutex can, which is what makes a stale-lock takeover race-free between processes.
  it.runIf(process.platform === 'linux')('refuses a second taker while the kernel mutex is held, then allows it', async () => {
    const dir = tempDir('mutex');
    const release = await acquireDataDirLock(dir, 'first');
    await expect(acquireDataDirLock(dir, 'second')).rejects.toBeInstanceOf(DataDirLockedError);
    await expect(acquireDataDirLock(dir, 'second')).rejects.toThrow(`DATA_DIR ${dir} is in use by another process (first, pid ${process.pid}`);
    release();
    await new Promise((r) => setTimeout(r, 50)); // the socket closes asynchronously
    const again = await acquireDataDirLock(dir, 'second');
    again();
  });
});
