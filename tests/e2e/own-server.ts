import { spawn, type ChildProcess } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { SLOW } from './slow.ts';

/**
 * A built server of a spec's own (`node dist/server/main.js`), on its own port and embedded
 * database, for specs that must change what the suite's shared server keeps fixed: its
 * admin's password or two-factor, the team's rules, a first run with no admin. Its email goes
 * to the suite's mail sink. `log` holds every line it printed so far (JSON lines).
 *
 * Its database starts as a copy of one migrated once per run (`migratedDataDir`): empty, with
 * no account, as a first start leaves it, in a second or two instead of migrating again (about
 * 6 s on a quiet 2-core machine, 25 s on a busy one).
 */
export type OwnServer = {
  baseURL: string;
  log: string[];
  /** Waits until a printed line matches, and returns it. */
  waitForLog: (match: RegExp, timeoutMs?: number) => Promise<string>;
  stop: () => Promise<void>;
};

export async function startOwnServer(env: Record<string, string> = {}): Promise<OwnServer> {
  const dataDir = mkdtempSync(path.join('.test-data', 'own-server-'));
  await copyMigrated(dataDir);
  try {
    return await launch(dataDir, env, () => rmSync(dataDir, { recursive: true, force: true }));
  } catch (error) {
    rmSync(dataDir, { recursive: true, force: true });
    throw error;
  }
}

/** Copies the run's migrated, empty data directory into `dataDir` (an empty directory of mode 0700). */
export async function copyMigrated(dataDir: string): Promise<void> {
  const template = await migratedDataDir();
  // The lock file names the process that made the copy, long gone: the server would take it over, but need not.
  cpSync(template, dataDir, { recursive: true, filter: (from) => path.basename(from) !== 'crm.lock' });
}

/** Beside the run's shared data directory (playwright.config.ts sets E2E_DATA_DIR for every worker); removed at the end of the run (global-setup.ts). */
export const MIGRATED_DATA_DIR = path.resolve(`${process.env.E2E_DATA_DIR ?? path.join('.test-data', 'e2e')}-migrated`);
const TEMPLATE = MIGRATED_DATA_DIR;
let template: Promise<string> | undefined;

/**
 * The data directory a first start of the built server leaves (migrated, no account), made
 * once per run by whichever worker needs it first; the other waits for it.
 */
export function migratedDataDir(): Promise<string> {
  template ??= makeTemplate().catch((error: unknown) => {
    template = undefined;
    throw error;
  });
  return template;
}

async function makeTemplate(): Promise<string> {
  const lock = `${TEMPLATE}.lock`;
  const deadline = Date.now() + 120_000;
  while (!existsSync(TEMPLATE)) {
    if (Date.now() > deadline) throw new Error(`no migrated data directory at ${TEMPLATE} after 120 s (lock ${lock})`);
    try {
      mkdirSync(lock);
    } catch {
      // Another worker makes it: wait, unless it died doing so.
      if (!holderAlive(lock)) rmSync(lock, { recursive: true, force: true });
      // A real wait: another process's work, which tells nobody when it is done but by the directory appearing.
      else await new Promise((resolve) => setTimeout(resolve, 200));
      continue;
    }
    try {
      writeFileSync(path.join(lock, 'pid'), String(process.pid));
      if (existsSync(TEMPLATE)) break;
      const building = `${TEMPLATE}.${process.pid}`;
      rmSync(building, { recursive: true, force: true });
      mkdirSync(building, { recursive: true, mode: 0o700 });
      const server = await launch(building, { LOG_LEVEL: 'warn' }, () => {});
      await server.stop();
      renameSync(building, TEMPLATE);
    } finally {
      rmSync(lock, { recursive: true, force: true });
    }
  }
  return TEMPLATE;
}

function holderAlive(lock: string): boolean {
  try {
    process.kill(Number(readFileSync(path.join(lock, 'pid'), 'utf8')), 0);
    return true;
  } catch (error) {
    // No pid file yet (the holder is between mkdir and writing it) counts as alive.
    return (error as NodeJS.ErrnoException).code === 'ENOENT' || (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Starts the built server on `dataDir` and waits until it answers; `cleanUp` runs once it has stopped. */
async function launch(dataDir: string, env: Record<string, string>, cleanUp: () => void): Promise<OwnServer> {
  const child: ChildProcess = spawn(process.execPath, ['dist/server/main.js'], {
    env: {
      PATH: process.env.PATH,
      // Any free port: the server sends the one it got over the IPC channel (src/server/main.ts),
      // and, with no PUBLIC_URL, builds its links from it (http://127.0.0.1:<port>).
      PORT: '0',
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      NODE_ENV: 'test',
      LOG_LEVEL: 'info',
      TRUST_PROXY: '1',
      SMTP_URL: `smtp://127.0.0.1:${process.env.E2E_MAIL_SMTP_PORT}`,
      MAIL_FROM: '"Keystone Due Diligence" <hello@keystone.test>',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
  });
  child.channel?.unref();
  const listening = new Promise<number | undefined>((resolve) => {
    child.on('message', (message: { event?: string; port?: number }) => {
      if (message?.event === 'listening' && typeof message.port === 'number') resolve(message.port);
    });
    child.once('exit', () => resolve(undefined));
  });
  const log: string[] = [];
  const listeners = new Set<() => void>();
  const collect = (chunk: Buffer) => {
    log.push(...chunk.toString('utf8').split('\n').filter(Boolean));
    for (const listener of listeners) listener();
  };
  child.stdout!.on('data', collect);
  child.stderr!.on('data', collect);

  const waitForLog = (match: RegExp, timeoutMs = 20_000) =>
    new Promise<string>((resolve, reject) => {
      const check = () => {
        const line = log.find((l) => match.test(l));
        if (!line) return false;
        listeners.delete(onLine);
        clearTimeout(timer);
        resolve(line);
        return true;
      };
      const onLine = () => void check();
      const timer = setTimeout(() => {
        listeners.delete(onLine);
        reject(new Error(`no log line matched ${match} within ${timeoutMs} ms; printed:\n${log.join('\n')}`));
      }, timeoutMs);
      listeners.add(onLine);
      check();
    });

  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    }
    cleanUp();
  };

  let baseURL: string;
  try {
    const port = await listening;
    if (port === undefined) throw new Error(`the server exited (${child.exitCode}):\n${log.join('\n')}`);
    baseURL = `http://127.0.0.1:${port}`;
    await waitUntilHealthy(baseURL, child, log);
  } catch (error) {
    await stop();
    throw error;
  }
  return { baseURL, log, waitForLog, stop };
}

async function waitUntilHealthy(baseURL: string, child: ChildProcess, log: string[]) {
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`the server exited (${child.exitCode}):\n${log.join('\n')}`);
    try {
      if ((await fetch(`${baseURL}/api/health`)).ok) return;
    } catch {
      // not listening yet
    }
    // A real wait: the server says it is ready only by answering /api/health, so it is asked every 100 ms.
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`the server did not answer /api/health within 60 s:\n${log.join('\n')}`);
}

/** Signs `account` in on `server` through its sign-in page, and waits for the Overview. */
export async function signInOn(page: Page, server: Pick<OwnServer, 'baseURL'>, account: { email: string; password: string }) {
  await page.goto(`${server.baseURL}/login`);
  await page.getByLabel('Email').fill(account.email);
  await page.getByLabel('Password').fill(account.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Dashboard Overview' })).toBeVisible();
}

/**
 * A server of the spec file's own, started before its tests and stopped after them; `server()`
 * is it, once started.
 */
export function ownServerForFile(env: Record<string, string>): () => OwnServer {
  let server: OwnServer | undefined;
  test.beforeAll(async () => {
    test.setTimeout(SLOW.serverStart);
    server = await startOwnServer(env);
  });
  test.afterAll(async () => {
    await server?.stop();
  });
  return () => {
    if (!server) throw new Error('the own server has not started');
    return server;
  };
}
