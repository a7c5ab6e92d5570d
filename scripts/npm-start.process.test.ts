import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { lockFilePath } from '../src/server/db/embedded/data-dir-lock.ts';
import { tempDir } from '../src/server/test/process.ts';
// @ts-expect-error -- a plain ES module script, without types
import { sourcesHash, STAMP } from './build-if-stale.mjs';

// `npm start` as a person runs it: stopping npm (SIGTERM from a supervisor, or Ctrl-C's SIGINT)
// stops the server it started, frees the port and releases the data directory. And the
// command-line tools through npm: built, like the server, after a build when the sources
// changed. One file, so its tests run one after the other: each may build into dist/.
const ROOT = path.resolve(import.meta.dirname, '..');
const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};
const leftovers: number[] = [];
afterEach(() => {
  for (const pid of leftovers.splice(0)) if (alive(pid)) process.kill(pid, 'SIGKILL');
});

async function startWithNpm(dataDir: string) {
  // The server's own listen(0) answer gives the port; JSON logs, so the line is easy to find.
  const child = spawn('npm', ['start', '--silent'], {
    cwd: ROOT,
    env: { ...process.env, DATA_DIR: dataDir, PORT: '0', HOST: '127.0.0.1', LOG_FORMAT: 'json', LOG_LEVEL: 'info', DATABASE_URL: '' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (d: Buffer) => (output += d.toString()));
  child.stderr.on('data', (d: Buffer) => (output += d.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code, signal) => resolve(code ?? (signal ? 128 : null))));
  const port = await new Promise<number>((resolve, reject) => {
    const check = () => {
      const ready = output.split('\n').some((line) => line.includes('"event":"ready"'));
      const listening = /"port":(\d+)/.exec(output);
      if (ready && listening) resolve(Number(listening[1]));
    };
    child.stdout.on('data', check);
    void exited.then((code) => reject(new Error(`npm start exited (${code}) before the server was ready: ${output}`)));
  });
  const serverPid = (JSON.parse(readFileSync(lockFilePath(dataDir), 'utf8')) as { pid: number }).pid;
  leftovers.push(serverPid);
  return { child, exited, port, serverPid, output: () => output };
}

describe('npm start', () => {
  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    it(`stops its server on ${signal}: the port is free and the data directory released`, async () => {
      const dataDir = tempDir('npm-start');
      const run = await startWithNpm(dataDir);
      expect(run.serverPid).not.toBe(run.child.pid);
      expect((await fetch(`http://127.0.0.1:${run.port}/api/health`)).status).toBe(200);
      run.child.kill(signal);
      await run.exited;
      // The server finishes and exits on its own (it may take a moment after npm does).
      const deadline = Date.now() + 15_000;
      while (alive(run.serverPid) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
      expect(alive(run.serverPid), `node dist/server/main.js (pid ${run.serverPid}) still runs after npm start got ${signal}`).toBe(false);
      await expect(fetch(`http://127.0.0.1:${run.port}/api/health`)).rejects.toThrow();
      expect(existsSync(lockFilePath(dataDir))).toBe(false);
      expect(run.output()).toContain('stopped cleanly');
    }, 240_000);
  }
});

const npmRun = (script: string, args: string[], dataDir: string, input = '') => {
  const r = spawnSync('npm', ['run', '--silent', script, '--', ...args], {
    cwd: ROOT,
    input,
    env: { ...process.env, DATA_DIR: dataDir, DATABASE_URL: '' },
    encoding: 'utf8',
  });
  return { code: r.status, out: r.stdout, err: r.stderr };
};

describe('npm run admin', () => {
  it('runs the built tool, with the piped password and nothing but its answer on stdout', () => {
    const dataDir = tempDir('npm-admin');
    // The first one builds when the sources changed since the last build (a fresh checkout).
    const created = npmRun('admin', ['create', 'npm-owner@example.com'], dataDir, 'npm-owner-password\n');
    expect(created, created.err).toMatchObject({ code: 0, out: 'Created owner npm-owner <npm-owner@example.com>.\n' });
    expect(existsSync(path.join(ROOT, 'dist/server/cli/admin.js'))).toBe(true);
    expect(readFileSync(path.join(ROOT, STAMP as string), 'utf8').trim()).toBe((sourcesHash as (root: string) => string)(ROOT));

    const listed = npmRun('admin', ['list'], dataDir);
    expect(listed.code).toBe(0);
    expect(listed.out).toMatch(/^npm-owner@example\.com\towner\tactive\t-\t\d{4}-[^\t]+\tnpm-owner\n$/);
    expect(listed.err).toBe('');
    // The tool's own exit code comes back through npm.
    expect(npmRun('admin', ['frobnicate'], dataDir).code).toBe(2);
    // A build on a 2-core machine takes minutes while other tests run.
  }, 600_000);
});
