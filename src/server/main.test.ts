import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { lockFilePath } from './db/embedded/data-dir-lock.ts';
import { runNode, startServer, stopServer, tempDir, type ServerProcess } from './test/process.ts';

// Process-level behaviour of `node dist/server/main.js` (run here from source).
const running: ServerProcess[] = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((p) => stopServer(p, 'SIGKILL')));
});

describe('server start-up and shutdown', () => {
  it('stops on a bad value with one clear line and no stack trace', async () => {
    const proc = runNode('src/server/main.ts', { PORT: '99999', DATA_DIR: tempDir('bad') });
    expect(await proc.exited).toBe(1);
    expect(proc.output().trim()).toBe('Invalid configuration: PORT must be a whole number from 0 to 65535, got "99999"');
  });

  it('refuses a second server on the same DATA_DIR with one line saying what to do', async () => {
    const dataDir = tempDir('lock');
    const first = await startServer({ DATA_DIR: dataDir });
    running.push(first);
    const second = runNode('src/server/main.ts', { DATA_DIR: dataDir, PORT: '0' });
    expect(await second.exited).toBe(1);
    const lines = second.output().trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain(`DATA_DIR ${dataDir} is in use by another process (server, pid ${first.child.pid}`);
    expect(lines[0]).toContain('stop that process first');
    // The first server is unharmed.
    expect((await fetch(`${first.url}/api/health`)).status).toBe(200);
  });

  it('stops `npm run seed:demo` with one line while the server holds DATA_DIR', async () => {
    const dataDir = tempDir('seedlock');
    const server = await startServer({ DATA_DIR: dataDir });
    running.push(server);
    const seed = runNode('src/server/cli/seed-demo.ts', { DATA_DIR: dataDir });
    expect(await seed.exited).toBe(1);
    const lines = seed.output().trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^seed:demo: DATA_DIR .* is in use by another process \(server, pid \d+/);
  });

  it('takes over a lock left by a killed process', async () => {
    const dataDir = tempDir('stale');
    const first = await startServer({ DATA_DIR: dataDir });
    await stopServer(first, 'SIGKILL');
    const second = await startServer({ DATA_DIR: dataDir });
    running.push(second);
    expect((await fetch(`${second.url}/api/health`)).status).toBe(200);
  });

  it('takes over a lock file whose pid is not running', async () => {
    const dataDir = tempDir('deadpid');
    const first = await startServer({ DATA_DIR: dataDir });
    await stopServer(first);
    writeFileSync(lockFilePath(dataDir), JSON.stringify({ pid: 2 ** 22 + 12345, hostname: (await import('node:os')).hostname(), purpose: 'server', since: '' }));
    const second = await startServer({ DATA_DIR: dataDir });
    running.push(second);
  });

  it('finishes in-flight requests on SIGTERM, closes the database and releases the lock', async () => {
    const dataDir = tempDir('term');
    const server = await startServer({ DATA_DIR: dataDir, LEAD_MIN_FILL_SECONDS: '0', LEAD_RATE_LIMIT: '0' });
    const submissions = Array.from({ length: 20 }, () =>
      fetch(`${server.url}/api/public/leads`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          full_name: 'In Flight',
          email: 'flight@example.com',
          phone: '1',
          property_types: ['land'],
          submission_id: crypto.randomUUID(),
          fill_ms: 5000,
        }),
      }).then((r) => r.status),
    );
    await new Promise((r) => setTimeout(r, 5));
    server.child.kill('SIGTERM');
    const statuses = await Promise.allSettled(submissions);
    expect(await server.exited).toBe(0);
    expect(server.output()).not.toMatch(/error/i);
    // Every request the server accepted got its answer; none was cut off with a 5xx.
    for (const s of statuses) if (s.status === 'fulfilled') expect(s.value).toBe(201);
    const { existsSync } = await import('node:fs');
    expect(existsSync(lockFilePath(dataDir))).toBe(false);
    expect(existsSync(path.join(dataDir, 'PG_VERSION'))).toBe(true);
  });
});
