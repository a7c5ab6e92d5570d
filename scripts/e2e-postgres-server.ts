/**
 * The browser tests' PostgreSQL leg (playwright.config.ts): a fresh database on the server
 * TEST_DATABASE_URL names, then the built server on it; the database is dropped when the
 * server stops.
 */
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import pg from 'pg';

const base = process.env.TEST_DATABASE_URL;
if (!base) throw new Error('e2e-postgres-server: TEST_DATABASE_URL is not set');
const name = `crm_e2e_${randomBytes(6).toString('hex')}`;
const admin = async (query: string) => {
  const client = new pg.Client({ connectionString: base });
  await client.connect();
  try {
    await client.query(query);
  } finally {
    await client.end();
  }
};
await admin(`create database ${name}`);
const url = new URL(base);
url.pathname = `/${name}`;

const child = spawn(process.execPath, ['dist/server/main.js'], { env: { ...process.env, DATABASE_URL: url.toString() }, stdio: 'inherit' });
for (const signal of ['SIGTERM', 'SIGINT'] as const) process.on(signal, () => child.kill(signal));
child.on('exit', (code) => {
  void admin(`drop database if exists ${name} with (force)`)
    .catch(() => {})
    .finally(() => process.exit(code ?? 1));
});
