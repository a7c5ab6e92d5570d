/**
 * `webhooks`: signed webhooks out, on PostgreSQL, to a receiver on this machine's loopback
 * (OUTBOUND_ALLOW_HOSTS=127.0.0.1 for the server) that verifies every request with the Standard
 * Webhooks reference library (`standardwebhooks`), one endpoint subscribed to lead.created:
 *
 * - 1,000 lead submissions through HTTP (POST /api/public/leads, 16 connections) make 1,000
 *   signed deliveries: the time from the last submission's answer to the last delivery
 *   (target < 10 s), every one verified and each webhook-id once;
 * - lead submissions/s with that endpoint vs none (the `postgres` part's load), each run on a
 *   fresh database, the median of BENCH_WEBHOOK_ROUNDS (3) rounds: target within 10%.
 */
import { randomBytes } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';
import { signInOverHttp, type ServerProcess } from '../src/server/test/process.ts';
import { slowdownPercent } from './email.ts';
import { envInt } from './lib/env.ts';
import { runLoad } from './lib/load.ts';
import { acquirePostgres, countRows, createFreshDatabase } from './lib/postgres.ts';
import {
  describeThroughput,
  hasNoFailures,
  leadBody,
  measureLeadThroughput,
  type ThroughputOptions,
  type ThroughputResult,
} from './lead-throughput.ts';

/** What bench/run.ts lends this part. */
export type WebhooksBench = {
  serve: (env: Record<string, string>) => Promise<ServerProcess>;
  admin: { email: string; password: string };
  load: ThroughputOptions;
  cleanups: (() => Promise<unknown>)[];
  verdict: (name: string, pass: boolean, detail: string) => void;
  ofHello: (rps: number) => string;
};

export const WEBHOOK_LEADS = 1_000;
const DELIVERY_TARGET_MS = 10_000;
const SLOWDOWN_TARGET_PERCENT = 10;

/** A receiver on loopback verifying each request with the reference library; answers 204, or 401 when it does not verify. */
async function startReceiver() {
  const state = { secret: '', requests: 0, verified: 0, refused: 0, ids: new Set<string>(), lastAt: 0, firstError: '' };
  const waiters: { count: number; resolve: () => void }[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      state.requests++;
      const headers: Record<string, string> = {};
      for (const [name, value] of Object.entries(req.headers)) if (value !== undefined) headers[name] = String(value);
      try {
        new Webhook(state.secret).verify(Buffer.concat(chunks).toString('utf8'), headers);
        state.verified++;
        state.ids.add(headers['webhook-id']!);
        state.lastAt = performance.now();
        res.writeHead(204).end();
      } catch (error) {
        state.refused++;
        state.firstError ||= error instanceof Error ? error.message : String(error);
        res.writeHead(401).end();
      }
      for (const w of waiters.filter((w) => state.ids.size >= w.count)) {
        waiters.splice(waiters.indexOf(w), 1);
        w.resolve();
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
  return {
    state,
    url,
    /** Resolves once `count` distinct ids verified, or after `timeoutMs` (false). */
    waitFor: (count: number, timeoutMs: number) =>
      new Promise<boolean>((resolve) => {
        if (state.ids.size >= count) return resolve(true);
        const timer = setTimeout(() => resolve(false), timeoutMs);
        waiters.push({ count, resolve: () => (clearTimeout(timer), resolve(true)) });
      }),
    stop: async () => {
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
    },
  };
}

export async function benchWebhooks(b: WebhooksBench): Promise<void> {
  const pgServer = await acquirePostgres();
  b.cleanups.push(pgServer.release);
  const receiver = await startReceiver();
  b.cleanups.push(receiver.stop);

  /** A built server on a fresh database, with (or without) one endpoint on the receiver for lead.created. */
  const serve = async (withEndpoint: boolean) => {
    const database = await createFreshDatabase(pgServer.url);
    b.cleanups.push(database.drop);
    const server = await b.serve({
      DATABASE_URL: database.url,
      OUTBOUND_ALLOW_HOSTS: '127.0.0.1',
      CREDENTIALS_KEY: randomBytes(32).toString('base64'),
    });
    b.cleanups.push(server.stop);
    if (withEndpoint) {
      const cookie = await signInOverHttp(server.url, b.admin);
      const res = await fetch(`${server.url}/api/webhooks`, {
        method: 'POST',
        headers: { cookie, 'content-type': 'application/json', origin: server.url },
        body: JSON.stringify({ url: receiver.url, events: ['lead.created'] }),
      });
      if (res.status !== 201) throw new Error(`POST /api/webhooks answered ${res.status}: ${await res.text()}`);
      receiver.state.secret = ((await res.json()) as { secret: string }).secret;
    }
    return { database, server };
  };

  console.log(`\nWebhooks out, PostgreSQL (${pgServer.source}): ${WEBHOOK_LEADS.toLocaleString('en-US')} leads, one endpoint on loopback`);
  {
    const { database, server } = await serve(true);
    const started = performance.now();
    const submitted = await runLoad({
      url: `${server.url}/api/public/leads`,
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: server.url },
      body: leadBody,
      connections: 16,
      durationMs: 120_000,
      maxRequests: WEBHOOK_LEADS,
      signal: b.load.signal,
    });
    const lastAnswer = performance.now();
    const arrived = await receiver.waitFor(submitted.ok2xx, 60_000);
    const lagMs = receiver.state.lastAt - lastAnswer;
    // The receiver answers before the worker records the delivery: wait (with a deadline) for the records too.
    const countDelivered = () => countRows(database.url, `select count(*) as n from webhook_deliveries where status = 'delivered'`);
    let delivered = await countDelivered();
    for (const deadline = Date.now() + 10_000; delivered < submitted.ok2xx && Date.now() < deadline; delivered = await countDelivered())
      await new Promise((r) => setTimeout(r, 50));
    const s = receiver.state;
    console.log(
      `  ${submitted.ok2xx.toLocaleString('en-US')} leads answered 201 in ${((lastAnswer - started) / 1000).toFixed(1)} s ` +
        `(${submitted.requestsPerSecond.toFixed(0)}/s); ${s.verified.toLocaleString('en-US')} requests verified (${s.ids.size} distinct ids), ` +
        `${s.refused} refused${s.firstError ? ` (${s.firstError})` : ''}; ${delivered} deliveries marked delivered`,
    );
    b.verdict(
      'PostgreSQL webhooks: 1,000 leads → 1,000 signed deliveries, the last one after the last answer',
      arrived &&
        submitted.ok2xx === WEBHOOK_LEADS &&
        s.ids.size === WEBHOOK_LEADS &&
        s.verified === WEBHOOK_LEADS &&
        s.refused === 0 &&
        delivered === WEBHOOK_LEADS &&
        lagMs < DELIVERY_TARGET_MS,
      `${(lagMs / 1000).toFixed(2)} s from the last submission's answer to the last delivery (target < ${DELIVERY_TARGET_MS / 1000} s); ` +
        `${s.verified} verified with standardwebhooks, ${s.ids.size} distinct webhook-ids, ${s.refused} refused`,
    );
    b.cleanups.pop();
    await server.stop();
  }

  const rounds = envInt('BENCH_WEBHOOK_ROUNDS', 3, 1, 20);
  console.log(`\nLead submissions with no webhook endpoint and with one, PostgreSQL: ${rounds} rounds, each run on a fresh database`);
  const none: ThroughputResult[] = [];
  const one: ThroughputResult[] = [];
  for (let round = 1; round <= rounds; round++) {
    // Each order in turn (none first, then one first, …): a round's database writes leave the
    // disk busier for the run after it (checkpoints), which must not count against either side.
    const pair = [
      ['no endpoint', false, none],
      ['one endpoint', true, one],
    ] as const;
    for (const [label, withEndpoint, runs] of round % 2 === Number(process.env.BENCH_WEBHOOK_ONE_FIRST === '1')
      ? [...pair].reverse()
      : pair) {
      const { server } = await serve(withEndpoint);
      const result = await measureLeadThroughput(server.url, b.load);
      for (const line of describeThroughput(`PostgreSQL, ${label}, round ${round}`, result, b.load.connections)) console.log(line);
      runs.push(result);
      b.cleanups.pop();
      await server.stop();
    }
  }
  const rps = (runs: ThroughputResult[]) => runs.map((r) => r.measured.requestsPerSecond);
  const median = (values: number[]) => {
    const sorted = [...values].sort((x, y) => x - y);
    const mid = Math.floor(sorted.length / 2);
    return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
  };
  const noneRps = median(rps(none));
  const oneRps = median(rps(one));
  const slowdown = slowdownPercent(noneRps, oneRps);
  const list = (runs: ThroughputResult[]) =>
    rps(runs)
      .map((n) => n.toFixed(0))
      .join(', ');
  b.verdict(
    'PostgreSQL: lead submissions/s with one webhook endpoint',
    slowdown <= SLOWDOWN_TARGET_PERCENT && [...none, ...one].every(hasNoFailures),
    `median ${oneRps.toFixed(0)} req/s with one endpoint${b.ofHello(oneRps)} (${list(one)}), ${noneRps.toFixed(0)} with none${b.ofHello(noneRps)} (${list(none)}): ` +
      `${slowdown >= 0 ? `${slowdown.toFixed(1)}% slower` : `${(-slowdown).toFixed(1)}% faster`} (target ≤ ${SLOWDOWN_TARGET_PERCENT}% slower)`,
  );
}
