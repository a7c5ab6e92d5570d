/**
 * `booking`: online booking against the built server, on PGlite and PostgreSQL.
 * - availability: GET /api/public/availability for today to today + 30 (business dates) with
 *   10,000 appointments seeded in SQL (a few hundred of them inside those 30 days, in open
 *   hours), sequential requests, p50/p95 (target p95 < 50 ms on PostgreSQL, < 150 ms on PGlite);
 * - bookings: on a fresh database, one lead per booking token through POST /api/public/leads,
 *   then every open slot of the next 30 days raced for by 2 to 4 tokens at once through POST
 *   /api/public/bookings from BENCH_CONNECTIONS connections: answered requests/s (201 and 409
 *   both count; target ≥ 600 on PostgreSQL), and in SQL no two scheduled appointments
 *   overlapping, one booked appointment per 201, each raced slot booked once.
 * Settings for both (PUT /api/booking-settings as the ADMIN_EMAIL admin): open 9 to 5 on all
 * seven days (so the figures do not depend on the weekday the bench runs), 30-minute slots, no
 * buffer, no minimum notice, 30 days ahead.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import type { BookingSettings } from '#shared/schemas/booking';
import { addDays, zonedParts } from '#shared/zoned-time';
import { openPglite, openPostgres, type Database, type Db } from '../src/server/db/client.ts';
import { ensureAdmin } from '../src/server/auth/accounts.ts';
import { execute } from '../src/server/db/sql.ts';
import { OPEN_EVERY_DAY } from '../src/server/test/open-every-day.ts';
import { signInOverHttp, type ServerProcess } from '../src/server/test/process.ts';
import { leadBody } from './lead-throughput.ts';
import { runLoad, type LoadResult } from './lib/load.ts';
import { countPgliteRows } from './lib/pglite-count.ts';
import { acquirePostgres, countRows, createFreshDatabase } from './lib/postgres.ts';

type Engine = 'PGlite' | 'PostgreSQL';

/** What bench/run.ts lends this part: its server start, cleanups and verdicts. */
export type BookingBench = {
  /** The built server with the bench's environment (LEAD_RATE_LIMIT=0, the ADMIN_EMAIL admin) and `env` (ENV below: the booking limits off). */
  serve: (env: Record<string, string>) => Promise<ServerProcess>;
  admin: { email: string; password: string };
  connections: number;
  signal: AbortSignal;
  /** Run in reverse order by bench/run.ts; a step that finishes early pops its own. */
  cleanups: (() => Promise<unknown>)[];
  verdict: (name: string, pass: boolean, detail: string) => void;
  /** " = 0.012× hello-world" for a rate, from the run's hello-world ('' if none was measured). */
  ofHello: (rps: number) => string;
};

export const BOOKING_TIME_ZONE = 'America/New_York';
// The website's booking limits off (BOOKING_RATE_LIMIT, BOOKING_HOLD_ABOVE_PER_HOUR): the bench
// measures how fast bookings are taken, from one load generator, far above any real hour's.
/** The seeded calls' host: the ADMIN_EMAIL admin, the first account, who takes website calls. */
const HOST = sql`(select id from users order by created_at, id limit 1)`;

const ENV = {
  BUSINESS_TIME_ZONE: BOOKING_TIME_ZONE,
  LEAD_MIN_FILL_SECONDS: '0',
  BOOKING_RATE_LIMIT: '0',
  BOOKING_HOLD_ABOVE_PER_HOUR: '0',
};

export const BENCH_BOOKING_SETTINGS: BookingSettings = OPEN_EVERY_DAY;

export const SEEDED_APPOINTMENTS = 10_000;
/** Of them, scheduled inside the 30 days asked for, in open hours (of 31 × 16 half-hour slots). */
export const SEEDED_IN_WINDOW = 300;
const AVAILABILITY_TARGET_MS: Record<Engine, number> = { PGlite: 150, PostgreSQL: 50 };
// The goal since bookings went per person: 600 answered/s on PostgreSQL (docs/performance.md says where it stands).
const BOOKINGS_TARGET_RPS = 600;
/** Races on PostgreSQL, each on a fresh database; the throughput verdict takes their median. */
const RACES = Math.max(1, Number(process.env.BENCH_BOOKING_RACES ?? 3));

const fmt = (n: number, digits = 0) => n.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits });

/**
 * 10,000 appointments, none overlapping another (so the no-overlap constraint holds without
 * overlap_allowed), all on the half hours of 9 to 5 on the business clock: SEEDED_IN_WINDOW
 * scheduled ones spread over today to today + 30, the rest over the year before and the
 * year after that window (past ones completed, a tenth of each cancelled).
 */
export async function seedAppointments(
  db: Db,
  timeZone = BOOKING_TIME_ZONE,
  count = SEEDED_APPOINTMENTS,
  inWindow = SEEDED_IN_WINDOW,
): Promise<void> {
  const today = sql`(now() at time zone ${timeZone})::date`;
  const windowSlots = 31 * 16;
  if (inWindow > windowSlots) throw new Error(`at most ${windowSlots} appointments fit in the window`);
  // Inside the window: position p (0 to 495) is day p / 16, half-hour p % 16 after 9:00.
  await execute(
    db,
    sql`
    insert into appointments (date, time, type, duration_minutes, status, source, created_at, host_id)
    select ${today} + p / 16, make_time(9 + (p % 16) / 2, (p % 2) * 30, 0),
           (array['Call','Zoom','On-site'])[1 + k % 3], 30, 'scheduled',
           case when k % 4 = 0 then 'booking' else 'staff' end, now() - make_interval(days => 1 + k % 20), ${HOST}
    from (select k, (k * ${windowSlots}::int / ${inWindow}::int) as p from generate_series(0, ${inWindow - 1}::int) as k) s`,
  );
  // Outside it: 700 days (365 before today, then day 31 to 365 after), 16 positions each.
  const outside = count - inWindow;
  const outsideSlots = 700 * 16;
  if (outside > outsideSlots) throw new Error(`at most ${outsideSlots + windowSlots} appointments fit`);
  await execute(
    db,
    sql`
    insert into appointments (date, time, type, duration_minutes, status, cancelled_by, source, reminder_sent_at, lead_reminder_sent_at, created_at, host_id)
    select d.date, make_time(9 + (p % 16) / 2, (p % 2) * 30, 0), (array['Call','Zoom','On-site'])[1 + k % 3], 30,
           case when k % 10 = 0 then 'cancelled' when d.date < ${today} then 'completed' else 'scheduled' end,
           case when k % 10 = 0 then 'staff' end,
           case when k % 4 = 0 then 'booking' else 'staff' end,
           case when d.date < ${today} then d.date + time '08:00' end,
           case when d.date < ${today} then d.date - 1 + time '09:00' end,
           least(now(), d.date - make_interval(days => 3 + k % 20)), ${HOST}
    from (select k, (k::bigint * ${outsideSlots}::int / ${outside}::int)::int as p from generate_series(0, ${outside - 1}::int) as k) s,
         lateral (select ${today} + case when p / 16 < 365 then p / 16 - 365 else p / 16 - 365 + 31 end as date) d`,
  );
  await execute(db, sql`analyze appointments`);
}

export type Percentiles = { samples: number; p50Ms: number; p95Ms: number; failures: number; slots: number };

const at = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))] ?? Number.NaN;

/** The business dates today and today + 30 (the window the public page asks for). */
export function bookingWindow(now = Date.now(), timeZone = BOOKING_TIME_ZONE): { from: string; to: string } {
  const from = zonedParts(now, timeZone).date;
  return { from, to: addDays(from, 30) };
}

type AvailabilityAnswer = { enabled: boolean; slots: string[] };

async function getAvailability(origin: string): Promise<{ status: number; body: AvailabilityAnswer | undefined }> {
  const { from, to } = bookingWindow();
  const res = await fetch(`${origin}/api/public/availability?from=${from}&to=${to}`);
  const text = await res.text();
  return { status: res.status, body: res.status === 200 ? (JSON.parse(text) as AvailabilityAnswer) : undefined };
}

/** Sequential GETs of the 30-day window on loopback: the server's time plus well under a millisecond. */
export async function timeAvailability(origin: string, samples = 100, warmup = 10): Promise<Percentiles> {
  const times: number[] = [];
  let failures = 0;
  let slots = 0;
  for (let i = 0; i < warmup + samples; i++) {
    const started = performance.now();
    const { status, body } = await getAvailability(origin);
    const ms = performance.now() - started;
    if (status !== 200 || !body?.enabled) failures++;
    slots = body?.slots.length ?? 0;
    if (i >= warmup) times.push(ms);
  }
  times.sort((a, b) => a - b);
  return { samples, p50Ms: at(times, 0.5), p95Ms: at(times, 0.95), failures, slots };
}

async function saveSettings(server: ServerProcess, admin: BookingBench['admin']): Promise<void> {
  const cookie = await signInOverHttp(server.url, admin);
  const res = await fetch(`${server.url}/api/booking-settings`, {
    method: 'PUT',
    headers: { cookie, 'content-type': 'application/json', origin: server.url },
    body: JSON.stringify(BENCH_BOOKING_SETTINGS),
  });
  if (res.status !== 200) throw new Error(`PUT /api/booking-settings answered ${res.status}: ${await res.text()}`);
}

/** One booking attempt: the token of one lead, for one start time. */
export type Attempt = { token: string; start: string };

/**
 * Each slot raced for by 2, 3 or 4 tokens in turn (so about 3 per slot), the attempts at one
 * slot next to each other so they are in flight together; each token used once.
 */
export function attemptsPerSlot(slotIndex: number): number {
  return 2 + (slotIndex % 3);
}

export function planRace(slots: string[], tokens: string[]): Attempt[] {
  const attempts: Attempt[] = [];
  let t = 0;
  slots.forEach((start, i) => {
    for (let n = 0; n < attemptsPerSlot(i); n++) {
      const token = tokens[t++];
      if (token === undefined) throw new Error(`planRace: ${tokens.length} tokens are too few for ${slots.length} slots`);
      attempts.push({ token, start });
    }
  });
  return attempts;
}

/** Fisher-Yates, in place: the slots in random order, so concurrent attempts spread over the days. */
function shuffle<T>(items: T[]): T[] {
  for (let i = items.length - 1; i > 0; i--) {
    const j = Math.floor(Math.random() * (i + 1));
    [items[i], items[j]] = [items[j]!, items[i]!];
  }
  return items;
}

export const tokensNeeded = (slots: number) => Array.from({ length: slots }, (_, i) => attemptsPerSlot(i)).reduce((a, b) => a + b, 0);

/** The booking answers: 201 booked, 409 taken (both answered); anything else is a failure. */
export type BookingTally = { booked: number; taken: number; otherStatuses: Map<number, number>; errors: number; answeredPerSecond: number };

export function tallyBookings(r: LoadResult): BookingTally {
  const otherStatuses = new Map([...r.statuses].filter(([status]) => status !== 409));
  // runLoad counts every 2xx as ok2xx: booking answers 201 only.
  const taken = r.statuses.get(409) ?? 0;
  return {
    booked: r.ok2xx,
    taken,
    otherStatuses,
    errors: r.errors,
    answeredPerSecond: r.elapsedMs > 0 ? (r.ok2xx + taken) / (r.elapsedMs / 1000) : 0,
  };
}

/** `count` leads through the public form, from a few connections at once: their booking tokens. */
async function createLeads(origin: string, count: number, signal: AbortSignal, concurrency = 8): Promise<string[]> {
  const tokens: string[] = [];
  let next = 0;
  const worker = async () => {
    while (next < count && !signal.aborted) {
      next++;
      const res = await fetch(`${origin}/api/public/leads`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', origin },
        body: leadBody(),
      });
      const text = await res.text();
      if (res.status !== 201) throw new Error(`POST /api/public/leads answered ${res.status}: ${text.slice(0, 300)}`);
      tokens.push((JSON.parse(text) as { booking_token: string }).booking_token);
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  return tokens;
}

/** Pairs of scheduled appointments whose times (with their buffers) overlap. */
const DOUBLE_BOOKINGS = `select count(*) as n from appointments a join appointments b on a.id < b.id and a.blocks && b.blocks
  where a.status = 'scheduled' and b.status = 'scheduled'`;
const BOOKED = "select count(*) as n from appointments where status = 'scheduled' and source = 'booking'";
const BOOKED_SLOTS = "select count(distinct (date, time)) as n from appointments where status = 'scheduled' and source = 'booking'";
const LINKED_TOKENS = 'select count(*) as n from booking_tokens where appointment_id is not null';
const ROLLBACKS = 'select xact_rollback as n from pg_stat_database where datname = current_database()';

async function benchAvailability(b: BookingBench, engine: Engine, open: () => Promise<Database>, env: Record<string, string>) {
  console.log(
    `\nAvailability for 30 days with ${fmt(SEEDED_APPOINTMENTS)} appointments (${fmt(SEEDED_IN_WINDOW)} in the window), ${engine}`,
  );
  const started = performance.now();
  const database = await open();
  try {
    await database.migrate();
    // The admin first: the seeded calls are theirs (the first account takes website calls).
    await ensureAdmin(database.db, b.admin.email, b.admin.password);
    await seedAppointments(database.db);
  } finally {
    await database.close();
  }
  console.log(`  seeded in ${fmt((performance.now() - started) / 1000, 1)} s`);
  const server = await b.serve({ ...ENV, ...env });
  b.cleanups.push(server.stop);
  await saveSettings(server, b.admin);
  const t = await timeAvailability(server.url);
  b.cleanups.pop();
  await server.stop();
  const { from, to } = bookingWindow();
  console.log(`  GET /api/public/availability?from=${from}&to=${to}: ${t.samples} sequential, ${fmt(t.slots)} open slots in the answer`);
  const target = AVAILABILITY_TARGET_MS[engine];
  b.verdict(
    `${engine}: availability for 30 days at 10,000 appointments`,
    t.p95Ms < target && t.failures === 0 && t.slots > 0,
    `p50 ${fmt(t.p50Ms, 1)} ms, p95 ${fmt(t.p95Ms, 1)} ms (target p95 < ${target} ms)${t.failures ? `, ${t.failures} failed` : ''}${t.slots > 0 ? '' : ', no open slots'}`,
  );
}

/** The server's warnings and errors (pino JSON lines), each kind once with its count. */
export function serverComplaints(output: string): string[] {
  const kinds = new Map<string, number>();
  for (const line of output.split('\n')) {
    let entry: { level?: number; msg?: string; error?: string; dbCode?: string; message?: string };
    try {
      entry = JSON.parse(line) as typeof entry;
    } catch {
      continue;
    }
    if ((entry.level ?? 0) < 40) continue;
    const kind = [
      entry.level === 40 ? 'warn' : 'error',
      entry.msg,
      entry.error,
      entry.dbCode && `SQLSTATE ${entry.dbCode}`,
      entry.message?.slice(0, 200),
    ]
      .filter(Boolean)
      .join(' | ');
    kinds.set(kind, (kinds.get(kind) ?? 0) + 1);
  }
  return [...kinds].map(([kind, n]) => `${kind} (×${fmt(n)})`);
}

/** Counts in the database of the booking run: on PGlite only once its server has stopped. */
type Counter = (query: string) => Promise<number>;

/** One race on a fresh database: its answered bookings per second, and whether every answer was a 201 or a 409. */
type Race = { answeredPerSecond: number; clean: boolean; summary: string };

async function benchBookings(
  b: BookingBench,
  engine: Engine,
  env: Record<string, string>,
  count: Counter,
  whileServing?: Counter,
  round = '',
): Promise<Race | undefined> {
  console.log(
    `\nBookings through HTTP, ${engine}${round}: every open slot of 30 days raced for by 2 to 4 tokens, ${b.connections} connections, on a fresh database`,
  );
  const server = await b.serve({ ...ENV, ...env });
  b.cleanups.push(server.stop);
  await saveSettings(server, b.admin);
  const open = await getAvailability(server.url);
  if (!open.body) throw new Error(`availability answered ${open.status}`);
  // Not the times about to begin: they may close (no notice needed) while the leads are made.
  const soon = Date.now() + 15 * 60_000;
  const slots = shuffle(open.body.slots.filter((s) => Date.parse(s) > soon));
  const leadsStarted = performance.now();
  const tokens = await createLeads(server.url, tokensNeeded(slots.length), b.signal);
  if (b.signal.aborted) return undefined;
  const leadSeconds = (performance.now() - leadsStarted) / 1000;
  console.log(
    `  ${fmt(tokens.length)} leads (booking tokens) through POST /api/public/leads in ${fmt(leadSeconds, 1)} s (${fmt(tokens.length / leadSeconds)}/s, 8 connections)`,
  );
  const attempts = planRace(slots, tokens);
  const bodies = attempts.map((a) => JSON.stringify({ booking_token: a.token, start: a.start, type: 'Call' }));
  const rollbacksBefore = whileServing ? await whileServing(ROLLBACKS) : undefined;
  let next = 0;
  const r = await runLoad({
    url: `${server.url}/api/public/bookings`,
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: server.url },
    body: () => bodies[next++]!,
    connections: b.connections,
    durationMs: 10 * 60_000,
    maxRequests: bodies.length,
    signal: b.signal,
  });
  if (b.signal.aborted) return undefined;
  const tally = tallyBookings(r);
  let raced: number | undefined;
  if (whileServing && rollbacksBefore !== undefined) {
    // Backends report their counts within a second of going idle.
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    raced = (await whileServing(ROLLBACKS)) - rollbacksBefore;
  }
  b.cleanups.pop();
  if ((await server.stop()) !== 0) console.log('  warning: the server did not stop cleanly');

  const doubles = await count(DOUBLE_BOOKINGS);
  const booked = await count(BOOKED);
  const bookedSlots = await count(BOOKED_SLOTS);
  const linked = await count(LINKED_TOKENS);
  const other = [...tally.otherStatuses].map(([status, n]) => `${status} ×${fmt(n)}`).join(', ');
  console.log(
    `  ${fmt(slots.length)} slots, ${fmt(attempts.length)} attempts in ${fmt(r.elapsedMs / 1000, 1)} s: ${fmt(tally.answeredPerSecond)} answered/s`,
  );
  console.log(
    `  latency           p50 ${fmt(r.latencyMs.p50, 1)} ms   p90 ${fmt(r.latencyMs.p90, 1)} ms   p99 ${fmt(r.latencyMs.p99, 1)} ms   max ${fmt(r.latencyMs.max, 1)} ms`,
  );
  console.log(
    `  answers           201 ${fmt(tally.booked)}   409 ${fmt(tally.taken)}   other ${other || '0'}   errors ${fmt(tally.errors)}`,
  );
  if (other && r.firstNon2xxBody) console.log(`    first non-2xx body (perhaps a 409's): ${r.firstNon2xxBody}`);
  for (const [kind, n] of r.errorKinds) console.log(`    error "${kind}": ${fmt(n)}`);
  for (const line of serverComplaints(server.output())) console.log(`    server log: ${line}`);
  // Losers of a race that got as far as inserting: refused by the no-overlap constraint (409), or deadlocked.
  if (raced !== undefined)
    console.log(
      `  about ${fmt(raced)} bookings rolled back in PostgreSQL (no-overlap refusals and deadlocks); the other 409s came from the open-times check before the insert`,
    );
  console.log(`  load generator    ${fmt((r.clientCpuMs / r.elapsedMs) * 100)}% of one core (same machine as the server)`);
  console.log(
    `  in the database   ${fmt(booked)} booked appointments on ${fmt(bookedSlots)} distinct times, ${fmt(linked)} links holding a call, ${fmt(doubles)} overlapping pairs`,
  );

  const clean = tally.otherStatuses.size === 0 && tally.errors === 0;
  b.verdict(
    `${engine}${round}: no double booking`,
    doubles === 0 && booked === tally.booked && linked === tally.booked,
    `${fmt(doubles)} overlapping pairs of scheduled appointments; ${fmt(booked)} booked for ${fmt(tally.booked)} answered 201 (${fmt(linked)} links hold a call)`,
  );
  b.verdict(
    `${engine}${round}: each raced slot booked once`,
    bookedSlots === slots.length && booked === slots.length,
    `${fmt(bookedSlots)} of ${fmt(slots.length)} slots booked, ${fmt(booked)} appointments`,
  );
  const summary =
    `201 ×${fmt(tally.booked)}, 409 ×${fmt(tally.taken)}` +
    `${other ? `, ${other}` : ''}${tally.errors ? `, ${fmt(tally.errors)} errors` : ''}`;
  return { answeredPerSecond: tally.answeredPerSecond, clean, summary };
}

/**
 * The throughput verdict over the races: their median (a race lasts seconds, so one alone
 * swings with whatever else the machine did in them), every answer a 201 or a 409 in each.
 */
function raceVerdict(b: BookingBench, engine: Engine, races: Race[]) {
  if (races.length === 0) return;
  const rates = races.map((r) => r.answeredPerSecond);
  const mid = [...rates].sort((x, y) => x - y)[Math.floor(rates.length / 2)]!;
  const target = engine === 'PostgreSQL' ? BOOKINGS_TARGET_RPS : undefined;
  const each = races.length > 1 ? `median of ${races.length} races (${rates.map((r) => fmt(r)).join(', ')}), ` : '';
  b.verdict(
    `${engine}: bookings/s through HTTP`,
    races.every((r) => r.clean) && (target === undefined || mid >= target),
    `${each}${fmt(mid)} answered/s${b.ofHello(mid)} (${target === undefined ? 'no target' : `target ≥ ${target}`}): ${races.map((r) => r.summary).join('; ')}`,
  );
}

/** The `booking` part: availability, then bookings, on PGlite and then PostgreSQL. */
export async function benchBooking(b: BookingBench): Promise<void> {
  const tempDir = (prefix: string) => {
    const dir = mkdtempSync(path.join(tmpdir(), prefix));
    b.cleanups.push(async () => rmSync(dir, { recursive: true, force: true }));
    return dir;
  };
  const seededDir = tempDir('bench-booking-');
  await benchAvailability(b, 'PGlite', () => openPglite(seededDir), { DATA_DIR: seededDir });
  if (b.signal.aborted) return;
  const bookingDir = tempDir('bench-bookings-');
  const pgliteRace = await benchBookings(b, 'PGlite', { DATA_DIR: bookingDir }, (q) => countPgliteRows(bookingDir, q));
  if (b.signal.aborted || !pgliteRace) return;
  raceVerdict(b, 'PGlite', [pgliteRace]);

  const pgServer = await acquirePostgres();
  b.cleanups.push(pgServer.release);
  const seeded = await createFreshDatabase(pgServer.url);
  b.cleanups.push(seeded.drop);
  console.log(`\nPostgreSQL: ${pgServer.source}`);
  await benchAvailability(b, 'PostgreSQL', async () => openPostgres(seeded.url, 2), { DATABASE_URL: seeded.url });
  if (b.signal.aborted) return;
  const races: Race[] = [];
  for (let i = 1; i <= RACES; i++) {
    const fresh = await createFreshDatabase(pgServer.url);
    b.cleanups.push(fresh.drop);
    const counter = (q: string) => countRows(fresh.url, q);
    const race = await benchBookings(
      b,
      'PostgreSQL',
      { DATABASE_URL: fresh.url },
      counter,
      counter,
      RACES > 1 ? ` (race ${i} of ${RACES})` : '',
    );
    if (b.signal.aborted || !race) return;
    races.push(race);
  }
  raceVerdict(b, 'PostgreSQL', races);
}
