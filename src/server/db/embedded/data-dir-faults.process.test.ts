import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { migratedDataDir, runNode, startServer, stopServer, tempDir, type NodeProcess } from '../../test/process.ts';
import { createPglite } from '../client.ts';

/**
 * DATA_DIR on a read-only or full file system: start-up stops with one clear line and
 * touches nothing; a disk that fills while serving makes writes answer 503 and the data
 * stays intact. Real mounts (tmpfs, read-only bind mounts), so this needs root: skipped
 * where mounting is not permitted, except in CI, which runs as root and must run it.
 */
const mount = (...args: string[]) => execFileSync('mount', args, { stdio: ['ignore', 'pipe', 'pipe'] });
const canMount = (() => {
  const dir = tempDir('mount-probe');
  try {
    mount('-t', 'tmpfs', '-o', 'size=1m', 'tmpfs', dir);
    execFileSync('umount', [dir]);
    return true;
  } catch {
    return false;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
})();

const mounted: string[] = [];

/** A fresh tmpfs of `size` (as mount's size=), unmounted after the test. */
function tmpfsDisk(name: string, size: string): string {
  const disk = tempDir(name);
  mount('-t', 'tmpfs', '-o', `size=${size}`, 'tmpfs', disk);
  mounted.push(disk);
  return disk;
}
const servers: NodeProcess[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => stopServer(s, 'SIGKILL')));
  for (const dir of mounted.splice(0).reverse()) {
    try {
      execFileSync('umount', [dir]);
    } catch {
      execFileSync('umount', ['-l', dir]); // still busy: detach now, freed when released
    }
  }
});

const ENV = { LEAD_MIN_FILL_SECONDS: '0', LEAD_RATE_LIMIT: '0' };

const lead = (message = 'Faults') => ({
  full_name: 'Disk Lead',
  // One person per lead: a second form from the same email joins the first lead.
  email: `disk.${crypto.randomUUID()}@example.com`,
  phone: '555',
  property_types: ['land'],
  message,
  submission_id: crypto.randomUUID(),
  fill_ms: 5000,
});

const postLead = (url: string, body = lead()) =>
  fetch(`${url}/api/public/leads`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });

/** A digest of every file under `dir` (names, sizes and contents): "nothing changed" is "same digest". */
function digest(dir: string): string {
  const hash = createHash('sha256');
  const walk = (d: string) => {
    for (const name of readdirSync(d).sort()) {
      const file = path.join(d, name);
      if (statSync(file).isDirectory()) walk(file);
      else hash.update(`${path.relative(dir, file)}\0`).update(readFileSync(file));
    }
  };
  walk(dir);
  return hash.digest('hex');
}

async function storedSubmissionIds(dataDir: string): Promise<Set<string>> {
  const client = createPglite({ dataDir });
  try {
    const { rows } = await client.query<{ submission_id: string }>('select submission_id from leads where submission_id is not null');
    return new Set(rows.map((r) => r.submission_id));
  } finally {
    await client.close();
  }
}

/** The server's output must be exactly one line (no stack trace). */
async function failedStartLine(dataDir: string): Promise<string> {
  const proc = runNode('src/server/main.ts', { ...ENV, DATA_DIR: dataDir, PORT: '0' });
  servers.push(proc);
  expect(await proc.exited).toBe(1);
  const lines = proc.output().trim().split('\n');
  expect(lines, proc.output()).toHaveLength(1);
  return lines[0]!;
}

describe.skipIf(!canMount && process.env.CI !== 'true')('DATA_DIR on a read-only or full file system', () => {
  it('refuses a read-only DATA_DIR with one line and changes nothing; once writable, starts with the data intact', async () => {
    const dataDir = migratedDataDir('ro-source');
    const server = await startServer({ ...ENV, DATA_DIR: dataDir });
    servers.push(server);
    const acknowledged: string[] = [];
    for (let i = 0; i < 5; i++) {
      const body = lead();
      expect((await postLead(server.url, body)).status).toBe(201);
      acknowledged.push(body.submission_id);
    }
    expect(await stopServer(server)).toBe(0);
    const before = digest(dataDir);

    const readOnly = tempDir('ro');
    mount('--bind', dataDir, readOnly);
    mounted.push(readOnly);
    mount('-o', 'remount,bind,ro', readOnly);
    const line = await failedStartLine(readOnly);
    expect(line).toBe(
      `DATA_DIR ${readOnly} is read-only: make it writable (or set DATA_DIR to a writable directory) and start again. Nothing was changed.`,
    );
    expect(digest(dataDir)).toBe(before);

    mount('-o', 'remount,bind,rw', readOnly);
    const again = await startServer({ ...ENV, DATA_DIR: readOnly });
    servers.push(again);
    expect((await postLead(again.url)).status).toBe(201);
    expect(await stopServer(again)).toBe(0);
    const stored = await storedSubmissionIds(dataDir);
    expect(acknowledged.filter((id) => !stored.has(id))).toEqual([]);
    expect(stored.size).toBe(acknowledged.length + 1);
  }, 120_000);

  it('stops with one "no space left" line when a new database does not fit, and starts once there is room', async () => {
    const disk = tmpfsDisk('tiny', '8m');
    const dataDir = path.join(disk, 'data');
    const line = await failedStartLine(dataDir);
    expect(line).toBe(
      `No space left on DATA_DIR ${dataDir}: free some space on its disk (or set DATA_DIR to a larger one) and start again.`,
    );

    mount('-o', 'remount,size=256m', disk);
    const server = await startServer({ ...ENV, DATA_DIR: dataDir });
    servers.push(server);
    const body = lead();
    expect((await postLead(server.url, body)).status).toBe(201);
    expect(await stopServer(server)).toBe(0);
    expect(await storedSubmissionIds(dataDir)).toEqual(new Set([body.submission_id]));
  }, 120_000);

  it('answers 503 while the disk is full, keeps every acknowledged lead, and works again once space is freed', async () => {
    const disk = tmpfsDisk('fills', '128m');
    const dataDir = path.join(disk, 'data');
    const server = await startServer({ ...ENV, DATA_DIR: dataDir });
    servers.push(server);

    // Leave the database about 256 KiB: a few hundred leads with long messages fill it.
    const filler = path.join(disk, 'filler');
    const available = Number(execFileSync('df', ['-B1', '--output=avail', disk], { encoding: 'utf8' }).trim().split('\n').at(-1));
    execFileSync('fallocate', ['-l', String(available - 256 * 1024), filler]);

    const acknowledged: string[] = [];
    let full: Response | undefined;
    for (let i = 0; i < 3000 && !full; i++) {
      const body = lead(crypto.randomUUID().repeat(130)); // ~4.7 KB that barely compresses
      const res = await postLead(server.url, body);
      if (res.status === 201) acknowledged.push(body.submission_id);
      else full = res;
    }
    expect(full?.status).toBe(503);
    const error = ((await full!.json()) as { error: { code: string; message: string } }).error;
    expect(error).toMatchObject({
      code: 'service_unavailable',
      message: 'The server is out of storage space, so nothing was saved. Please try again later.',
    });
    expect(server.child.exitCode).toBeNull();

    rmSync(filler);
    const after = lead();
    expect((await postLead(server.url, after)).status).toBe(201);
    acknowledged.push(after.submission_id);
    expect((await fetch(`${server.url}/api/health`)).status).toBe(200);
    expect(await stopServer(server)).toBe(0);

    const stored = await storedSubmissionIds(dataDir);
    expect(acknowledged.filter((id) => !stored.has(id))).toEqual([]);
    console.info(
      `disk full: ${acknowledged.length} leads acknowledged before and after the disk filled, all stored; writes answered 503 while full`,
    );
  }, 120_000);
});
