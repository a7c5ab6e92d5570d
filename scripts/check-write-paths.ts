/**
 * `npm run check:write-paths` (after `npm run build`; CI runs it): the public write paths —
 * analytics events, lead submissions with email on — on PGlite and PostgreSQL, each the median
 * of WRITE_PATHS_ROUNDS (5) rounds of WRITE_PATHS_SECONDS (2) against a hello-world measured
 * just before, the paths taking turns round by round (bench/write-paths.ts). Exits 1 when a path falls below half its goal (bench/write-paths.ts), fails a
 * request, or stores anything other than what it acknowledged.
 *
 * PostgreSQL: BENCH_DATABASE_URL (a server it may create databases on), else a throwaway
 * cluster (scripts/pg-throwaway.sh). WRITE_PATHS_ENGINES and WRITE_PATHS_PATHS narrow the run
 * (comma-separated: PGlite,PostgreSQL and events,leads); BENCH_SERVER_NODE_ARGS adds node
 * options to each server (a profiler, or the test's deliberate slowdown).
 */
import { envInt } from '../bench/lib/env.ts';
import { existsSync } from 'node:fs';
import { startSmtpSink } from '../bench/email.ts';
import { acquirePostgres, type PostgresServer } from '../bench/lib/postgres.ts';
import {
  describeReport,
  freshDatabases,
  passes,
  runWritePaths,
  WRITE_PATHS,
  type Engine,
  type PathReport,
  type WritePath,
} from '../bench/write-paths.ts';
import { BUILT_SERVER, startServer } from '../src/server/test/process.ts';

function listOf<T extends string>(name: string, all: readonly T[]): T[] {
  const v = process.env[name];
  if (!v) return [...all];
  const picked = v.split(',').map((s) => s.trim());
  for (const p of picked) if (!all.includes(p as T)) throw new Error(`${name}: "${p}" is not one of ${all.join(', ')}`);
  return picked as T[];
}

if (!existsSync(BUILT_SERVER)) {
  console.error(`check:write-paths: ${BUILT_SERVER} is missing: run npm run build first`);
  process.exit(1);
}

const engines = listOf<Engine>('WRITE_PATHS_ENGINES', ['PGlite', 'PostgreSQL']);
const paths = listOf<WritePath>('WRITE_PATHS_PATHS', Object.keys(WRITE_PATHS) as WritePath[]);
const rounds = envInt('WRITE_PATHS_ROUNDS', 5, 1, 9);
const seconds = envInt('WRITE_PATHS_SECONDS', 2, 1, 60);
const nodeArgs = process.env.BENCH_SERVER_NODE_ARGS?.split(/\s+/).filter(Boolean) ?? [];

const interrupted = new AbortController();
process.once('SIGINT', () => interrupted.abort());
process.once('SIGTERM', () => interrupted.abort());

let postgres: PostgresServer | undefined;
const fresh = freshDatabases(async () => (postgres ??= await acquirePostgres()).url);

console.log(
  `check:write-paths: ${engines.join(', ')}; ${paths.join(', ')}; median of ${rounds} × ${seconds} s against a hello-world each round`,
);
const sink = await startSmtpSink();
let reports: PathReport[];
try {
  reports = await runWritePaths({
    engines,
    paths,
    rounds,
    seconds,
    fresh,
    serve: (env) => startServer(env, { entry: [...nodeArgs, BUILT_SERVER], isolated: true, timeoutMs: 90_000 }),
    sink,
    signal: interrupted.signal,
    onReport: (r) => console.log(`${passes(r) ? 'PASS' : 'FAIL'}  ${WRITE_PATHS[r.path].label}, ${r.engine}: ${describeReport(r)}`),
  });
} finally {
  await sink.stop();
  await postgres?.release();
}
const failed = interrupted.signal.aborted || reports.length < engines.length * paths.length || !reports.every(passes);
process.exitCode = failed ? 1 : 0;
