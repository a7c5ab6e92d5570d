import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';

/**
 * A throwaway PostgreSQL cluster of the test's own (scripts/pg-throwaway.sh), which the
 * test may stop and start again under a running app server.
 */
export type PgCluster = { url: string; dir: string; port: number; stop: () => void; start: () => void; remove: () => void };

/** The highest installed PostgreSQL's bin directory (as the script picks it), if any. */
export function findPgBin(): string | undefined {
  const root = '/usr/lib/postgresql';
  if (!existsSync(root)) return undefined;
  return readdirSync(root)
    .sort((a, b) => Number.parseFloat(b) - Number.parseFloat(a))
    .map((v) => path.join(root, v, 'bin'))
    .find((bin) => existsSync(path.join(bin, 'initdb')) && existsSync(path.join(bin, 'pg_ctl')));
}

export function startPgCluster(bin: string): PgCluster {
  // A port away from the 55432 most tools start at; the script moves on if it is taken.
  const firstPort = 57000 + Math.floor(Math.random() * 2000);
  const out = execFileSync('bash', ['scripts/pg-throwaway.sh'], {
    env: { ...process.env, PG_BIN: bin, PG_THROWAWAY_PORT: String(firstPort) },
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const dir = /^PG_THROWAWAY_DIR=(.+)$/m.exec(out)?.[1];
  const url = out.trim().split('\n').at(-1) ?? '';
  if (!dir || !url.startsWith('postgres://')) throw new Error(`pg-throwaway.sh printed no cluster: ${out}`);
  const port = Number(new URL(url).port);
  // Exactly as the script runs it: as the postgres user when we are root, from its own dir.
  const pgCtl = (...args: string[]) => {
    const command = [path.join(bin, 'pg_ctl'), '-D', path.join(dir, 'data'), ...args];
    const [file, ...rest] = process.getuid?.() === 0 ? ['runuser', '-u', 'postgres', '--', ...command] : command;
    execFileSync(file!, rest, { cwd: dir, stdio: ['ignore', 'pipe', 'pipe'] });
  };
  return {
    url,
    dir,
    port,
    stop: () => pgCtl('stop', '-m', 'fast', '-w', '-t', '30'),
    start: () => pgCtl('-l', path.join(dir, 'server.log'), '-o', `-p ${port}`, '-w', '-t', '30', 'start'),
    remove: () => execFileSync('bash', ['scripts/pg-throwaway.sh', 'stop', dir], { env: { ...process.env, PG_BIN: bin }, stdio: 'ignore' }),
  };
}
