import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { lockFilePath } from './db/embedded/data-dir-lock.ts';
import { withPgliteDir } from './test/database.ts';
import { runNode, migratedDataDir, signInOverHttp, startServer, stopServer, tempDir, type NodeProcess } from './test/process.ts';

// Process-level behaviour of `node dist/server/main.js` (run here from the current source), on
// migrated data directories: a first start on a new one is data-dir-modes' and npm start's subject.
const running: NodeProcess[] = [];
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
    const dataDir = migratedDataDir('lock');
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
    const dataDir = migratedDataDir('seedlock');
    const server = await startServer({ DATA_DIR: dataDir });
    running.push(server);
    const seed = runNode('src/server/cli/seed-demo.ts', { DATA_DIR: dataDir });
    expect(await seed.exited).toBe(1);
    const lines = seed.output().trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^seed:demo: DATA_DIR .* is in use by another process \(server, pid \d+/);
  });

  it('refuses a database whose clock a test set, outside tests, with one line saying how to remove it', async () => {
    const dataDir = migratedDataDir('test-clock');
    // A setting the database reads as it opens (PGlite reads postgresql.auto.conf; it ignores ALTER DATABASE's).
    await withPgliteDir(dataDir, (client) => client.exec(`ALTER SYSTEM SET crm.test_now = '2031-03-04T05:06:07Z'`));
    const refused = runNode('src/server/main.ts', { DATA_DIR: dataDir, PORT: '0', NODE_ENV: 'production' });
    expect(await refused.exited).toBe(1);
    const lines = refused.output().trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain(
      `Could not open the database (DATA_DIR ${dataDir}): the database sets a test clock (crm.test_now = '2031-03-04`,
    );
    expect(lines[0]).toContain('RESET crm.test_now');
    // Under NODE_ENV=test the same database serves (and the refusal left DATA_DIR unlocked).
    const server = await startServer({ DATA_DIR: dataDir, NODE_ENV: 'test' });
    running.push(server);
    expect((await fetch(`${server.url}/api/health`)).status).toBe(200);
  });

  it('with PORT=0 the set-up link carries the port it was given, and opens the set-up page', async () => {
    const proc = runNode('src/server/main.ts', {
      HOST: '127.0.0.1',
      PORT: '0',
      DATA_DIR: migratedDataDir('port0'),
      DATABASE_URL: '',
      LOG_FORMAT: 'json',
    });
    running.push(proc);
    const firstRun = () =>
      proc
        .output()
        .split('\n')
        .find((line) => line.includes('"event":"first_run"'));
    // A real server has to start and log: wait on its output, bounded.
    for (const deadline = Date.now() + 60_000; !firstRun() && proc.child.exitCode === null && Date.now() < deadline; )
      await new Promise((r) => setTimeout(r, 50));
    const link = new URL((JSON.parse(firstRun() ?? '{}') as { setupUrl?: string }).setupUrl ?? 'http://missing');
    expect(link.hostname).toBe('127.0.0.1');
    expect(Number(link.port)).toBeGreaterThan(0);
    // The parent that spawned it with an IPC channel is told the same port, whatever the log says.
    expect(await proc.listening).toBe(Number(link.port));
    const page = await fetch(link);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('<div id="root"');
  });

  it('logs a calendar feed request without the feed’s token', async () => {
    const server = await startServer({
      DATA_DIR: migratedDataDir('feedlog'),
      DATABASE_URL: '',
      LOG_LEVEL: 'info',
      ADMIN_EMAIL: 'feedlog@example.com',
      ADMIN_PASSWORD: 'feedlog-password',
    });
    running.push(server);
    const cookie = await signInOverHttp(server.url, { email: 'feedlog@example.com', password: 'feedlog-password' });
    const created = await fetch(`${server.url}/api/calendar-feed`, { method: 'POST', headers: { cookie, origin: server.url } });
    expect(created.status).toBe(201);
    const url = new URL(((await created.json()) as { url: string }).url);
    const token = url.pathname.split('/')[3]!;
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    for (let poll = 0; poll < 3; poll++) expect((await fetch(`${server.url}${url.pathname}`)).status).toBe(200);
    // The log lines come through the child's stdout pipe: wait until all three have arrived.
    const feedLines = () =>
      server
        .output()
        .split('\n')
        .filter((line) => line.includes('/api/calendar/'));
    for (const deadline = Date.now() + 5000; feedLines().length < 3 && Date.now() < deadline; ) await new Promise((r) => setTimeout(r, 20));
    expect(feedLines()).toHaveLength(3);
    for (const line of feedLines())
      expect(JSON.parse(line)).toMatchObject({ msg: 'request', path: '/api/calendar/***/appointments.ics', status: 200 });
    expect(server.output()).not.toContain(token);
  });

  // The lock file names the process that holds DATA_DIR; a takeover must hand it to the new one.
  const lockHolder = (dataDir: string) => (JSON.parse(readFileSync(lockFilePath(dataDir), 'utf8')) as { pid: number }).pid;

  it('takes over a lock left by a killed process: the new server holds it and the data is intact', async () => {
    const dataDir = migratedDataDir('stale');
    const first = await startServer({
      DATA_DIR: dataDir,
      LEAD_MIN_FILL_SECONDS: '0',
      ADMIN_EMAIL: 'lock@example.com',
      ADMIN_PASSWORD: 'lock-password',
    });
    expect((await submitLead(first.url, 'Before The Kill')).status).toBe(201);
    await stopServer(first, 'SIGKILL');
    expect(existsSync(lockFilePath(dataDir))).toBe(true); // left behind by the killed server

    const second = await startServer({ DATA_DIR: dataDir });
    running.push(second);
    expect(lockHolder(dataDir)).toBe(second.child.pid);
    const cookie = await signInOverHttp(second.url, { email: 'lock@example.com', password: 'lock-password' });
    const leads = (await (await fetch(`${second.url}/api/leads`, { headers: { cookie } })).json()) as { leads: { full_name: string }[] };
    expect(leads.leads.map((l) => l.full_name)).toEqual(['Before The Kill']);
  });

  it('takes over a lock file whose pid is not running, and writes its own pid in it', async () => {
    const dataDir = migratedDataDir('deadpid');
    const first = await startServer({ DATA_DIR: dataDir });
    await stopServer(first);
    const deadPid = 2 ** 22 + 12345;
    writeFileSync(lockFilePath(dataDir), JSON.stringify({ pid: deadPid, hostname: os.hostname(), purpose: 'server', since: '' }));
    const second = await startServer({ DATA_DIR: dataDir });
    running.push(second);
    expect(lockHolder(dataDir)).toBe(second.child.pid);
    expect((await fetch(`${second.url}/api/health`)).status).toBe(200);
  });

  it('stops on SIGTERM once nobody reads its log (the pipe to its collector closed)', async () => {
    const dataDir = migratedDataDir('no-reader');
    // Lines at info, as JSON: the request log and the shutdown's lines go to stdout.
    const server = await startServer({ DATA_DIR: dataDir, LOG_LEVEL: 'info', LOG_FORMAT: 'json' });
    server.child.stdout!.destroy(); // the log's reader is gone: each line written now is EPIPE
    // The first lines written after that are the shutdown's own.
    server.child.kill('SIGTERM');
    expect(await server.exited).toBe(0);
    expect(existsSync(lockFilePath(dataDir))).toBe(false);
  });

  it('finishes in-flight requests on SIGTERM, closes the database and releases the lock', async () => {
    const dataDir = migratedDataDir('term');
    const server = await startServer({ DATA_DIR: dataDir, LEAD_MIN_FILL_SECONDS: '0', LEAD_RATE_LIMIT: '0' });
    const submissions = Array.from({ length: 20 }, () => submitLead(server.url, 'In Flight').then((r) => r.status));
    await new Promise((r) => setTimeout(r, 5)); // a real wait: some requests reach the server process before the signal
    server.child.kill('SIGTERM');
    const statuses = await Promise.allSettled(submissions);
    expect(await server.exited).toBe(0);
    expect(server.output()).not.toMatch(/error/i);
    // Every request the server accepted got its answer; none was cut off with a 5xx.
    for (const s of statuses) if (s.status === 'fulfilled') expect(s.value).toBe(201);
    expect(existsSync(lockFilePath(dataDir))).toBe(false);
    expect(existsSync(path.join(dataDir, 'PG_VERSION'))).toBe(true);
  });
});

function submitLead(url: string, fullName: string) {
  return fetch(`${url}/api/public/leads`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      full_name: fullName,
      email: 'flight@example.com',
      phone: '1',
      property_types: ['land'],
      submission_id: crypto.randomUUID(),
      fill_ms: 5000,
    }),
  });
}
