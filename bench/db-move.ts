import { rmSync } from 'node:fs';
import path from 'node:path';
import { runNode, tempDir } from '../src/server/test/process.ts';
import { seededDataDir } from '../src/server/test/seeded-data-dir.ts';
import { seedEvents } from './analytics.ts';
import { seedLeadsAtScale } from './leads-at-scale.ts';
import { acquirePostgres, createFreshDatabase } from './lib/postgres.ts';

export const MOVE_LEADS = 10_000;
export const MOVE_EVENTS = 1_000_000;

type Verdict = (name: string, pass: boolean, detail: string) => void;

/** `npm run db:move` as the operator runs it, timed on the wall clock from spawn to exit. */
async function timedMove(env: Record<string, string>, args: string[]): Promise<{ seconds: number; output: string; code: number }> {
  const started = performance.now();
  const proc = runNode('src/server/cli/db-move.ts', { DATABASE_URL: '', ...env }, args);
  const code = await proc.exited;
  return { seconds: (performance.now() - started) / 1000, output: proc.output(), code: code ?? 1 };
}

/**
 * A seeded embedded database (every table, 10,000 leads, 1M analytics events) moved to an empty
 * PostgreSQL database and then from there to a new data directory: the time each way. No target:
 * the figures are published so an operator can plan the downtime of a move.
 */
export async function benchMove(opts: { cleanups: (() => Promise<unknown>)[]; verdict: Verdict }): Promise<void> {
  console.log(`\ndb:move with ${MOVE_LEADS.toLocaleString('en-US')} leads and ${MOVE_EVENTS.toLocaleString('en-US')} events`);
  const dataDir = await seededDataDir(async (db) => {
    await seedLeadsAtScale(db, MOVE_LEADS);
    await seedEvents(db, MOVE_EVENTS);
  });
  opts.cleanups.push(async () => rmSync(dataDir, { recursive: true, force: true }));
  const pgServer = await acquirePostgres();
  opts.cleanups.push(pgServer.release);
  const database = await createFreshDatabase(pgServer.url);
  opts.cleanups.push(database.drop);

  const there = await timedMove({ DATA_DIR: dataDir }, ['--to', database.url]);
  const rows = /Copied ([\d,]+) rows in (\d+) tables/.exec(there.output);
  console.log(`  embedded → PostgreSQL: ${there.seconds.toFixed(1)} s (${rows ? `${rows[1]} rows, ${rows[2]} tables` : 'no summary'})`);
  opts.verdict(
    'db:move embedded → PostgreSQL',
    there.code === 0 && rows !== null,
    `${there.seconds.toFixed(1)} s for ${rows?.[1] ?? '?'} rows, every table's count and checksum compared`,
  );
  if (there.code !== 0) console.log(there.output);

  const backDir = path.join(tempDir('bench-move-back'), 'data');
  opts.cleanups.push(async () => rmSync(path.dirname(backDir), { recursive: true, force: true }));
  const back = await timedMove({}, ['--from', database.url, '--to-dir', backDir]);
  console.log(`  PostgreSQL → new DATA_DIR: ${back.seconds.toFixed(1)} s`);
  opts.verdict(
    'db:move PostgreSQL → new DATA_DIR',
    back.code === 0,
    `${back.seconds.toFixed(1)} s, every table's count and checksum compared`,
  );
  if (back.code !== 0) console.log(back.output);
}
