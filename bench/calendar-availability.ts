/**
 * `calendars`: public availability when the people who take calls have outside calendars.
 * Five bookable people, each with two iCal links of 2,000 events (a quarter repeating, with
 * exceptions, other zones, all-day events: bench/ics-busy.ts's generator), served from this
 * machine's loopback and connected through the real API (each read once, in the worker). Then
 * GET /api/public/availability for the next 60 days (two requests: 31 days is the most one
 * asks for), 30 times cold (after a booking-settings save, so the open times are computed again
 * from the busy intervals stored in the database) and 100 times warm. Targets, cold 60 days:
 * p95 < 50 ms on PostgreSQL, < 150 ms on PGlite. The calendars are never read per request: the
 * bench counts the calendar server's requests during the measurement (must be 0).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { AVAILABILITY_MAX_DAYS } from '#shared/constants';
import type { BookingSettings } from '#shared/schemas/booking';
import { addDays, zonedParts } from '#shared/zoned-time';
import { ensureAdmin } from '../src/server/auth/accounts.ts';
import { openPglite, openPostgres, type Database } from '../src/server/db/client.ts';
import { execute } from '../src/server/db/sql.ts';
import { OPEN_EVERY_DAY, WORKS_EVERY_DAY } from '../src/server/test/open-every-day.ts';
import { startCalendarServer } from '../src/server/test/calendar-server.ts';
import { signInOverHttp, type ServerProcess } from '../src/server/test/process.ts';
import { spread, type AvailabilityBench, type Spread } from './availability.ts';
import { generateCalendar } from './ics-busy.ts';
import { acquirePostgres, createFreshDatabase } from './lib/postgres.ts';

/** What bench/run.ts lends this part: the same as for `availability`. */
export type CalendarBench = AvailabilityBench;

const TIME_ZONE = 'America/New_York';
const PEOPLE = 5;
const CALENDARS_EACH = 2;
const EVENTS = 2_000;
const DAYS = 60;
const TARGET_MS = { PostgreSQL: 50, PGlite: 150 } as const;
type Engine = keyof typeof TARGET_MS;
const SETTINGS: BookingSettings = { ...OPEN_EVERY_DAY, horizon_days: 90 };

const fmt = (n: number, digits = 0) => n.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits });
const describe = (s: Spread) => `p50 ${fmt(s.p50, 1)} ms, p95 ${fmt(s.p95, 1)} ms, max ${fmt(s.max, 1)} ms (${fmt(s.n)} samples)`;
/** The people besides the admin (the first account, who takes calls too). */
const person = (i: number) => ({ email: `host${i}@bench.test`, password: `host-${i}-password` });

async function request(server: ServerProcess, cookie: string, method: string, url: string, body?: unknown) {
  const res = await fetch(`${server.url}${url}`, {
    method,
    headers: { cookie, 'content-type': 'application/json', origin: server.url },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  if (res.status >= 300) throw new Error(`${method} ${url} answered ${res.status}: ${text.slice(0, 300)}`);
  return text;
}

/** The next 60 days' open times: two requests (the most one may ask for is 31 days). */
async function sixtyDays(server: ServerProcess): Promise<{ ms: number; slots: number }> {
  const today = zonedParts(Date.now(), TIME_ZONE).date;
  const started = performance.now();
  let slots = 0;
  for (let from = 0; from < DAYS; from += AVAILABILITY_MAX_DAYS) {
    const to = Math.min(DAYS, from + AVAILABILITY_MAX_DAYS) - 1;
    const res = await fetch(`${server.url}/api/public/availability?from=${addDays(today, from)}&to=${addDays(today, to)}`);
    const body = (await res.json()) as { slots: string[] };
    if (res.status !== 200) throw new Error(`availability answered ${res.status}`);
    slots += body.slots.length;
  }
  return { ms: performance.now() - started, slots };
}

async function benchEngine(b: CalendarBench, engine: Engine, open: () => Promise<Database>, env: Record<string, string>) {
  console.log(
    `\nAvailability for ${DAYS} days, ${PEOPLE} people each with ${CALENDARS_EACH} calendars of ${fmt(EVENTS)} events, ${engine}`,
  );
  const database = await open();
  try {
    await database.migrate();
    await ensureAdmin(database.db, b.admin.email, b.admin.password);
    for (let i = 1; i < PEOPLE; i++) {
      const { user } = await ensureAdmin(database.db, person(i).email, person(i).password, 'staff');
      await execute(database.db, sql`insert into user_availability (user_id, bookable) values (${user.id}, true) on conflict do nothing`);
    }
  } finally {
    await database.close();
  }
  const calendars = await startCalendarServer();
  b.cleanups.push(calendars.close);
  const server = await b.serve({
    ...env,
    BUSINESS_TIME_ZONE: TIME_ZONE,
    AVAILABILITY_RATE_LIMIT: '0',
    OUTBOUND_ALLOW_HOSTS: `127.0.0.1:${calendars.port}`,
  });
  b.cleanups.push(server.stop);
  const started = performance.now();
  let seed = 1;
  const calendarPaths: string[] = [];
  for (let i = 0; i < PEOPLE; i++) {
    const who = i === 0 ? b.admin : person(i);
    const cookie = await signInOverHttp(server.url, who);
    if (i === 0) await request(server, cookie, 'PUT', '/api/booking-settings', SETTINGS);
    await request(server, cookie, 'PUT', '/api/account/availability', WORKS_EVERY_DAY);
    for (let k = 0; k < CALENDARS_EACH; k++) {
      const p = `/cal/${i}-${k}.ics`;
      calendarPaths.push(p);
      calendars.set(p, { ics: generateCalendar(EVENTS, seed++) });
      await request(server, cookie, 'POST', '/api/account/calendars', { kind: 'ics', url: calendars.url(p) });
    }
  }
  console.log(`  connected ${PEOPLE * CALENDARS_EACH} calendars (each read once) in ${fmt((performance.now() - started) / 1000, 1)} s`);
  const admin = await signInOverHttp(server.url, b.admin);
  /** Requests the calendar server has answered so far. */
  const reads = () => calendarPaths.reduce((n, p) => n + calendars.hitsOf(p), 0);
  const hitsBefore = reads();

  const cold: number[] = [];
  let slots = 0;
  for (let i = 0; i < 30 && !b.signal.aborted; i++) {
    await request(server, admin, 'PUT', '/api/booking-settings', SETTINGS);
    const r = await sixtyDays(server);
    cold.push(r.ms);
    slots = r.slots;
  }
  const warm: number[] = [];
  for (let i = 0; i < 100 && !b.signal.aborted; i++) warm.push((await sixtyDays(server)).ms);
  const hitsAfter = reads();
  const coldSpread = spread(cold);
  console.log(`  answer: ${fmt(slots)} open times over ${DAYS} days`);
  console.log(`  cold (after a settings save): ${describe(coldSpread)}`);
  console.log(`  warm (the same days again):   ${describe(spread(warm))}`);
  console.log(`  calendar reads while measuring: ${hitsAfter - hitsBefore} (the periodic sync may add one per calendar)`);
  b.verdict(
    `${engine}: availability for ${DAYS} days with ${PEOPLE * CALENDARS_EACH} outside calendars, cold p95 < ${TARGET_MS[engine]} ms`,
    coldSpread.p95 < TARGET_MS[engine],
    describe(coldSpread),
  );
  b.cleanups.pop();
  await server.stop();
  b.cleanups.pop();
  await calendars.close();
}

/** The `calendars` part: PGlite, then PostgreSQL. */
export async function benchCalendarAvailability(b: CalendarBench): Promise<void> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'bench-calendars-'));
  b.cleanups.push(async () => rmSync(dataDir, { recursive: true, force: true }));
  await benchEngine(b, 'PGlite', () => openPglite(dataDir), { DATA_DIR: dataDir });
  if (b.signal.aborted) return;
  const pgServer = await acquirePostgres();
  b.cleanups.push(pgServer.release);
  const fresh = await createFreshDatabase(pgServer.url);
  b.cleanups.push(fresh.drop);
  await benchEngine(b, 'PostgreSQL', async () => openPostgres(fresh.url, 2), {
    DATABASE_URL: fresh.url,
    // PostgreSQL has no key file: the credentials key comes from the environment.
    CREDENTIALS_KEY: Buffer.alloc(32, 3).toString('base64'),
  });
}
