import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import path from 'node:path';

/** The built server, started as a child process for a benchmark. */
export type RunningServer = {
  origin: string;
  /** The server's peak resident memory so far (VmHWM, Linux), in bytes; undefined elsewhere. */
  peakRssBytes: () => number | undefined;
  /** SIGTERM (graceful: finishes requests, closes the database), SIGKILL after 20 s. */
  stop: () => Promise<{ clean: boolean }>;
};

const ROOT = path.resolve(import.meta.dirname, '../..');
export const SERVER_ENTRY = path.join(ROOT, 'dist/server/main.js');

/** A port nobody listens on right now, on loopback. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.unref();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const address = srv.address();
      srv.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * Starts `node dist/server/main.js` on 127.0.0.1 with only the environment given here (plus
 * PATH and HOME), so a DATABASE_URL in the caller's shell cannot leak into a PGlite run.
 * Resolves once GET /api/health answers 200.
 */
export async function startServer(env: Record<string, string>, readyTimeoutMs = 90_000): Promise<RunningServer> {
  const server = await spawnUntilReady([SERVER_ENTRY], '/api/health', env, readyTimeoutMs);
  // Health turns 200 once the database is open; give the rest of start-up (e.g. creating
  // the ADMIN_EMAIL admin) a moment before the load starts.
  await sleep(1_000);
  return server;
}

/**
 * A bare Hono hello-world (`bench/lib/hello-world.ts`: one route answering a short text) on
 * @hono/node-server in its own process, the yardstick for "how fast could any endpoint be
 * on this machine" that the ingestion figures are compared with.
 */
export function startHelloWorld(): Promise<RunningServer> {
  return spawnUntilReady(['--import', 'tsx', path.join(ROOT, 'bench/lib/hello-world.ts')], '/', {}, 30_000);
}

async function spawnUntilReady(args: string[], readyPath: string, env: Record<string, string>, readyTimeoutMs: number): Promise<RunningServer> {
  const port = await freePort();
  const origin = `http://127.0.0.1:${port}`;
  const child = spawn(process.execPath, args, {
    cwd: ROOT,
    env: {
      PATH: process.env.PATH ?? '/usr/bin:/bin',
      HOME: process.env.HOME ?? '/tmp',
      NODE_ENV: 'production',
      HOST: '127.0.0.1',
      PORT: String(port),
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const keep = (chunk: Buffer) => {
    output = (output + chunk.toString()).slice(-8_000);
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));

  const deadline = Date.now() + readyTimeoutMs;
  let ready = false;
  while (!ready && Date.now() < deadline && child.exitCode === null) {
    try {
      const res = await fetch(`${origin}${readyPath}`, { signal: AbortSignal.timeout(2_000) });
      await res.arrayBuffer();
      ready = res.status === 200;
    } catch {
      // not listening yet
    }
    if (!ready) await sleep(100);
  }
  if (!ready) {
    child.kill('SIGKILL');
    await exited;
    throw new Error(`${args.at(-1)} did not answer ${readyPath} within ${readyTimeoutMs} ms. Its output:\n${output}`);
  }
  return { origin, peakRssBytes: () => peakRss(child.pid), stop: () => stopChild(child, exited) };
}

function peakRss(pid: number | undefined): number | undefined {
  try {
    const kb = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
    return kb === undefined ? undefined : Number(kb) * 1024;
  } catch {
    return undefined;
  }
}

async function stopChild(child: ChildProcess, exited: Promise<number | null>): Promise<{ clean: boolean }> {
  if (child.exitCode !== null) return { clean: child.exitCode === 0 };
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 20_000);
  const code = await exited;
  clearTimeout(timer);
  return { clean: code === 0 };
}
