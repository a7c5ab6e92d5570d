import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { TEMPLATE_FILE, TEST_SERVER_DIR } from './run-files.ts';

/**
 * Real server processes for the tests and the benchmarks: the one way this repository starts
 * the server, or another Node script, as a child and waits until it answers.
 */
const ROOT = path.resolve(import.meta.dirname, '../../..');

/** The server as `npm start` runs it, once `npm run build` has written it. */
export const BUILT_SERVER = path.join(ROOT, 'dist/server/main.js');

/**
 * `node` arguments that run `script` (a path from the repository's root) from the current
 * source: inside Vitest, the server and its tools as the run's set-up bundled them (quicker to
 * start than through tsx, which compiles the whole server again in each process;
 * docs/performance.md, "Measurements behind the code"); elsewhere (a script run by hand),
 * through tsx.
 */
export function sourceArgs(script: string): string[] {
  const bundled = script.match(/^src\/server\/(main|cli\/[a-z-]+)\.ts$/);
  if (bundled && process.env.VITEST) {
    const file = path.join(TEST_SERVER_DIR, `${bundled[1]}.js`);
    if (existsSync(file)) return [file];
  }
  return ['--import', 'tsx', script];
}

/** A Node process of ours, running; its output kept. */
export type NodeProcess = {
  child: ChildProcess;
  /** What the process wrote to stdout and stderr (the last megabyte of it). */
  output: () => string;
  exited: Promise<number | null>;
  /** Stops it (SIGTERM: finishes requests, closes the database; SIGKILL after 20 s); resolves to the exit code. */
  stop: (signal?: NodeJS.Signals) => Promise<number | null>;
  /** The process's peak resident memory so far (VmHWM, Linux), in bytes; undefined elsewhere. */
  peakRssBytes: () => number | undefined;
  /**
   * The port the server bound, from the `{ event: 'listening', port }` message main.ts sends
   * over the IPC channel (whatever LOG_LEVEL or LOG_FORMAT); undefined if the process exits first.
   */
  listening: Promise<number | undefined>;
};

/** A server answering on http://127.0.0.1:<port>. */
export type ServerProcess = NodeProcess & { port: number; url: string };

export type StartOptions = {
  /**
   * What to run: 'source' (the current src/server/main.ts, the default for tests), 'built'
   * (dist/server/main.js, for benchmarks and browser tests), or Node arguments of your own.
   */
  entry?: 'source' | 'built' | string[];
  /**
   * Start from an empty environment (PATH, HOME, HOST, PORT and `env`) instead of this
   * process's, so a DATABASE_URL in the caller's shell cannot leak into a PGlite run.
   */
  isolated?: boolean;
  /** Ready once GET this path answers 200 (default /api/health). */
  readyPath?: string;
  timeoutMs?: number;
};

const madeDirs: string[] = [];

/**
 * A new directory under the system's temporary directory, removed after the test file (Vitest's
 * setup file, remove-temp-dirs.ts) or when a script exits: a data directory of the db-move test
 * alone is about 600 MB, and left behind, a day of test runs filled tens of gigabytes. Whatever
 * the test started in it is stopped by then.
 */
export function tempDir(prefix: string): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), `crm-${prefix}-`));
  if (madeDirs.push(dir) === 1) process.once('exit', removeTempDirs);
  return dir;
}

/**
 * Removes every directory tempDir made in this process so far, and what the server leaves
 * beside a DATA_DIR there (`<dir>.backup.sock`, `<dir>.before-restore-…`).
 */
export function removeTempDirs() {
  for (const dir of madeDirs.splice(0)) {
    const beside = readdirSync(path.dirname(dir)).filter((name) => name.startsWith(`${path.basename(dir)}.`));
    for (const target of [dir, ...beside.map((name) => path.join(path.dirname(dir), name))]) {
      try {
        rmSync(target, { recursive: true, force: true });
      } catch {
        // A file still held open by a dying child: the system's temporary directory keeps it.
      }
    }
  }
}

/**
 * A DATA_DIR holding an already migrated database (the run's template, unpacked), for a test
 * whose subject is not a server's first start: the server then starts without migrating, much
 * sooner. Only inside Vitest, whose set-up writes the template.
 */
export function migratedDataDir(prefix: string): string {
  const dir = tempDir(prefix);
  execFileSync('tar', ['-xf', TEMPLATE_FILE, '-C', dir], { stdio: 'pipe' });
  return dir;
}

/**
 * A port nobody listens on right now, on loopback: only for a server whose port must be
 * written into its configuration before it starts (Caddy, a mail server that comes later).
 * Someone may take it before that server binds, so start such servers through
 * `retryOnTakenPort`. Our own server takes PORT=0 and tells its port (`startServer`).
 */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.unref();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as net.AddressInfo;
      srv.close(() => resolve(port));
    });
  });
}

/**
 * Runs `start` (which takes free ports with `freePort` and writes them into a configuration)
 * again, up to `attempts` times, while it fails because a port was taken meanwhile.
 */
export async function retryOnTakenPort<T>(start: () => Promise<T>, attempts = 5): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await start();
    } catch (err) {
      const taken = /EADDRINUSE|address already in use/i.test(
        err instanceof Error ? `${err.message} ${(err as NodeJS.ErrnoException).code ?? ''}` : String(err),
      );
      if (!taken || attempt >= attempts) throw err;
    }
  }
}

const OUTPUT_LIMIT = 1024 * 1024;

/** A spawned server's stdout and stderr, its last `limit` characters kept, and its exit. */
export function keepOutput(child: ChildProcess, limit: number): { output: () => string; exited: Promise<number | null> } {
  let output = '';
  const keep = (chunk: Buffer) => {
    output = (output + chunk.toString('utf8')).slice(-limit);
  };
  child.stdout!.on('data', keep);
  child.stderr!.on('data', keep);
  return { output: () => output, exited: new Promise<number | null>((resolve) => child.once('exit', resolve)) };
}

/** Spawns `node <args>` with its output kept; not waited for. */
function spawnNode(args: string[], env: Record<string, string>, isolated: boolean): NodeProcess {
  const base = isolated
    ? { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: process.env.HOME ?? os.tmpdir() }
    : { ...process.env, LOG_LEVEL: 'warn' };
  // The IPC channel carries the server's port (main.ts); unref'd, so it never keeps this process alive.
  const child = spawn(process.execPath, args, { cwd: ROOT, env: { ...base, ...env }, stdio: ['ignore', 'pipe', 'pipe', 'ipc'] });
  child.channel?.unref();
  const listening = new Promise<number | undefined>((resolve) => {
    child.on('message', (message: { event?: string; port?: number }) => {
      if (message?.event === 'listening' && typeof message.port === 'number') resolve(message.port);
    });
    child.on('exit', () => resolve(undefined));
  });
  const chunks: string[] = [];
  let size = 0;
  const keep = (chunk: Buffer) => {
    const text = chunk.toString();
    chunks.push(text);
    size += text.length;
    while (size > OUTPUT_LIMIT && chunks.length > 1) size -= chunks.shift()!.length;
  };
  child.stdout!.on('data', keep);
  child.stderr!.on('data', keep);
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const proc = { child, exited, listening, output: () => chunks.join(''), peakRssBytes: () => peakRss(child.pid) };
  return { ...proc, stop: (signal?: NodeJS.Signals) => stopServer(proc, signal) };
}

/** Runs a script of this repository from its current source, e.g. a CLI command; not waited for. */
export function runNode(script: string, env: Record<string, string>, args: string[] = []): NodeProcess {
  return spawnNode([...sourceArgs(script), ...args], env, false);
}

/**
 * Starts the server (or `entry`) on loopback with `env`, and resolves once it answers 200 on
 * its ready path; if it exits or does not answer in time, throws with its output. It listens
 * on PORT=0 (any free port, read from its `listening` message) unless `env.PORT` names one:
 * a restarted server on the port it had, for clients that must find it where it was.
 */
export async function startServer(env: Record<string, string>, options: StartOptions = {}): Promise<ServerProcess> {
  const { entry = 'source', isolated = false, readyPath = '/api/health', timeoutMs = 60_000 } = options;
  const args = entry === 'source' ? sourceArgs('src/server/main.ts') : entry === 'built' ? [BUILT_SERVER] : entry;
  const proc = spawnNode(args, { HOST: '127.0.0.1', PORT: '0', ...env }, isolated);
  try {
    const port = await portOf(proc, timeoutMs);
    const url = `http://127.0.0.1:${port}`;
    await waitForHealth(url, proc, timeoutMs, readyPath);
    return { ...proc, port, url };
  } catch (err) {
    await stopServer(proc, 'SIGKILL');
    throw err;
  }
}

/** The port `proc` told it listens on; throws with its output if it exits or stays silent for `timeoutMs`. */
async function portOf(proc: NodeProcess, timeoutMs: number): Promise<number> {
  let timer: NodeJS.Timeout | undefined;
  const silent = new Promise<'silent'>((resolve) => (timer = setTimeout(() => resolve('silent'), timeoutMs)));
  const port = await Promise.race([proc.listening, silent]);
  clearTimeout(timer);
  if (port === 'silent') throw new Error(`the process did not say which port it listens on within ${timeoutMs} ms: ${proc.output()}`);
  if (port === undefined) throw new Error(`the process exited (${proc.child.exitCode}): ${proc.output()}`);
  return port;
}

export async function waitForHealth(
  url: string,
  proc: { output: () => string; child: ChildProcess },
  timeoutMs = 30_000,
  readyPath = '/api/health',
) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (proc.child.exitCode !== null) throw new Error(`the process exited (${proc.child.exitCode}): ${proc.output()}`);
    try {
      const res = await fetch(`${url}${readyPath}`, { signal: AbortSignal.timeout(2_000) });
      await res.arrayBuffer();
      if (res.status === 200) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`${url}${readyPath} did not answer 200 within ${timeoutMs} ms: ${proc.output()}`);
}

/** Sends `signal` (SIGKILL after 20 s if it is still running) and resolves to the exit code. */
export async function stopServer(proc: { child: ChildProcess; exited: Promise<number | null> }, signal: NodeJS.Signals = 'SIGTERM') {
  if (proc.child.exitCode === null && proc.child.signalCode === null) proc.child.kill(signal);
  const timer = setTimeout(() => proc.child.kill('SIGKILL'), 20_000);
  const code = await proc.exited;
  clearTimeout(timer);
  return code;
}

function peakRss(pid: number | undefined): number | undefined {
  try {
    const kb = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
    return kb === undefined ? undefined : Number(kb) * 1024;
  } catch {
    return undefined;
  }
}

/** Signs in to a running server over HTTP, as its sign-in page does (with its Origin), and returns its `Cookie` header value; throws unless 200. */
export async function signInOverHttp(url: string, credentials: { email: string; password: string }): Promise<string> {
  const res = await fetch(`${url}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: new URL(url).origin },
    body: JSON.stringify(credentials),
  });
  if (res.status !== 200) throw new Error(`sign-in as ${credentials.email} answered ${res.status}: ${await res.text()}`);
  return res.headers.get('set-cookie')!.split(';')[0]!;
}
