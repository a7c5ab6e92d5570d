import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'vitest';

/** Runs the real server (from source, through tsx) as a child process, for process-level tests. */
export type ServerProcess = { child: ChildProcess; port: number; url: string; output: () => string; exited: Promise<number | null> };

export const tempDir = (prefix: string) => mkdtempSync(path.join(os.tmpdir(), `crm-${prefix}-`));

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as net.AddressInfo;
      srv.close(() => resolve(port));
    });
    srv.on('error', reject);
  });
}

export function runNode(script: string, env: Record<string, string>, args: string[] = []): ServerProcess & { port: 0 } {
  let out = '';
  const child = spawn(process.execPath, ['--import', 'tsx', script, ...args], {
    env: { ...process.env, LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout!.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (out += d.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { child, port: 0, url: '', output: () => out, exited };
}

export async function startServer(env: Record<string, string>): Promise<ServerProcess> {
  const port = await freePort();
  const proc = runNode('src/server/main.ts', { PORT: String(port), HOST: '127.0.0.1', ...env });
  const url = `http://127.0.0.1:${port}`;
  await waitForHealth(url, proc);
  return { ...proc, port, url };
}

export async function waitForHealth(url: string, proc: { output: () => string; child: ChildProcess }, timeoutMs = 30_000) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (proc.child.exitCode !== null) throw new Error(`server exited: ${proc.output()}`);
    try {
      const res = await fetch(`${url}/api/health`);
      if (res.status === 200) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`server did not become healthy: ${proc.output()}`);
}

export async function stopServer(proc: { child: ChildProcess; exited: Promise<number | null> }, signal: NodeJS.Signals = 'SIGTERM') {
  if (proc.child.exitCode === null && proc.child.signalCode === null) proc.child.kill(signal);
  return proc.exited;
}

/** Signs in to a running server over HTTP (asserting 200) and returns its `Cookie` header value. */
export async function signInOverHttp(url: string, credentials: { email: string; password: string }): Promise<string> {
  const res = await fetch(`${url}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(credentials),
  });
  expect(res.status).toBe(200);
  return res.headers.get('set-cookie')!.split(';')[0]!;
}

