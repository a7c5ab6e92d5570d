import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';

/**
 * A built server of a spec's own (`node dist/server/main.js`), on its own port and embedded
 * database, for specs that must change what the suite's shared server keeps fixed: its
 * admin's password or two-factor, the team's rules, a first run with no admin. Its email goes
 * to the suite's mail sink. `log` holds every line it printed so far (JSON lines).
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
    if (child.exitCode === null) {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    }
    rmSync(dataDir, { recursive: true, force: true });
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
 * A server of the spec file's own, started before its tests (more than the default 30 s on a
 * busy 2-core machine) and stopped after them; `server()` is it, once started.
 */
export function ownServerForFile(env: Record<string, string>): () => OwnServer {
  let server: OwnServer | undefined;
  test.beforeAll(async () => {
    test.setTimeout(90_000);
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
