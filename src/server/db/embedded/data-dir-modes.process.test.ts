import { execFileSync } from 'node:child_process';
import { chmodSync, mkdirSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runNode, startServer, stopServer, tempDir, type NodeProcess } from '../../test/process.ts';

// Who may read DATA_DIR and backups, checked on the real server and the real backup command.
const NO_POSTGRES = { DATABASE_URL: '' };
const running: NodeProcess[] = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((p) => stopServer(p, 'SIGKILL')));
});

/** Every file and directory under dir (dir included) with its permission bits, e.g. "pg_wal/000…1 0644". */
function modes(dir: string): string[] {
  const entries = readdirSync(dir, { recursive: true, withFileTypes: true }).map((e) => path.join(e.parentPath, e.name));
  return [dir, ...entries].map(
    (file) => `${path.relative(dir, file) || '.'} ${(statSync(file).mode & 0o777).toString(8).padStart(4, '0')}`,
  );
}
const sharedWithOthers = (dir: string) => modes(dir).filter((line) => (parseInt(line.split(' ').at(-1)!, 8) & 0o077) !== 0);

const ENV = { ...NO_POSTGRES, LEAD_MIN_FILL_SECONDS: '0', ADMIN_EMAIL: 'modes@example.com', ADMIN_PASSWORD: 'modes-password' };

async function submitLead(url: string) {
  const res = await fetch(`${url}/api/public/leads`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      full_name: 'Private Files',
      email: 'private@example.com',
      phone: '555',
      property_types: ['land'],
      submission_id: crypto.randomUUID(),
      fill_ms: 5000,
    }),
  });
  expect(res.status).toBe(201);
}

/**
 * A DATA_DIR a server created, took a lead in and stopped cleanly: made once by the first test
 * (or here, when that test did not run), and copied, modes and all, for each test that needs
 * one to work on. Creating a database costs a server start of several seconds.
 */
let madeByServer: Promise<string> | undefined;
async function serverMadeDataDir(): Promise<string> {
  madeByServer ??= (async () => {
    const dataDir = path.join(tempDir('modes-made'), 'data');
    const server = await startServer({ ...ENV, DATA_DIR: dataDir });
    await submitLead(server.url);
    expect(await stopServer(server)).toBe(0);
    return dataDir;
  })();
  return madeByServer;
}
async function copyOfServerMadeDataDir(prefix: string): Promise<string> {
  const dataDir = path.join(tempDir(prefix), 'data');
  execFileSync('cp', ['-a', await serverMadeDataDir(), dataDir]);
  return dataDir;
}

describe('DATA_DIR and backups are private to their owner', () => {
  it('a server on a new DATA_DIR creates no file or directory that group or others can use, WAL included', async () => {
    const dataDir = path.join(tempDir('modes-fresh'), 'data');
    const server = await startServer({ ...ENV, DATA_DIR: dataDir });
    running.push(server);
    await submitLead(server.url);
    const all = modes(dataDir);
    expect(all.length).toBeGreaterThan(900);
    expect(all.some((line) => line.startsWith('pg_wal/'))).toBe(true);
    expect(sharedWithOthers(dataDir)).toEqual([]);
    expect(all[0]).toBe('. 0700');
    expect(await stopServer(server)).toBe(0);
    expect(sharedWithOthers(dataDir)).toEqual([]);
    // The later tests work on copies of this one.
    madeByServer ??= Promise.resolve(dataDir);
  }, 60_000);

  it('refuses a DATA_DIR that others can read or enter, with one line naming chmod 700, and creates nothing in it', async () => {
    const dataDir = path.join(tempDir('modes-shared'), 'data');
    mkdirSync(dataDir);
    chmodSync(dataDir, 0o755);
    const proc = runNode('src/server/main.ts', { ...ENV, DATA_DIR: dataDir, PORT: '0' });
    running.push(proc);
    expect(await proc.exited).toBe(1);
    expect(proc.output().trim()).toBe(
      `DATA_DIR ${dataDir} can be read by other users (mode 0755): run chmod 700 ${dataDir} and start again. Nothing was changed.`,
    );
    expect(readdirSync(dataDir)).toEqual([]);
    expect(statSync(dataDir).mode & 0o777).toBe(0o755);
  }, 60_000);

  it('tightens files (0600) and directories (0700) an earlier version left open inside a private DATA_DIR', async () => {
    const dataDir = await copyOfServerMadeDataDir('modes-existing'); // 0700
    // What a server under umask 022 left behind before this fix.
    for (const line of modes(dataDir).slice(1)) {
      const file = path.join(dataDir, line.slice(0, line.lastIndexOf(' ')));
      chmodSync(file, statSync(file).isDirectory() ? 0o755 : 0o644);
    }
    expect(sharedWithOthers(dataDir).length).toBeGreaterThan(900);
    const started = Date.now();
    const second = await startServer({ ...ENV, DATA_DIR: dataDir });
    running.push(second);
    expect(sharedWithOthers(dataDir)).toEqual([]);
    expect(modes(dataDir).filter((l) => !/ 0[67]00$/.test(l))).toEqual([]);
    expect(Date.now() - started).toBeLessThan(30_000);
  }, 90_000);

  it('writes a backup file 0600 whose archive entries are 0600 (directories 0700)', async () => {
    const dataDir = await copyOfServerMadeDataDir('modes-backup');
    const backupFile = path.join(tempDir('modes-backup-out'), 'b.tar.gz');
    const backup = runNode('src/server/cli/backup.ts', { ...NO_POSTGRES, DATA_DIR: dataDir }, ['--out', backupFile]);
    expect(await backup.exited, backup.output()).toBe(0);
    expect(statSync(backupFile).mode & 0o777).toBe(0o600);
    const listing = execFileSync('tar', ['-tvzf', backupFile], { encoding: 'utf8' }).trim().split('\n');
    expect(listing.length).toBeGreaterThan(900);
    expect(listing.some((l) => l.startsWith('d'))).toBe(true);
    expect(listing.filter((l) => !l.startsWith('-rw------- ') && !l.startsWith('drwx------ '))).toEqual([]);
  }, 90_000);
});
