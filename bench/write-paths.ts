/**
 * The public write paths a firm's site takes its bursts on — analytics events, and lead
 * submissions with email on — measured as a ratio to a bare Hono hello-world in the same run,
 * so a slower day on the machine does not hide a slower path (or flatter a faster one).
 * `npm run bench` prints them against their goals; `npm run check:write-paths` (CI) fails when
 * the median of a few short rounds drops below half a goal.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { startServer, type ServerProcess } from '../src/server/test/process.ts';
import { countPgliteRows } from './lib/pglite-count.ts';
import { countRows, createFreshDatabase } from './lib/postgres.ts';
import { eventBody, EVENT_HEADERS } from './analytics.ts';
import { leadBody } from './lead-throughput.ts';
import { runLoad, type LoadResult } from './lib/load.ts';
import type { SmtpSink } from './email.ts';

export type Engine = 'PGlite' | 'PostgreSQL';

/** Each path's goal, as a share of hello-world's requests per second on the same machine, same run. */
export const WRITE_PATHS = {
  // 64 connections: a burst of visitors' tabs. 32: the lead benchmark's usual load.
  events: { label: 'analytics events', goals: { PostgreSQL: 0.3, PGlite: 0.2 }, connections: 64 },
  leads: { label: 'lead submissions, email on', goals: { PostgreSQL: 0.025, PGlite: 0.015 }, connections: 32 },
} as const satisfies Record<string, { label: string; goals: Record<Engine, number>; connections: number }>;
export type WritePath = keyof typeof WRITE_PATHS;

/** Each lead: the visitor's acknowledgement and the "new lead" alert to the one admin. */
const MAILS_PER_LEAD = 2;

/** What CI holds to: half of each goal, so a 2× regression cannot land unseen. */
export const floorOf = (goal: number) => goal / 2;

export type Round = { helloRps: number; rps: number; ratio: number };

export type PathReport = {
  path: WritePath;
  engine: Engine;
  rounds: Round[];
  /** The median round's ratio. */
  ratio: number;
  goal: number;
  floor: number;
  /** Every acknowledged request stored as it should be (an event once; a lead once with its notification and two emails). */
  stored: { ok: boolean; detail: string };
  failures: number;
};

export const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
};

/** Pass: the median ratio at or above the floor, nothing failed and everything acknowledged was stored. */
export const passes = (r: Pick<PathReport, 'ratio' | 'floor' | 'stored' | 'failures'>) =>
  r.ratio >= r.floor && r.stored.ok && r.failures === 0;

/** Three decimals, four under 0.01: a floor of 0.0075× must not read as 0.007×. */
const fmtRatio = (r: number) => `${r.toFixed(r < 0.01 ? 4 : 3)}×`;

export function describeReport(r: PathReport): string {
  const rounds = r.rounds.map(
    (x) => `${Math.round(x.rps).toLocaleString('en-US')}/s of ${Math.round(x.helloRps).toLocaleString('en-US')} = ${fmtRatio(x.ratio)}`,
  );
  return (
    `${fmtRatio(r.ratio)} hello-world (median of ${r.rounds.length}: ${rounds.join('; ')}); goal ≥ ${fmtRatio(r.goal)}, CI floor ${fmtRatio(r.floor)}` +
    `${r.failures ? `; ${r.failures} failed requests` : ''}; ${r.stored.detail}`
  );
}

/** A bare Hono hello-world in its own process (bench/lib/hello-world.ts). */
export function startHelloWorld(): Promise<ServerProcess> {
  return startServer({}, { entry: ['--import', 'tsx', 'bench/lib/hello-world.ts'], isolated: true, readyPath: '/' });
}

/** The rows a path must have written for `acknowledged` 2xx answers, counted once the server has stopped. */
export type Counter = (query: string) => Promise<number>;

async function checkStored(path: WritePath, acknowledged: number, count: Counter): Promise<PathReport['stored']> {
  if (path === 'events') {
    const events = await count('select count(*) as n from analytics_events');
    return {
      ok: events === acknowledged,
      detail: `${acknowledged.toLocaleString('en-US')} acknowledged, ${events.toLocaleString('en-US')} stored`,
    };
  }
  const leads = await count('select count(*) as n from leads');
  const notifications = await count("select count(*) as n from notifications where type = 'lead'");
  const emails = await count('select count(*) as n from emails');
  const ok = leads === acknowledged && notifications === leads && emails === MAILS_PER_LEAD * leads;
  return {
    ok,
    detail: `${acknowledged.toLocaleString('en-US')} acknowledged; ${leads.toLocaleString('en-US')} leads, ${notifications.toLocaleString('en-US')} notifications, ${emails.toLocaleString('en-US')} emails stored`,
  };
}

function loadFor(path: WritePath, origin: string, connections: number, durationMs: number, signal?: AbortSignal): Promise<LoadResult> {
  return runLoad({
    url: path === 'events' ? `${origin}/api/public/events` : `${origin}/api/public/leads`,
    method: 'POST',
    headers: path === 'events' ? EVENT_HEADERS : { 'content-type': 'application/json', origin },
    body: path === 'events' ? eventBody : leadBody,
    connections,
    durationMs,
    maxRequests: 20_000_000,
    signal,
  });
}

/** One path's server on its fresh database, between its warm-up and its check of what it stored. */
type PathUnderTest = {
  path: WritePath;
  engine: Engine;
  server: ServerProcess;
  database: FreshDatabase;
  acknowledged: number;
  failures: number;
  rounds: Round[];
};

/** Each path's load for `ms`, counted into its totals. */
async function loadInto(p: PathUnderTest, ms: number, signal?: AbortSignal): Promise<LoadResult> {
  const run = await loadFor(p.path, p.server.url, WRITE_PATHS[p.path].connections, ms, signal);
  p.acknowledged += run.ok2xx;
  p.failures += run.non2xx + run.errors;
  return run;
}

function helloLoad(hello: ServerProcess, connections: number, ms: number, signal?: AbortSignal): Promise<LoadResult> {
  return runLoad({
    url: `${hello.url}/`,
    method: 'GET',
    headers: {},
    body: () => '',
    connections,
    durationMs: ms,
    maxRequests: 20_000_000,
    signal,
  });
}

/** Stops the path's server (PGlite is one process's), then checks what it stored against what it acknowledged. */
async function reportOf(p: PathUnderTest): Promise<PathReport> {
  await p.server.stop();
  const goal = WRITE_PATHS[p.path].goals[p.engine];
  return {
    path: p.path,
    engine: p.engine,
    rounds: p.rounds,
    ratio: median(p.rounds.map((r) => r.ratio)),
    goal,
    floor: floorOf(goal),
    stored: await checkStored(p.path, p.acknowledged, p.database.count),
    failures: p.failures,
  };
}

/** One admin, so each lead also writes its notification and alert, as in production. */
const ADMIN = { ADMIN_EMAIL: 'bench-admin@example.com', ADMIN_PASSWORD: 'bench-admin-password-1' };
/**
 * The form's time trap and the per-address limits off (all the load comes from one address,
 * as if through one proxy); the load generator stands where a trusted proxy would.
 */
export const WRITE_PATH_SERVER_ENV = {
  NODE_ENV: 'production',
  LOG_LEVEL: 'warn',
  LEAD_RATE_LIMIT: '0',
  LEAD_MIN_FILL_SECONDS: '0',
  ANALYTICS_RATE_LIMIT: '0',
  TRUST_PROXY: '127.0.0.1',
  MAIL_FROM: '"Bench Due Diligence" <hello@bench.example.com>',
  ...ADMIN,
};

/** A fresh database for one path: the server's environment, counting once it stopped, and removing it. */
export type FreshDatabase = { env: Record<string, string>; count: Counter; drop: () => Promise<void> };

/** Fresh databases: an embedded one in a temporary directory, or a new database on the PostgreSQL server `postgresUrl` gives. */
export function freshDatabases(postgresUrl: () => Promise<string>): (engine: Engine) => Promise<FreshDatabase> {
  return async (engine): Promise<FreshDatabase> => {
    if (engine === 'PGlite') {
      const dataDir = mkdtempSync(path.join(tmpdir(), 'write-paths-'));
      return {
        env: { DATA_DIR: dataDir },
        count: (q) => countPgliteRows(dataDir, q),
        drop: async () => rmSync(dataDir, { recursive: true, force: true }),
      };
    }
    const database = await createFreshDatabase(await postgresUrl());
    return { env: { DATABASE_URL: database.url }, count: (q) => countRows(database.url, q), drop: database.drop };
  };
}

export type RunOptions = {
  engines: Engine[];
  paths: WritePath[];
  rounds: number;
  seconds: number;
  fresh: (engine: Engine) => Promise<FreshDatabase>;
  /** Starts the built server with `env` (the caller adds node options, e.g. a profiler). */
  serve: (env: Record<string, string>) => Promise<ServerProcess>;
  /** An SMTP server that accepts everything, for SMTP_URL (email on); the leads' mail is awaited there between rounds. */
  sink: Pick<SmtpSink, 'smtpUrl' | 'stats' | 'waitFor'>;
  signal?: AbortSignal;
  onReport?: (report: PathReport) => void;
};

const SETTLE_TIMEOUT_MS = 60_000;

/** Waits for the sink to have received `count` messages; fails plainly if the server falls that far behind. */
async function mailSent(sink: Pick<SmtpSink, 'waitFor'>, count: number): Promise<void> {
  const stats = await sink.waitFor(count, SETTLE_TIMEOUT_MS);
  if (stats.messages < count)
    throw new Error(`the server had sent ${stats.messages} of ${count} messages ${SETTLE_TIMEOUT_MS / 1000} s after the load stopped`);
}

/**
 * Every path on every engine, each on a fresh database, against one hello-world.
 *
 * Every server starts and warms up first; then each round measures every path in turn (a
 * hello-world, then the path), so one path's rounds lie a minute or more apart. The machine's
 * speed drifts over tens of seconds (a path's three rounds in a row once read 253, 260 and
 * 261/s, and 525, 453 and 403/s in the next run): rounds taken back to back share one slow
 * minute, and their median cannot outvote it. Before every hello-world the servers finish the
 * mail their leads queued, so the hello-world runs on a quiet machine: measured while a server
 * still sent the last round's mail, it ran at about 55% of its speed, which made the path's
 * ratio look almost twice as good as it was.
 */
export async function runWritePaths(o: RunOptions): Promise<PathReport[]> {
  const hello = await startHelloWorld();
  const started: PathUnderTest[] = [];
  const reports: PathReport[] = [];
  const sentBefore = (await o.sink.stats()).messages;
  const mailQueued = () => sentBefore + MAILS_PER_LEAD * started.filter((p) => p.path === 'leads').reduce((n, p) => n + p.acknowledged, 0);
  const ms = o.seconds * 1000;
  try {
    for (const engine of o.engines) {
      for (const path of o.paths) {
        if (o.signal?.aborted) return reports;
        const database = await o.fresh(engine);
        let server: ServerProcess;
        try {
          server = await o.serve({ ...WRITE_PATH_SERVER_ENV, ...database.env, SMTP_URL: o.sink.smtpUrl });
        } catch (err) {
          await database.drop();
          throw err;
        }
        const p: PathUnderTest = { path, engine, server, database, acknowledged: 0, failures: 0, rounds: [] };
        started.push(p);
        await loadInto(p, Math.min(ms, 1000), o.signal);
      }
    }
    for (let i = 0; i < o.rounds; i++) {
      for (const p of started) {
        if (o.signal?.aborted) return reports;
        await mailSent(o.sink, mailQueued());
        const helloRun = await helloLoad(hello, WRITE_PATHS[p.path].connections, ms, o.signal);
        const run = await loadInto(p, ms, o.signal);
        p.rounds.push({
          helloRps: helloRun.requestsPerSecond,
          rps: run.requestsPerSecond,
          ratio: run.requestsPerSecond / helloRun.requestsPerSecond,
        });
      }
    }
    for (const p of started) {
      const report = await reportOf(p);
      reports.push(report);
      o.onReport?.(report);
    }
  } finally {
    for (const p of started) {
      await p.server.stop();
      await p.database.drop();
    }
    await hello.stop();
  }
  return reports;
}
