import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';

const run = promisify(execFile);
const SCRIPT = path.resolve(import.meta.dirname, '../../scripts/pg-throwaway.sh');

/** A PostgreSQL server to benchmark against, and how to let go of it. */
export type PostgresServer = { url: string; source: string; release: () => Promise<void> };

/** BENCH_DATABASE_URL if set; otherwise a throwaway cluster on loopback, stopped on release. */
export async function acquirePostgres(): Promise<PostgresServer> {
  const given = process.env.BENCH_DATABASE_URL;
  if (given) return { url: given, source: 'BENCH_DATABASE_URL', release: async () => {} };

  const { stdout } = await run('bash', [SCRIPT], { timeout: 60_000 });
  const lines = stdout.trim().split('\n');
  const url = lines.at(-1) ?? '';
  const dir = lines.find((l) => l.startsWith('PG_THROWAWAY_DIR='))?.slice('PG_THROWAWAY_DIR='.length);
  if (!url.startsWith('postgres://') || !dir) throw new Error(`pg-throwaway.sh printed no URL:\n${stdout}`);
  return {
    url,
    source: 'throwaway cluster (scripts/pg-throwaway.sh)',
    release: async () => {
      await run('bash', [SCRIPT, 'stop', dir], { timeout: 60_000 });
    },
  };
}

async function adminQuery(url: string, query: string): Promise<pg.QueryResult> {
  const client = new pg.Client({ connectionString: url });
  // A server going away (e.g. stopped on Ctrl-C) rejects the query; it must not crash the bench.
  client.on('error', () => {});
  await client.connect();
  try {
    return await client.query(query);
  } finally {
    await client.end();
  }
}

/** Creates an empty database on the server for one run; drop() removes it. */
export async function createFreshDatabase(serverUrl: string): Promise<{ url: string; drop: () => Promise<void> }> {
  const name = `bench_${randomBytes(6).toString('hex')}`;
  await adminQuery(serverUrl, `create database ${name}`);
  const u = new URL(serverUrl);
  u.pathname = `/${name}`;
  return { url: u.toString(), drop: async () => void (await adminQuery(serverUrl, `drop database if exists ${name} with (force)`)) };
}

/** Rows in `select count(*)` of a query, on PostgreSQL. */
export async function countRows(url: string, query: string): Promise<number> {
  const result = await adminQuery(url, query);
  return Number((result.rows[0] as { n: string | number }).n);
}
