/**
 * `availability`: GET /api/public/availability with the widest settings an owner may save
 * (every day 00:00 to 23:59, 10-minute slots, no notice, 365 days ahead), against the built
 * server on PGlite (the default engine: its queries also run on the server's event loop), the
 * per-address limit off (all requests come from this machine):
 * - the answer for the longest range one request may ask for (from today): times and bytes;
 * - cold: that range after a change (a booking settings save), so each request computes it
 *   afresh, 30 sequential requests, p50/p95/max;
 * - warm: the same range again and again, 200 sequential requests, p50/p95/max;
 * - under load: availability requests at a fixed rate (10/s, as in the finding, and 40/s) for
 *   BENCH_AVAILABILITY_SECONDS (10) each, ranges starting a week apart over the year (the
 *   first pass computes them, the rest find them cached, as repeated asking would), while
 *   /api/health is asked every 100 ms: the availability p50/p99 and the health p50/p99/max. The
 *   health answer waits for whatever holds the event loop, so its slowest is the longest block.
 * Targets: cold p95 < 50 ms and, at 40 requests/s, /api/health p99 < 50 ms.
 * BENCH_AVAILABILITY_DAYS overrides the range (to measure an older server that allowed 62).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { AVAILABILITY_MAX_DAYS } from '#shared/constants';
import type { BookingSettings } from '#shared/schemas/booking';
import { addDays, zonedParts } from '#shared/zoned-time';
import { OPEN_EVERY_DAY } from '../src/server/test/open-every-day.ts';
import { signInOverHttp, type ServerProcess } from '../src/server/test/process.ts';

/** What bench/run.ts lends this part (as for `booking`). */
export type AvailabilityBench = {
  serve: (env: Record<string, string>) => Promise<ServerProcess>;
  admin: { email: string; password: string };
  signal: AbortSignal;
  cleanups: (() => Promise<unknown>)[];
  verdict: (name: string, pass: boolean, detail: string) => void;
};

const TIME_ZONE = 'America/New_York';
export const WIDEST_SETTINGS: BookingSettings = {
  ...OPEN_EVERY_DAY,
  hours: Array.from({ length: 7 }, () => ({ start: '00:00', end: '23:59' })),
  slot_minutes: 10,
  min_notice_hours: 0,
  horizon_days: 365,
};
const COLD_TARGET_MS = 50;
const HEALTH_TARGET_MS = 50;

const fmt = (n: number, digits = 0) => n.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits });
const at = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))] ?? Number.NaN;
export type Spread = { p50: number; p95: number; p99: number; max: number; n: number };
export function spread(samples: number[]): Spread {
  const sorted = [...samples].sort((a, b) => a - b);
  return { p50: at(sorted, 0.5), p95: at(sorted, 0.95), p99: at(sorted, 0.99), max: sorted.at(-1) ?? Number.NaN, n: sorted.length };
}
const describe = (s: Spread) =>
  `p50 ${fmt(s.p50, 1)} ms, p95 ${fmt(s.p95, 1)} ms, p99 ${fmt(s.p99, 1)} ms, max ${fmt(s.max, 1)} ms (${fmt(s.n)} requests)`;

async function timed(url: string): Promise<{ ms: number; status: number; bytes: number; body: string }> {
  const started = performance.now();
  const res = await fetch(url);
  const body = await res.text();
  return { ms: performance.now() - started, status: res.status, bytes: Buffer.byteLength(body), body };
}

async function saveSettings(server: ServerProcess, cookie: string, settings: BookingSettings): Promise<void> {
  const res = await fetch(`${server.url}/api/booking-settings`, {
    method: 'PUT',
    headers: { cookie, 'content-type': 'application/json', origin: server.url },
    body: JSON.stringify(settings),
  });
  if (res.status !== 200) throw new Error(`PUT /api/booking-settings answered ${res.status}: ${await res.text()}`);
}

/** `perSecond` availability requests (each its own range, in turn over the year) for `ms`, with /api/health every 100 ms. */
async function underLoad(server: ServerProcess, days: number, perSecond: number, ms: number, signal: AbortSignal) {
  const today = zonedParts(Date.now(), TIME_ZONE).date;
  const availability: number[] = [];
  const health: number[] = [];
  let failures = 0;
  const inFlight: Promise<void>[] = [];
  const started = performance.now();
  let sent = 0;
  const healthTimer = setInterval(() => {
    inFlight.push(timed(`${server.url}/api/health`).then((r) => void health.push(r.ms)));
  }, 100);
  while (performance.now() - started < ms && !signal.aborted) {
    const due = started + (sent * 1000) / perSecond;
    const wait = due - performance.now();
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    const from = addDays(today, (sent * 7) % (365 - days));
    sent++;
    inFlight.push(
      timed(`${server.url}/api/public/availability?from=${from}&to=${addDays(from, days - 1)}`).then((r) => {
        if (r.status === 200) availability.push(r.ms);
        else failures++;
      }),
    );
  }
  clearInterval(healthTimer);
  await Promise.all(inFlight);
  return { availability: spread(availability), health: spread(health), failures };
}

export async function benchAvailability(b: AvailabilityBench): Promise<void> {
  const days = Number(process.env.BENCH_AVAILABILITY_DAYS ?? AVAILABILITY_MAX_DAYS);
  const seconds = Number(process.env.BENCH_AVAILABILITY_SECONDS ?? 10);
  console.log(`\nAvailability with the widest settings (all day, 10-minute slots, 365 days ahead), ${days} days per request, PGlite`);
  // Latency on a shared machine says as much about the others as about this server.
  const load = () =>
    `load average ${loadavg()
      .map((n) => n.toFixed(1))
      .join(' ')}`;
  console.log(`  machine: ${load()}`);
  const dataDir = mkdtempSync(path.join(tmpdir(), 'bench-availability-'));
  b.cleanups.push(async () => rmSync(dataDir, { recursive: true, force: true }));
  const server = await b.serve({ DATA_DIR: dataDir, BUSINESS_TIME_ZONE: TIME_ZONE, AVAILABILITY_RATE_LIMIT: '0' });
  b.cleanups.push(server.stop);
  const cookie = await signInOverHttp(server.url, b.admin);
  await saveSettings(server, cookie, WIDEST_SETTINGS);
  const today = zonedParts(Date.now(), TIME_ZONE).date;
  const url = `${server.url}/api/public/availability?from=${today}&to=${addDays(today, days - 1)}`;

  const first = await timed(url);
  if (first.status !== 200) throw new Error(`availability answered ${first.status}: ${first.body.slice(0, 300)}`);
  const slots = (JSON.parse(first.body) as { slots: string[] }).slots.length;
  console.log(`  answer: ${fmt(slots)} open times, ${fmt(first.bytes)} bytes (${fmt(first.bytes / 1024, 1)} KiB) of JSON`);

  const cold: number[] = [];
  for (let i = 0; i < 30 && !b.signal.aborted; i++) {
    await saveSettings(server, cookie, WIDEST_SETTINGS);
    cold.push((await timed(url)).ms);
  }
  const coldSpread = spread(cold);
  console.log(`  cold (after a settings save): ${describe(coldSpread)}`);
  const warm: number[] = [];
  for (let i = 0; i < 200 && !b.signal.aborted; i++) warm.push((await timed(url)).ms);
  console.log(`  warm (the same range again):  ${describe(spread(warm))}`);

  let health40: Spread | undefined;
  for (const perSecond of [10, 40]) {
    if (b.signal.aborted) break;
    const r = await underLoad(server, days, perSecond, seconds * 1000, b.signal);
    console.log(`  ${perSecond} availability requests/s for ${seconds} s (ranges a week apart over the year; ${load()} after):`);
    console.log(`    availability  ${describe(r.availability)}${r.failures ? `, ${r.failures} failed` : ''}`);
    console.log(`    /api/health   ${describe(r.health)}`);
    if (perSecond === 40) health40 = r.health;
  }
  b.cleanups.pop();
  await server.stop();

  b.verdict(
    'availability, widest settings, computed afresh',
    coldSpread.p95 < COLD_TARGET_MS,
    `p50 ${fmt(coldSpread.p50, 1)} ms, p95 ${fmt(coldSpread.p95, 1)} ms for ${days} days, ${fmt(first.bytes)} bytes (target p95 < ${COLD_TARGET_MS} ms)`,
  );
  if (health40) {
    b.verdict(
      '/api/health while 40 availability requests/s arrive',
      health40.p99 < HEALTH_TARGET_MS,
      `p99 ${fmt(health40.p99, 1)} ms, max ${fmt(health40.max, 1)} ms (target p99 < ${HEALTH_TARGET_MS} ms)`,
    );
  }
}
