import { chmodSync, existsSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { tempDir } from '../../test/process.ts';
import { acquireDataDirLock, DataDirLockedError, lockFilePath } from './data-dir-lock.ts';

describe('acquireDataDirLock', () => {
  it('writes the lock file and removes it on release', async () => {
    const dir = tempDir('lockfile');
    const release = await acquireDataDirLock(dir, 'test');
    expect(existsSync(lockFilePath(dir))).toBe(true);
    release();
    expect(existsSync(lockFilePath(dir))).toBe(false);
  });

  it('creates a missing DATA_DIR private to its owner (0700), and refuses an existing one that others can enter', async () => {
    const dir = path.join(tempDir('newdir'), 'data');
    const release = await acquireDataDirLock(dir, 'test');
    release();
    expect(statSync(dir).mode & 0o777).toBe(0o700);

    const existing = tempDir('existing');
    chmodSync(existing, 0o750);
    await expect(acquireDataDirLock(existing, 'test')).rejects.toThrow(
      `DATA_DIR ${existing} can be read by other users (mode 0750): run chmod 700 ${existing} and start again.`,
    );
    expect(existsSync(lockFilePath(existing))).toBe(false);
    expect(statSync(existing).mode & 0o777).toBe(0o750);
  });

  // The lock file alone cannot tell two takers in one process apart (same pid); the kernel
  // mutex can, which is what makes a stale-lock takeover race-free between processes.
  it.runIf(process.platform === 'linux')('refuses a second taker while the kernel mutex is held, then allows it', async () => {
    const dir = tempDir('mutex');
    const release = await acquireDataDirLock(dir, 'first');
    await expect(acquireDataDirLock(dir, 'second')).rejects.toBeInstanceOf(DataDirLockedError);
    await expect(acquireDataDirLock(dir, 'second')).rejects.toThrow(
      `DATA_DIR ${dir} is in use by another process (first, pid ${process.pid}`,
    );
    release();
    // The kernel mutex (a socket) closes asynchronously: asked again until it is free.
    const again = await vi.waitFor(() => acquireDataDirLock(dir, 'second'), { timeout: 5_000, interval: 10 });
    again();
  });
});
