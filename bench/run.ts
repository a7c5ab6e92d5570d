/**
 * `npm run bench` (after `npm run build`): the JS weight of `/` and of the admin app's first
 * load, and lead-submission throughput through HTTP on PGlite and on PostgreSQL, against the
 * built server.
 *
 *   tsx bench/run.ts [write-paths] [page] [auth] [pglite] [postgres] [email] [mixed] [scale] [lead-page] [board] [tasks] [replies] [booking] [availability] [calendars] [import] [ingest] [analytics] [move] [cluster] [lighthouse]     (default: all)
 *
 * `write-paths` (bench/write-paths.ts): analytics events and lead submissions with email on, on
 * PGlite and PostgreSQL, each the median of three rounds of BENCH_SECONDS as a ratio to a bare Hono
 * hello-world measured just before it, against its goal (events ≥ 0.30× on PostgreSQL and 0.20×
 * on PGlite; leads ≥ 0.025× and 0.015×); CI's `npm run check:write-paths` holds half of each.
 * Every other throughput is also printed as a share of a hello-world measured at the run's start.
 *
 * `email`: lead submissions/s with email on (SMTP_URL to a sink in its own process) against
 * email off, each on a fresh database, on PGlite and PostgreSQL (target: at most 10% slower);
 * then how long the mail those leads queued takes to arrive, every message once; and 1,000
 * queued messages drained by a freshly started server (target: under 30 s from its start).
 *
 * `lighthouse`: Lighthouse (mobile emulation) on `/` with CHROME_PATH (/usr/bin/chromium): the
 * performance (target ≥ 98), accessibility, best-practices and SEO (each 100) scores.
 *
 * `mixed`: BENCH_MIXED_SECONDS (60) of 95% public traffic (GET / and analytics events), 4% lead
 * submissions and 1% admin reads on PostgreSQL: throughput, p50/p99, errors (must be 0), the
 * server's peak memory, and every acknowledged lead and event stored.
 *
 * `ingest`: analytics events through HTTP for BENCH_INGEST_SECONDS (60) from 64 connections,
 * on PGlite and PostgreSQL, against a bare Hono hello-world (bench/lib/hello-world.ts) in the same run;
 * acknowledged must equal stored; the per-IP limit is off unless BENCH_ANALYTICS_LIMIT sets it (all
 * the load comes from one address, so a high limit measures the shared counter's cost). `analytics`: the
 * summary's p50/p95 per period, and the report (funnel and daily trend), the pipeline (lost reasons
 * and stage conversion, over a seeded stage history) and sources table (per group) for 90 and 30
 * days, with 1M and 10M events (10,000 and 100,000 leads) on PostgreSQL (targets p95 < 100 ms for
 * the summary's 30 days and < 150 ms for the report, the pipeline and each sources group at 90
 * days, at 10M) and 1M on PGlite (each at 90 days p95 < 400 ms).
 * The seed: bench/analytics.ts.
 *
 * `scale`: the Leads Manager and Overview queries at 100,000 seeded leads, p50/p95 through
 * HTTP, on PGlite (target p95 < 150 ms) and PostgreSQL (target p95 < 50 ms); among them phone
 * searches typed three ways, whose plans (EXPLAIN) must use the phone digits' index.
 *
 * `tasks` (bench/tasks.ts): My tasks (GET /api/tasks, each list, the owner's and everyone's) and a lead's
 * tasks at 50,000 tasks over 10,000 leads, p50/p95 through HTTP, on PGlite (no target) and PostgreSQL
 * (target p95 < 50 ms).
 *
 * `lead-page` (bench/lead-page.ts): the lead page's reads (GET /api/leads/{id} and its
 * 200-entry timeline) at 100,000 leads, p50/p95 through HTTP, on PGlite (no target) and
 * PostgreSQL (target p95 < 30 ms); and the same reads for a lead with a 500-message conversation
 * (half their replies, a fifth of those with a file), PostgreSQL target p95 < 50 ms.
 *
 * `board` (bench/board.ts): the pipeline board with 10,000 open leads (and 2,000 won or lost), p50/p95
 * through HTTP on PGlite (no target) and PostgreSQL: a column's page by its cursor (target p95
 * < 150 ms) and a move, PATCH /api/leads/{id} with stage_id (target p95 < 30 ms); each p95 also as
 * a share of its target.
 *
 * `replies` (bench/replies.ts): 1,000 replies in a real Dovecot read and matched by the reply
 * reader (a quarter each by thread, reply address, sender, and to the Inbox), on PGlite and
 * PostgreSQL: target all stored once, matched, in under 30 s.
 *
 * `booking` (bench/booking.ts): the 30-day availability with 10,000 appointments, p50/p95 on
 * PGlite (target p95 < 150 ms) and PostgreSQL (target p95 < 50 ms); then every open slot raced
 * for by 2-4 booking tokens from BENCH_CONNECTIONS connections: answered bookings/s (target
 * ≥ 600 on PostgreSQL, the median of BENCH_BOOKING_RACES races (3) on fresh databases), and no
 * double booking, one appointment per 201, in SQL.
 *
 * `calendars` (bench/calendar-availability.ts): availability for 60 days with 5 bookable people,
 * each with two outside calendars of 2,000 events; cold p95 < 50 ms on PostgreSQL, < 150 ms on PGlite.
 *
 * `availability` (bench/availability.ts): GET /api/public/availability with the widest booking
 * settings on PGlite: the answer's size, computed afresh and cached p50/p95 (target p95 < 50 ms
 * afresh), and /api/health while 10 and 40 availability requests/s arrive (target p99 < 50 ms).
 *
 * `import` (bench/lead-import.ts): 10,000 leads through POST /api/leads/import
import on PGlite and
 * PostgreSQL: preview, import (target < 10 s on PostgreSQL), the same rows updated, and 10,000
 * with one bad row at the end (400, nothing stored).
 *
 * `cluster`: the `mixed` load (each public request a visitor of its own, the rate limits on as in
 * production) through Caddy's load balancer (deploy/Caddyfile, plain http) to 1, 2 and 3 app
 * processes on one PostgreSQL database, BENCH_MIXED_SECONDS each: throughput, p50/p99, errors
 * (must be 0) and every acknowledged lead and event stored. All on this machine's 2 cores.
 *
 * `move` (bench/db-move.ts): `npm run db:move` of a seeded embedded database (every table, 10,000
 * leads, 1M events) to an empty PostgreSQL database and back to a new data directory: the wall
 * time each way (no target; published for planning a move's downtime).
 *
 * `auth`: sign-in latency (p50), a full sign-in with two-factor (p50 < 50 ms), and how many live notification streams one process holds
 * with one notification delivered to all of them within 1 s (target: 1,000).
 *
 * `webhooks` (bench/webhooks.ts), PostgreSQL: one endpoint for lead.created on a receiver on
 * loopback verifying with `standardwebhooks`; 1,000 lead submissions through HTTP make 1,000
 * signed deliveries, the last within 10 s of the last submission's answer; and lead
 * submissions/s with that endpoint within 10% of none (median of BENCH_WEBHOOK_ROUNDS, 3).
 *
 * Environment: BENCH_SECONDS (10), BENCH_WARMUP_SECONDS (2), BENCH_CONNECTIONS (32), BENCH_EMAIL_ROUNDS (3), BENCH_BOOKING_RACES (3),
 * BENCH_DATABASE_URL (a PostgreSQL server to use; default: a throwaway cluster).
 * Exits 1 if a target is missed.
 */
import { randomBytes } from 'node:crypto';
import { envInt } from './lib/env.ts';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describeThroughput, hasNoFailures, measureLeadThroughput, type ThroughputResult } from './lead-throughput.ts';
import { countPgliteRows } from './lib/pglite-count.ts';
import { acquirePostgres, countRows, createFreshDatabase } from './lib/postgres.ts';
import { BUILT_SERVER, signInOverHttp, startServer, type ServerProcess } from '../src/server/test/process.ts';
import { describePageWeight, measurePageWeight, WEIGHT_BUDGETS } from './page-weight.ts';
import { measureFanout, measureSignIn, measureTwoFactorSignIn } from './auth-realtime.ts';
import { phoneSearchPlans, SCALE_LEADS, seedLeadsAtScale, timeQueries } from './leads-at-scale.ts';
import { seedLeadPage, timeLeadPage, TIMELINE_ENTRIES } from './lead-page.ts';
import { seedTasks, TASKS, timeTasks } from './tasks.ts';
import { BOARD_OPEN_LEADS, seedBoard, timeBoard } from './board.ts';
import { benchReplies } from './replies.ts';
import { leadsFor, measureIngestion, seedEventsAndLeads, timeReport, timeSummary } from './analytics.ts';
import { acknowledged, describeMixed, measureMixedLoad, MIX } from './mixed-load.ts';
import { describeDrain, seedQueuedMail, slowdownPercent, startSmtpSink } from './email.ts';
import { benchLighthouse, describeTargets, LIGHTHOUSE_CATEGORIES } from './lighthouse.ts';
import { benchAvailability } from './availability.ts';
import { benchCalendarAvailability } from './calendar-availability.ts';
import { benchBooking } from './booking.ts';
import { benchImport } from './lead-import.ts';
import { benchMove } from './db-move.ts';
import { benchWebhooks } from './webhooks.ts';
import { startCluster } from './lib/cluster.ts';
import { runLoad } from './lib/load.ts';
import { describeReport, freshDatabases, passes, runWritePaths, startHelloWorld, WRITE_PATHS, type Engine } from './write-paths.ts';

/** A full sign-in with two-factor (argon2id and TOTP, two requests), p50. */
const TWO_FACTOR_SIGN_IN_TARGET_MS = 50;
import { openPglite, openPostgres, type Database } from '../src/server/db/client.ts';

const POSTGRES_TARGET_RPS = 1_000;
const FANOUT_TARGET_CLIENTS = 1_000;
const FANOUT_TARGET_MS = 1_000;

// Ctrl-C stops the load first, then the cleanups run, so no server or cluster outlives the bench.
const interrupted = new AbortController();
const load = {
  signal: interrupted.signal,
  connections: envInt('BENCH_CONNECTIONS', 32, 1, 512),
  warmupMs: envInt('BENCH_WARMUP_SECONDS', 2, 0, 60) * 1000,
  durationMs: envInt('BENCH_SECONDS', 10, 1, 300) * 1000,
};
const parts = new Set(process.argv.slice(2));
const wants = (part: string) => parts.size === 0 || parts.has(part);

/**
 * A bare Hono hello-world's requests/s, measured once at the start of a run that measures any
 * throughput: each throughput is printed as a share of it, so a slower day shows as such.
 */
let helloRps: number | undefined;
const ofHello = (rps: number) => (helloRps ? ` = ${(rps / helloRps).toFixed(3)}× hello-world` : '');

const verdicts: { name: string; pass: boolean; detail: string }[] = [];
const verdict = (name: string, pass: boolean, detail: string) => {
  verdicts.push({ name, pass, detail });
  console.log(`  ${pass ? 'PASS' : 'FAIL'}  ${name}: ${detail}`);
};

/**
 * The built server, in production mode, with only the environment given (so a DATABASE_URL in
 * this shell cannot leak into a PGlite run). Health turns 200 once the database is open; the
 * rest of start-up (creating the ADMIN_EMAIL admin) gets a moment before the load starts.
 * BENCH_SERVER_NODE_ARGS adds node options to every server the bench starts, e.g.
 * `--cpu-prof --cpu-prof-dir=/tmp/prof` for a CPU profile of each (written when it stops).
 */
async function startBuiltServer(env: Record<string, string>): Promise<ServerProcess> {
  const nodeArgs = process.env.BENCH_SERVER_NODE_ARGS?.split(/\s+/).filter(Boolean) ?? [];
  const entry = nodeArgs.length ? [...nodeArgs, BUILT_SERVER] : 'built';
  const server = await startServer({ NODE_ENV: 'production', ...env }, { entry, isolated: true, timeoutMs: 90_000 });
  await new Promise((r) => setTimeout(r, 1_000));
  return server;
}

const cleanups: (() => Promise<unknown>)[] = [];
let cleaning: Promise<void> | undefined;
/** Runs the cleanups in reverse order; callers at the same time share one run. */
function runCleanups(): Promise<void> {
  cleaning ??= (async () => {
    while (cleanups.length > 0) await cleanups.pop()!().catch((err: unknown) => console.error('cleanup failed:', err));
  })().finally(() => {
    cleaning = undefined;
  });
  return cleaning;
}
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    console.error(`\n${signal}: stopping and cleaning up...`);
    interrupted.abort();
    void runCleanups().finally(() => process.exit(130));
  });
}

// One admin, so each lead also writes its `lead` notification, as in production.
const adminEnv = { ADMIN_EMAIL: 'bench-admin@example.com', ADMIN_PASSWORD: randomBytes(18).toString('hex') };
// The time trap off (no form token to fetch and wait for): every submission is stored. The load
// generator on loopback stands where a reverse proxy would: as a trusted proxy it may open more
// than the 100 connections one client may hold (docs/security.md).
const serverEnv = { LEAD_RATE_LIMIT: '0', LEAD_MIN_FILL_SECONDS: '0', LOG_LEVEL: 'warn', TRUST_PROXY: '127.0.0.1', ...adminEnv };

function checkStored(name: string, r: ThroughputResult, allLeads: number, allNotifications: number, earlierLeads = 0) {
  // Leads stored before the throughput run (the auth part's one) are not part of it.
  const leads = allLeads - earlierLeads;
  const notifications = allNotifications - earlierLeads;
  verdict(
    `${name}: every 2xx stored once`,
    leads === r.expectedLeads,
    `${leads.toLocaleString('en-US')} leads in the database, ${r.expectedLeads.toLocaleString('en-US')} submissions answered 2xx`,
  );
  // /api/health turns 200 only after the ADMIN_EMAIL admin exists, so this should be one per lead.
  const note = notifications === leads ? 'one per lead' : `${(leads - notifications).toLocaleString('en-US')} fewer than leads`;
  console.log(`  info  ${name}: ${notifications.toLocaleString('en-US')} lead notifications for the one admin (${note})`);
}

const COUNT_LEADS = 'select count(*) as n from leads';
const COUNT_NOTIFICATIONS = "select count(*) as n from notifications where type = 'lead'";

async function benchPglite() {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'bench-pglite-'));
  cleanups.push(async () => rmSync(dataDir, { recursive: true, force: true }));
  console.log(`\nStarting the server on PGlite (DATA_DIR ${dataDir})...`);
  const server = await startBuiltServer({ ...serverEnv, DATA_DIR: dataDir });
  const stop = server.stop;
  cleanups.push(stop);

  if (wants('page')) {
    for (const { name, path: pagePath, budgetBytes } of WEIGHT_BUDGETS) {
      console.log(`\nPage weight: ${name} (gzip level 9)`);
      const weight = await measurePageWeight(`${server.url}${pagePath}`);
      for (const line of describePageWeight(weight)) console.log(line);
      const js = weight.totals.js.gzip;
      verdict(name, js <= budgetBytes, `${js.toLocaleString('en-US')} bytes gzipped (target ≤ ${budgetBytes.toLocaleString('en-US')})`);
    }
  }

  let earlierLeads = 0;
  if (wants('auth')) {
    earlierLeads = 1;
    console.log(`\nSign-in and live notifications (PGlite)`);
    const signIn = await measureSignIn(server.url, adminEnv.ADMIN_EMAIL, adminEnv.ADMIN_PASSWORD);
    console.log(
      `  sign-in: ${signIn.samples} sequential, p50 ${signIn.p50Ms.toFixed(1)} ms, p95 ${signIn.p95Ms.toFixed(1)} ms, ${signIn.failures} failed`,
    );
    verdict('sign-in latency p50', signIn.failures === 0, `${signIn.p50Ms.toFixed(1)} ms (argon2id verify; no target)`);
    const owner = await signInOverHttp(server.url, { email: adminEnv.ADMIN_EMAIL, password: adminEnv.ADMIN_PASSWORD });
    const twoFactor = await measureTwoFactorSignIn(server.url, owner);
    console.log(
      `  sign-in with two-factor (password + code): ${twoFactor.samples} accounts, p50 ${twoFactor.p50Ms.toFixed(1)} ms, p95 ${twoFactor.p95Ms.toFixed(1)} ms, ${twoFactor.failures} failed`,
    );
    verdict(
      'sign-in with two-factor p50',
      twoFactor.failures === 0 && twoFactor.p50Ms < TWO_FACTOR_SIGN_IN_TARGET_MS,
      `${twoFactor.p50Ms.toFixed(1)} ms (argon2id + TOTP, two requests; target < ${TWO_FACTOR_SIGN_IN_TARGET_MS} ms)`,
    );
    // As 100 browsers with 10 tabs each: a session may hold 10 streams (docs/security.md).
    const cookies: string[] = [];
    for (let i = 0; i < FANOUT_TARGET_CLIENTS / 10; i++) {
      cookies.push(await signInOverHttp(server.url, { email: adminEnv.ADMIN_EMAIL, password: adminEnv.ADMIN_PASSWORD }));
    }
    const fan = await measureFanout(server.url, cookies, FANOUT_TARGET_CLIENTS);
    console.log(
      `  streams: ${fan.connected}/${fan.clients} connected, ${fan.delivered} received the notification, slowest ${fan.slowestMs.toFixed(0)} ms, ${fan.failures} failures`,
    );
    verdict(
      'live notification to 1,000 streams on one process',
      fan.connected === FANOUT_TARGET_CLIENTS &&
        fan.delivered === FANOUT_TARGET_CLIENTS &&
        fan.slowestMs <= FANOUT_TARGET_MS &&
        fan.failures === 0,
      `${fan.delivered.toLocaleString('en-US')} of ${fan.clients.toLocaleString('en-US')} within ${fan.slowestMs.toFixed(0)} ms (target: all within ${FANOUT_TARGET_MS} ms)`,
    );
  }

  if (wants('pglite')) {
    console.log(`\nLead submissions through HTTP, PGlite`);
    const r = await measureLeadThroughput(server.url, load);
    if (interrupted.signal.aborted) return;
    for (const line of describeThroughput('PGlite', r, load.connections)) console.log(line);
    cleanups.pop();
    if ((await stop()) !== 0) console.log('  warning: the server did not stop cleanly');
    const leads = await countPgliteRows(dataDir, COUNT_LEADS);
    const notifications = await countPgliteRows(dataDir, COUNT_NOTIFICATIONS);
    verdict(
      'PGlite: no errors',
      hasNoFailures(r),
      `${r.measured.requestsPerSecond.toFixed(0)} req/s${ofHello(r.measured.requestsPerSecond)} (no target)`,
    );
    checkStored('PGlite', r, leads, notifications, earlierLeads);
  }
}

async function benchPostgres() {
  console.log(`\nLead submissions through HTTP, PostgreSQL`);
  const pgServer = await acquirePostgres();
  cleanups.push(pgServer.release);
  const database = await createFreshDatabase(pgServer.url);
  cleanups.push(database.drop);
  console.log(`  server: ${pgServer.source}; fresh database ${new URL(database.url).pathname.slice(1)}`);

  const server = await startBuiltServer({ ...serverEnv, DATABASE_URL: database.url });
  cleanups.push(server.stop);
  const r = await measureLeadThroughput(server.url, load);
  if (interrupted.signal.aborted) return;
  for (const line of describeThroughput('PostgreSQL', r, load.connections)) console.log(line);
  // Every request was answered before runLoad returned, so the count is final now.
  const leads = await countRows(database.url, COUNT_LEADS);
  const notifications = await countRows(database.url, COUNT_NOTIFICATIONS);
  const rps = r.measured.requestsPerSecond;
  verdict(
    'PostgreSQL: lead submissions/s with no error',
    rps >= POSTGRES_TARGET_RPS && hasNoFailures(r),
    `${rps.toFixed(0)} req/s${ofHello(rps)} (target ≥ ${POSTGRES_TARGET_RPS.toLocaleString('en-US')}), ` +
      `${r.measured.non2xx + r.warmup.non2xx} non-2xx, ${r.measured.errors + r.warmup.errors} errors`,
  );
  checkStored('PostgreSQL', r, leads, notifications);
  await runCleanups();
}

const EMAIL_SLOWDOWN_TARGET_PERCENT = 10;
const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
};
const DRAIN_MESSAGES = 1_000;
const DRAIN_TARGET_SECONDS = 30;
const MAIL_ENV = { MAIL_FROM: '"Bench Due Diligence" <hello@bench.example.com>' };
const COUNT_SENT = "select count(*) as n from emails where status = 'sent'";

/** A fresh database for one server run: its environment, how to open it, how to count in it once the server stopped. */
type FreshDatabase = { env: Record<string, string>; open: () => Promise<Database>; count: (query: string) => Promise<number> };

/**
 * `email`: the same lead load with email off and on, each on a fresh database; then the mail
 * the "on" run queued must all arrive, once each; then a server started on 1,000 queued
 * messages must send them within DRAIN_TARGET_SECONDS.
 */
async function benchEmail(engine: 'PGlite' | 'PostgreSQL', fresh: () => Promise<FreshDatabase>) {
  const rounds = envInt('BENCH_EMAIL_ROUNDS', 3, 1, 20);
  console.log(`\nLead submissions with email off and on, ${engine}: ${rounds} rounds of off then on, each on a fresh database`);
  const runLeads = async (label: string, env: Record<string, string>) => {
    const database = await fresh();
    const server = await startBuiltServer({ ...serverEnv, ...MAIL_ENV, ...database.env, ...env });
    cleanups.push(server.stop);
    const result = await measureLeadThroughput(server.url, load);
    for (const line of describeThroughput(`${engine}, ${label}`, result, load.connections)) console.log(line);
    return { database, server, result };
  };

  const offRuns: ThroughputResult[] = [];
  const onRuns: ThroughputResult[] = [];
  let delivered = true;
  for (let round = 1; round <= rounds; round++) {
    const off = await runLeads(`email off, round ${round}`, {});
    cleanups.pop();
    await off.server.stop();
    offRuns.push(off.result);

    const sink = await startSmtpSink();
    cleanups.push(sink.stop);
    const on = await runLeads(`email on, round ${round}`, { SMTP_URL: sink.smtpUrl });
    const loadEnded = performance.now();
    onRuns.push(on.result);
    // Each lead: its acknowledgement and the "new lead" alert to the one admin. The next round
    // starts once all of it arrived, so no round's load competes with an earlier backlog.
    const expected = on.result.expectedLeads * 2;
    const arrived = await sink.waitFor(expected, 15 * 60_000);
    const drainMs = performance.now() - loadEnded;
    for (const line of describeDrain('mail queued under load', expected, arrived, drainMs)) console.log(line);
    cleanups.pop();
    await on.server.stop();
    cleanups.pop();
    await sink.stop();
    const sent = await on.database.count(COUNT_SENT);
    const once = arrived.messages === expected && arrived.distinct === expected && sent === expected;
    if (!once) console.log(`    ${expected} queued, ${arrived.messages} received (${arrived.distinct} distinct), ${sent} marked sent`);
    delivered &&= once;
  }

  const rps = (runs: ThroughputResult[]) => runs.map((r) => r.measured.requestsPerSecond);
  const offRps = median(rps(offRuns));
  const onRps = median(rps(onRuns));
  const slowdown = slowdownPercent(offRps, onRps);
  const list = (runs: ThroughputResult[]) =>
    rps(runs)
      .map((n) => n.toFixed(0))
      .join(', ');
  verdict(
    `${engine}: lead submissions/s with email on`,
    slowdown <= EMAIL_SLOWDOWN_TARGET_PERCENT && [...offRuns, ...onRuns].every(hasNoFailures),
    `median ${onRps.toFixed(0)} req/s on${ofHello(onRps)} (${list(onRuns)}), ${offRps.toFixed(0)} off${ofHello(offRps)} (${list(offRuns)}): ` +
      `${slowdown >= 0 ? `${slowdown.toFixed(1)}% slower` : `${(-slowdown).toFixed(1)}% faster`} (target ≤ ${EMAIL_SLOWDOWN_TARGET_PERCENT}% slower)`,
  );
  verdict(
    `${engine}: every message queued under load delivered once`,
    delivered,
    `${onRuns.reduce((n, r) => n + r.expectedLeads * 2, 0).toLocaleString('en-US')} messages over ${rounds} rounds, each received once and marked sent`,
  );

  console.log(`\n${DRAIN_MESSAGES.toLocaleString('en-US')} queued messages, a server started on them, ${engine}`);
  const drainSink = await startSmtpSink();
  cleanups.push(drainSink.stop);
  const database = await fresh();
  const seeding = await database.open();
  try {
    await seeding.migrate();
    await seedQueuedMail(seeding.db, DRAIN_MESSAGES, 'bench.example.com');
  } finally {
    await seeding.close();
  }
  const spawned = performance.now();
  const server = await startBuiltServer({ ...serverEnv, ...MAIL_ENV, ...database.env, SMTP_URL: drainSink.smtpUrl });
  cleanups.push(server.stop);
  const drained = await drainSink.waitFor(DRAIN_MESSAGES, 120_000);
  const drainedMs = performance.now() - spawned;
  for (const line of describeDrain('queued before start', DRAIN_MESSAGES, drained, drainedMs)) console.log(line);
  verdict(
    `${engine}: 1,000 queued messages drained`,
    drained.messages === DRAIN_MESSAGES && drained.distinct === DRAIN_MESSAGES && drainedMs < DRAIN_TARGET_SECONDS * 1000,
    `${drained.messages.toLocaleString('en-US')} delivered (${drained.distinct.toLocaleString('en-US')} distinct) ${(drainedMs / 1000).toFixed(1)} s after the server was spawned, start-up included (target < ${DRAIN_TARGET_SECONDS} s)`,
  );
  await runCleanups();
}

/** `mixed`: 95% public pages and events, 4% leads, 1% admin reads on PostgreSQL; no errors allowed. */
async function benchMixed() {
  const seconds = envInt('BENCH_MIXED_SECONDS', 60, 1, 600);
  const connections = 64;
  console.log(
    `\nMixed workload on PostgreSQL (${seconds} s, ${connections} connections): ${MIX.page}% GET /, ${MIX.event}% analytics events, ${MIX.lead}% lead submissions, ${MIX.admin}% admin reads`,
  );
  const pgServer = await acquirePostgres();
  cleanups.push(pgServer.release);
  const database = await createFreshDatabase(pgServer.url);
  cleanups.push(database.drop);
  const server = await startBuiltServer({
    ...serverEnv,
    DATABASE_URL: database.url,
    ANALYTICS_RATE_LIMIT: process.env.BENCH_ANALYTICS_LIMIT ?? '0',
  });
  cleanups.push(server.stop);
  const cookie = await signInOverHttp(server.url, { email: adminEnv.ADMIN_EMAIL, password: adminEnv.ADMIN_PASSWORD });
  const r = await measureMixedLoad(server.url, cookie, { connections, warmupMs: 5_000, durationMs: seconds * 1000, signal: load.signal });
  const peak = server.peakRssBytes();
  cleanups.pop();
  await server.stop();
  for (const line of describeMixed(r, connections, peak)) console.log(line);
  const errors = r.measured.non2xx + r.measured.errors + r.warmup.non2xx + r.warmup.errors;
  const m = r.measured;
  verdict('mixed workload: no errors', errors === 0, `${errors} errors in ${(m.sent + r.warmup.sent).toLocaleString('en-US')} requests`);
  verdict(
    'mixed workload: throughput and latency',
    true,
    `${m.requestsPerSecond.toFixed(0)} req/s${ofHello(m.requestsPerSecond)}, p50 ${m.latencyMs.p50.toFixed(1)} ms, p99 ${m.latencyMs.p99.toFixed(1)} ms, server peak RSS ${peak === undefined ? 'unknown' : `${(peak / 1024 / 1024).toFixed(0)} MiB`} (no target)`,
  );
  const leads = await countRows(database.url, COUNT_LEADS);
  const events = await countRows(database.url, 'select count(*) as n from analytics_events');
  verdict(
    'mixed workload: every acknowledged lead and event stored',
    leads === acknowledged(r, 'lead') && events === acknowledged(r, 'event'),
    `leads ${acknowledged(r, 'lead')} acknowledged / ${leads} stored; events ${acknowledged(r, 'event')} acknowledged / ${events} stored`,
  );
  await runCleanups();
}

/** The mixed load through Caddy to 1, 2 and 3 app processes on one PostgreSQL database, each on a fresh database. */
async function benchCluster() {
  const seconds = envInt('BENCH_MIXED_SECONDS', 60, 1, 600);
  const connections = 64;
  console.log(
    `\nMixed workload through Caddy to 1, 2 and 3 app processes on PostgreSQL (${seconds} s each, ${connections} connections, each public request a visitor of its own)`,
  );
  const pgServer = await acquirePostgres();
  cleanups.push(pgServer.release);
  for (const processes of [1, 2, 3]) {
    const database = await createFreshDatabase(pgServer.url);
    cleanups.push(database.drop);
    const stateDir = mkdtempSync(path.join(tmpdir(), 'bench-cluster-'));
    cleanups.push(async () => rmSync(stateDir, { recursive: true, force: true }));
    // The production limits (10 leads an hour, 600 events a minute per visitor): each request comes from its own address.
    const env = { ...serverEnv, LEAD_RATE_LIMIT: '10', ANALYTICS_RATE_LIMIT: '600', DATABASE_URL: database.url };
    const cluster = await startCluster({ processes, env, stateDir, start: (e) => startBuiltServer(e) });
    cleanups.push(cluster.stop);
    const cookie = await signInOverHttp(cluster.url, { email: adminEnv.ADMIN_EMAIL, password: adminEnv.ADMIN_PASSWORD });
    const r = await measureMixedLoad(cluster.url, cookie, {
      connections,
      warmupMs: 5_000,
      durationMs: seconds * 1000,
      signal: load.signal,
      visitors: true,
    });
    const peaks = cluster.servers.map((s) => s.peakRssBytes() ?? 0);
    cleanups.pop();
    await cluster.stop();
    const m = r.measured;
    const errors = m.non2xx + m.errors + r.warmup.non2xx + r.warmup.errors;
    const leads = await countRows(database.url, COUNT_LEADS);
    const events = await countRows(database.url, 'select count(*) as n from analytics_events');
    const peak = `${(Math.max(...peaks) / 1024 / 1024).toFixed(0)} MiB`;
    console.log(
      `  ${processes} process${processes > 1 ? 'es' : ''}: ${m.requestsPerSecond.toFixed(0)} req/s, p50 ${m.latencyMs.p50.toFixed(1)} ms, p99 ${m.latencyMs.p99.toFixed(1)} ms, ${errors} errors, peak RSS per process ${peak}`,
    );
    verdict(
      `cluster of ${processes}: no errors, every acknowledged write stored`,
      errors === 0 && leads === acknowledged(r, 'lead') && events === acknowledged(r, 'event'),
      `${m.requestsPerSecond.toFixed(0)} req/s${ofHello(m.requestsPerSecond)}, p50 ${m.latencyMs.p50.toFixed(1)} ms, p99 ${m.latencyMs.p99.toFixed(1)} ms; ${errors} errors; leads ${acknowledged(r, 'lead')}/${leads}, events ${acknowledged(r, 'event')}/${events} acknowledged/stored`,
    );
  }
  await runCleanups();
}

/**
 * Seeds a database while no server holds it (PGlite allows one process), then starts the
 * server on it and signs in: the server and the admin's cookie.
 */
async function seedThenServe(open: () => Promise<Database>, seed: (db: Database['db']) => Promise<void>, env: Record<string, string>) {
  const started = performance.now();
  const database = await open();
  try {
    await database.migrate();
    await seed(database.db);
  } finally {
    await database.close();
  }
  console.log(`  seeded in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  const server = await startBuiltServer({ ...serverEnv, ...env });
  cleanups.push(server.stop);
  const cookie = await signInOverHttp(server.url, { email: adminEnv.ADMIN_EMAIL, password: adminEnv.ADMIN_PASSWORD });
  return { server, cookie };
}

const SCALE_TARGET_MS = { PGlite: 150, PostgreSQL: 50 } as const;

/** Seeds 100,000 leads (the server must not be running), then times the dashboard's queries. */
async function benchScale(engine: keyof typeof SCALE_TARGET_MS, open: () => Promise<Database>, env: Record<string, string>) {
  console.log(`\nLeads Manager and Overview at ${SCALE_LEADS.toLocaleString('en-US')} leads, ${engine}`);
  let plans: Awaited<ReturnType<typeof phoneSearchPlans>> = [];
  const { server, cookie } = await seedThenServe(
    open,
    async (db) => {
      await seedLeadsAtScale(db);
      plans = await phoneSearchPlans(db);
    },
    env,
  );
  for (const p of plans) {
    verdict(
      `${engine} at 100k leads: phone search ${JSON.stringify(p.search)} (${p.statement}) uses the digits index`,
      p.usesIndex,
      p.usesIndex ? 'EXPLAIN names leads_phone_digits_trgm_idx' : 'EXPLAIN does not name leads_phone_digits_trgm_idx',
    );
  }
  const timings = await timeQueries(server.url, cookie);
  const target = SCALE_TARGET_MS[engine];
  for (const t of timings) {
    verdict(
      `${engine} at 100k leads: ${t.name}`,
      t.p95Ms < target && t.failures === 0,
      `p50 ${t.p50Ms.toFixed(1)} ms, p95 ${t.p95Ms.toFixed(1)} ms (target p95 < ${target} ms)${t.failures ? `, ${t.failures} failed` : ''}`,
    );
  }
  await runCleanups();
}

const LEAD_PAGE_TARGET_MS = { PGlite: undefined, PostgreSQL: 30 } as const;
/** The conversation lead's reads (500 messages) on PostgreSQL: p95 under 50 ms. */
const CONVERSATION_TARGET_MS = 50;

/** Seeds 100,000 leads and one with a 200-entry timeline (the server must not be running), then times the lead page's reads. */
async function benchLeadPage(engine: keyof typeof LEAD_PAGE_TARGET_MS, open: () => Promise<Database>, env: Record<string, string>) {
  console.log(`\nThe lead page at ${SCALE_LEADS.toLocaleString('en-US')} leads, one with ${TIMELINE_ENTRIES} timeline entries, ${engine}`);
  let ids = { timeline: '', conversation: '' };
  const { server, cookie } = await seedThenServe(
    open,
    async (db) => {
      ids = await seedLeadPage(db);
    },
    env,
  );
  const { timings, kinds } = await timeLeadPage(server.url, cookie, ids);
  console.log(
    `  timeline: ${Object.entries(kinds)
      .map(([k, n]) => `${n} ${k}`)
      .join(', ')}`,
  );
  for (const t of timings) {
    const target =
      LEAD_PAGE_TARGET_MS[engine] === undefined
        ? undefined
        : t.name.includes('messages')
          ? CONVERSATION_TARGET_MS
          : LEAD_PAGE_TARGET_MS[engine];
    verdict(
      `${engine} lead page: ${t.name}`,
      (target === undefined || t.p95Ms < target) && t.failures === 0,
      `p50 ${t.p50Ms.toFixed(1)} ms, p95 ${t.p95Ms.toFixed(1)} ms over 300 requests (${target === undefined ? 'no target' : `target p95 < ${target} ms`})${t.failures ? `, ${t.failures} failed` : ''}`,
    );
  }
  await runCleanups();
}

const TASKS_TARGET_MS = { PGlite: undefined, PostgreSQL: 50 } as const;

/** My tasks at 50,000 tasks (bench/tasks.ts). */
async function benchTasks(engine: keyof typeof TASKS_TARGET_MS, open: () => Promise<Database>, env: Record<string, string>) {
  console.log(`\nMy tasks at ${TASKS.toLocaleString('en-US')} tasks, ${engine}`);
  let leadId = '';
  const { server, cookie } = await seedThenServe(
    open,
    async (db) => {
      leadId = (await seedTasks(db, { email: adminEnv.ADMIN_EMAIL, password: adminEnv.ADMIN_PASSWORD })).leadId;
    },
    env,
  );
  for (const t of await timeTasks(server.url, cookie, leadId)) {
    const target = TASKS_TARGET_MS[engine];
    verdict(
      `${engine} tasks: ${t.name}`,
      (target === undefined || t.p95Ms < target) && t.failures === 0,
      `p50 ${t.p50Ms.toFixed(1)} ms, p95 ${t.p95Ms.toFixed(1)} ms over 300 requests (${target === undefined ? 'no target' : `target p95 < ${target} ms`})${t.failures ? `, ${t.failures} failed` : ''}`,
    );
  }
  await runCleanups();
}

/** The board's targets on PostgreSQL: a column's page, a move (p95). PGlite: figures only. */
const BOARD_TARGET_MS = { PGlite: undefined, PostgreSQL: { page: 150, move: 30 } } as const;

/** Seeds the board's leads (the server must not be running), then times its reads and moves. */
async function benchBoard(engine: keyof typeof BOARD_TARGET_MS, open: () => Promise<Database>, env: Record<string, string>) {
  console.log(`\nThe pipeline board with ${BOARD_OPEN_LEADS.toLocaleString('en-US')} open leads, ${engine}`);
  const { server, cookie } = await seedThenServe(open, (db) => seedBoard(db), env);
  for (const t of await timeBoard(server.url, cookie)) {
    const targets = BOARD_TARGET_MS[engine];
    const target =
      targets === undefined
        ? undefined
        : t.name.startsWith('a move')
          ? targets.move
          : t.name.includes('whole board')
            ? undefined
            : targets.page;
    const share = target === undefined ? '' : `, ${((t.p95Ms / target) * 100).toFixed(0)}% of the target`;
    verdict(
      `${engine} board: ${t.name}`,
      (target === undefined || t.p95Ms < target) && t.failures === 0,
      `p50 ${t.p50Ms.toFixed(1)} ms, p95 ${t.p95Ms.toFixed(1)} ms (${target === undefined ? 'no target' : `target p95 < ${target} ms`}${share})${t.failures ? `, ${t.failures} failed` : ''}`,
    );
  }
  await runCleanups();
}

async function benchIngest(engine: Engine, env: Record<string, string>, countStored: () => Promise<number>) {
  const seconds = envInt('BENCH_INGEST_SECONDS', 60, 1, 600);
  console.log(`\nAnalytics ingestion through HTTP, ${engine} (${seconds} s, 64 connections)`);
  // A bare Hono hello-world in its own process, measured just before: how fast any endpoint could be now.
  const helloWorld = await startHelloWorld();
  cleanups.push(helloWorld.stop);
  const server = await startBuiltServer({ ...serverEnv, ...env, ANALYTICS_RATE_LIMIT: process.env.BENCH_ANALYTICS_LIMIT ?? '0' });
  cleanups.push(server.stop);
  const { events, hello } = await measureIngestion(server.url, helloWorld.url, 64, seconds * 1000);
  cleanups.pop();
  await server.stop();
  cleanups.pop();
  await helloWorld.stop();
  const stored = await countStored();
  const rps = events.requestsPerSecond;
  const ratio = rps / hello.requestsPerSecond;
  const goal = WRITE_PATHS.events.goals[engine];
  console.log(
    `  bare Hono hello-world: ${hello.requestsPerSecond.toFixed(0)} req/s; events: ${rps.toFixed(0)}/s, p50 ${events.latencyMs.p50.toFixed(1)} ms, p99 ${events.latencyMs.p99.toFixed(1)} ms`,
  );
  console.log(
    `  sent ${events.sent.toLocaleString('en-US')}, acknowledged ${events.ok2xx.toLocaleString('en-US')}, stored ${stored.toLocaleString('en-US')}, non-2xx ${events.non2xx}, errors ${events.errors}`,
  );
  verdict(
    `${engine}: every acknowledged event stored`,
    stored === events.ok2xx && events.errors === 0 && events.non2xx === 0,
    `${events.ok2xx} acknowledged, ${stored} stored`,
  );
  verdict(`${engine}: events/s`, ratio >= goal, `${rps.toFixed(0)}/s = ${ratio.toFixed(3)}× hello-world (goal ≥ ${goal}×)`);
}

/**
 * `write-paths`: analytics events and lead submissions with email on, PGlite and PostgreSQL,
 * each the median of three rounds of BENCH_SECONDS against a hello-world just before
 * (bench/write-paths.ts, the same measurement CI's check:write-paths makes, judged here by the goals).
 */
async function benchWritePaths() {
  console.log(`\nWrite paths as a ratio to a hello-world of the same round (median of 3 × ${load.durationMs / 1000} s)`);
  const pgServer = await acquirePostgres();
  cleanups.push(pgServer.release);
  const sink = await startSmtpSink();
  cleanups.push(sink.stop);
  await runWritePaths({
    engines: ['PGlite', 'PostgreSQL'],
    paths: ['events', 'leads'],
    rounds: 3,
    seconds: load.durationMs / 1000,
    fresh: freshDatabases(async () => pgServer.url),
    serve: (env) => startBuiltServer(env),
    sink,
    signal: load.signal,
    onReport: (r) => verdict(`${WRITE_PATHS[r.path].label}, ${r.engine}`, r.ratio >= r.goal && passes(r), describeReport(r)),
  });
  await runCleanups();
}

/** The report's and sources' target p95 (ms), for 90 days: PostgreSQL at 10M events, PGlite at 1M. */
const REPORT_TARGET_MS = { PGlite: 400, PostgreSQL: 150 } as const;

async function benchSummary(engine: 'PGlite' | 'PostgreSQL', open: () => Promise<Database>, env: Record<string, string>, sizes: number[]) {
  for (const size of sizes) {
    const label = `${size / 1_000_000}M events`;
    console.log(
      `\nAnalytics summary, funnel and sources with ${size.toLocaleString('en-US')} events and ${leadsFor(size).toLocaleString('en-US')} leads, ${engine}`,
    );
    const { server, cookie } = await seedThenServe(open, (db) => seedEventsAndLeads(db, size), env);
    for (const t of await timeSummary(server.url, cookie)) {
      const target = engine === 'PostgreSQL' && size >= 10_000_000 && t.period === '30d' ? 100 : undefined;
      const detail = `p50 ${t.p50.toFixed(1)} ms, p95 ${t.p95.toFixed(1)} ms${target ? ` (target p95 < ${target} ms)` : ''}`;
      verdict(`${engine} summary ${t.period} at ${label}`, target ? t.p95 < target : true, detail);
    }
    const shape = await fetch(`${server.url}/api/analytics/report?days=90`, { headers: { cookie } }).then(
      (r) => r.json() as Promise<{ funnel: Record<string, number> }>,
    );
    const sources = await fetch(`${server.url}/api/analytics/sources?days=90&group=utm`, { headers: { cookie } }).then(
      (r) => r.json() as Promise<{ rows: unknown[] }>,
    );
    console.log(
      `  90-day funnel: ${Object.entries(shape.funnel)
        .map(([k, n]) => `${k} ${n.toLocaleString('en-US')}`)
        .join(', ')}; ${sources.rows.length} UTM rows`,
    );
    const judged = engine === 'PostgreSQL' ? size >= 10_000_000 : size >= 1_000_000;
    for (const t of await timeReport(server.url, cookie)) {
      const target = judged && t.name.endsWith(' 90d') ? REPORT_TARGET_MS[engine] : undefined;
      const detail = `p50 ${t.p50.toFixed(1)} ms, p95 ${t.p95.toFixed(1)} ms${target ? ` (target p95 < ${target} ms)` : ''}`;
      verdict(`${engine} ${t.name} at ${label}`, target ? t.p95 < target : true, detail);
    }
    cleanups.pop();
    await server.stop();
  }
}

async function main() {
  if (!existsSync(BUILT_SERVER)) throw new Error(`${BUILT_SERVER} is missing: run npm run build first`);
  console.log(`bench: ${load.connections} connections, ${load.warmupMs / 1000} s warm-up, ${load.durationMs / 1000} s per run`);
  try {
    if (['pglite', 'postgres', 'email', 'mixed', 'booking', 'cluster', 'webhooks'].some(wants)) {
      const hello = await startHelloWorld();
      cleanups.push(hello.stop);
      helloRps = (
        await runLoad({
          url: `${hello.url}/`,
          method: 'GET',
          headers: {},
          body: () => '',
          connections: load.connections,
          durationMs: 10_000,
          maxRequests: 5_000_000,
        })
      ).requestsPerSecond;
      await runCleanups();
      console.log(
        `bare Hono hello-world on this machine now: ${helloRps.toFixed(0)} req/s (${load.connections} connections, 10 s); throughputs below are also shown as a share of it`,
      );
    }
    if (wants('write-paths')) await benchWritePaths();
    if (wants('page') || wants('auth') || wants('pglite')) {
      await benchPglite();
      await runCleanups();
    }
    if (wants('lighthouse')) {
      console.log(`\nLighthouse on / (mobile emulation)`);
      const lh = await benchLighthouse(adminEnv);
      verdict(
        'Lighthouse scores for /',
        lh.pass,
        `${LIGHTHOUSE_CATEGORIES.map((c) => `${c} ${lh.scores[c]}`).join(', ')} (targets: ${describeTargets()})`,
      );
    }
    if (wants('postgres')) await benchPostgres();
    if (wants('email')) {
      await benchEmail('PGlite', async () => {
        const dataDir = mkdtempSync(path.join(tmpdir(), 'bench-email-'));
        cleanups.push(async () => rmSync(dataDir, { recursive: true, force: true }));
        return { env: { DATA_DIR: dataDir }, open: () => openPglite(dataDir), count: (q) => countPgliteRows(dataDir, q) };
      });
      const pgServer = await acquirePostgres();
      cleanups.push(pgServer.release);
      await benchEmail('PostgreSQL', async () => {
        const database = await createFreshDatabase(pgServer.url);
        cleanups.push(database.drop);
        return {
          env: { DATABASE_URL: database.url },
          open: async () => openPostgres(database.url, 2),
          count: (q) => countRows(database.url, q),
        };
      });
      await runCleanups();
    }
    if (wants('mixed')) await benchMixed();
    if (wants('scale')) {
      const dataDir = mkdtempSync(path.join(tmpdir(), 'bench-scale-'));
      cleanups.push(async () => rmSync(dataDir, { recursive: true, force: true }));
      await benchScale('PGlite', () => openPglite(dataDir), { DATA_DIR: dataDir });
      const pgServer = await acquirePostgres();
      cleanups.push(pgServer.release);
      const database = await createFreshDatabase(pgServer.url);
      cleanups.push(database.drop);
      await benchScale('PostgreSQL', async () => openPostgres(database.url, 2), { DATABASE_URL: database.url });
      await runCleanups();
    }
    if (wants('lead-page')) {
      const dataDir = mkdtempSync(path.join(tmpdir(), 'bench-lead-page-'));
      cleanups.push(async () => rmSync(dataDir, { recursive: true, force: true }));
      await benchLeadPage('PGlite', () => openPglite(dataDir), { DATA_DIR: dataDir });
      const pgServer = await acquirePostgres();
      cleanups.push(pgServer.release);
      const database = await createFreshDatabase(pgServer.url);
      cleanups.push(database.drop);
      await benchLeadPage('PostgreSQL', async () => openPostgres(database.url, 2), { DATABASE_URL: database.url });
      await runCleanups();
    }
    for (const [part, bench] of [
      ['board', benchBoard],
      ['tasks', benchTasks],
    ] as const) {
      if (!wants(part)) continue;
      const dataDir = mkdtempSync(path.join(tmpdir(), `bench-${part}-`));
      cleanups.push(async () => rmSync(dataDir, { recursive: true, force: true }));
      await bench('PGlite', () => openPglite(dataDir), { DATA_DIR: dataDir });
      const pgServer = await acquirePostgres();
      cleanups.push(pgServer.release);
      const database = await createFreshDatabase(pgServer.url);
      cleanups.push(database.drop);
      await bench('PostgreSQL', async () => openPostgres(database.url, 2), { DATABASE_URL: database.url });
      await runCleanups();
    }
    if (wants('replies')) {
      const dataDir = mkdtempSync(path.join(tmpdir(), 'bench-replies-'));
      cleanups.push(async () => rmSync(dataDir, { recursive: true, force: true }));
      await benchReplies('PGlite', () => openPglite(dataDir), verdict);
      const pgServer = await acquirePostgres();
      cleanups.push(pgServer.release);
      const database = await createFreshDatabase(pgServer.url);
      cleanups.push(database.drop);
      await benchReplies('PostgreSQL', async () => openPostgres(database.url, 2), verdict);
      await runCleanups();
    }
    if (wants('booking')) {
      await benchBooking({
        serve: (env) => startBuiltServer({ ...serverEnv, ...env }),
        admin: { email: adminEnv.ADMIN_EMAIL, password: adminEnv.ADMIN_PASSWORD },
        connections: load.connections,
        signal: load.signal,
        cleanups,
        verdict,
        ofHello,
      });
      await runCleanups();
    }
    if (wants('availability')) {
      await benchAvailability({
        serve: (env) => startBuiltServer({ ...serverEnv, ...env }),
        admin: { email: adminEnv.ADMIN_EMAIL, password: adminEnv.ADMIN_PASSWORD },
        signal: load.signal,
        cleanups,
        verdict,
      });
      await runCleanups();
    }
    if (wants('calendars')) {
      await benchCalendarAvailability({
        serve: (env) => startBuiltServer({ ...serverEnv, ...env }),
        admin: { email: adminEnv.ADMIN_EMAIL, password: adminEnv.ADMIN_PASSWORD },
        signal: load.signal,
        cleanups,
        verdict,
      });
      await runCleanups();
    }
    if (wants('import')) {
      await benchImport({
        serve: (env) => startBuiltServer({ ...serverEnv, ...env }),
        admin: { email: adminEnv.ADMIN_EMAIL, password: adminEnv.ADMIN_PASSWORD },
        cleanups,
        verdict,
      });
      await runCleanups();
    }
    if (wants('cluster')) await benchCluster();
    if (wants('webhooks')) {
      await benchWebhooks({
        serve: (env) => startBuiltServer({ ...serverEnv, ...env }),
        admin: { email: adminEnv.ADMIN_EMAIL, password: adminEnv.ADMIN_PASSWORD },
        load,
        cleanups,
        verdict,
        ofHello,
      });
      await runCleanups();
    }
    if (wants('move')) {
      await benchMove({ cleanups, verdict });
      await runCleanups();
    }
    if (wants('ingest') || wants('analytics')) {
      const dataDir = mkdtempSync(path.join(tmpdir(), 'bench-analytics-'));
      cleanups.push(async () => rmSync(dataDir, { recursive: true, force: true }));
      const pgServer = await acquirePostgres();
      cleanups.push(pgServer.release);
      const database = await createFreshDatabase(pgServer.url);
      cleanups.push(database.drop);
      const COUNT_EVENTS = 'select count(*) as n from analytics_events';
      if (wants('ingest')) {
        await benchIngest('PGlite', { DATA_DIR: dataDir }, () => countPgliteRows(dataDir, COUNT_EVENTS));
        await benchIngest('PostgreSQL', { DATABASE_URL: database.url }, () => countRows(database.url, COUNT_EVENTS));
      }
      if (wants('analytics')) {
        await benchSummary('PGlite', () => openPglite(dataDir), { DATA_DIR: dataDir }, [1_000_000]);
        await benchSummary(
          'PostgreSQL',
          async () => openPostgres(database.url, 2),
          { DATABASE_URL: database.url },
          [1_000_000, 10_000_000],
        );
      }
      await runCleanups();
    }
  } finally {
    await runCleanups();
  }
  if (interrupted.signal.aborted) return;
  console.log('\nSummary');
  for (const v of verdicts) console.log(`  ${v.pass ? 'PASS' : 'FAIL'}  ${v.name}: ${v.detail}`);
  process.exitCode = verdicts.every((v) => v.pass) ? 0 : 1;
}

main().catch(async (err: unknown) => {
  if (interrupted.signal.aborted) return; // the signal handler cleans up and exits
  console.error(`bench failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
  await runCleanups();
  process.exit(1);
});
