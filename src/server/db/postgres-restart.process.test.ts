import { sql } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { findPgBin, startPgCluster, type PgCluster } from '../test/pg-cluster.ts';
import { signInOverHttp, startServer, stopServer, type ServerProcess } from '../test/process.ts';
import { reconnectingSse } from '../test/sse.ts';
import { openPostgres } from './client.ts';
import { databaseFault } from './database-faults.ts';

/**
 * PostgreSQL stopped and started again under a running app server: while it is down the
 * API answers 503 with the standard error envelope (no stack, no driver text); once it is
 * back the same server answers normally and live notifications flow again (its LISTEN
 * connection reconnected), without restarting the app. The test runs its own cluster, so
 * it can stop it. Skipped only without PostgreSQL binaries, and never in CI.
 */
const pgBin = findPgBin();
const ADMIN = { email: 'restart@example.com', password: 'restart-password' };
const UNAVAILABLE = 'The database is unavailable. Please try again shortly.';

let cluster: PgCluster | undefined;
let server: ServerProcess | undefined;
const closers: (() => void)[] = [];
afterAll(async () => {
  closers.forEach((close) => close());
  if (server) await stopServer(server, 'SIGKILL');
  cluster?.remove();
});

const post = (url: string, body: unknown, headers: Record<string, string> = {}) =>
  fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });

const lead = (name: string, submission_id = crypto.randomUUID()) => ({
  full_name: name,
  email: `${name.toLowerCase().replaceAll(' ', '.')}.${submission_id}@example.com`,
  phone: '555',
  property_types: ['land'],
  submission_id,
  fill_ms: 5000,
});

async function expectUnavailable(res: Response) {
  const text = await res.text();
  expect(res.status, text).toBe(503);
  const body = JSON.parse(text) as { error: { code: string; message: string; requestId?: string } };
  expect(body).toEqual({ error: { code: 'service_unavailable', message: UNAVAILABLE, requestId: expect.any(String) } });
  expect(text).not.toMatch(/ECONNREFUSED|terminat|\bat .*\.(js|ts)|stack/i);
}

describe.skipIf(!pgBin && process.env.CI !== 'true')('PostgreSQL restarted under a running server', () => {
  it('answers 503 with the error envelope while PostgreSQL is down, then recovers by itself (requests and live notifications)', async () => {
    if (!pgBin) throw new Error('CI=true needs the PostgreSQL server binaries (/usr/lib/postgresql/*/bin)');
    cluster = startPgCluster(pgBin);
    server = await startServer({
      DATABASE_URL: cluster.url,
      ADMIN_EMAIL: ADMIN.email,
      ADMIN_PASSWORD: ADMIN.password,
      LEAD_MIN_FILL_SECONDS: '0',
      LEAD_RATE_LIMIT: '0',
    });
    const { url } = server;
    const admin = { cookie: await signInOverHttp(url, ADMIN) };
    // No CREDENTIALS_KEY with PostgreSQL: start-up says what to set before calendars can be connected.
    expect(server.output()).toContain('Connecting calendars needs CREDENTIALS_KEY');

    const stream = reconnectingSse(`${url}/api/notifications/stream`, admin, 200);
    closers.push(stream.close);
    await stream.waitFor((e) => e.event === 'ready');
    // Several pooled connections, idle when PostgreSQL goes away: each emits an error.
    const warmUp = await Promise.all(Array.from({ length: 8 }, () => fetch(`${url}/api/leads`, { headers: admin })));
    expect(warmUp.map((r) => r.status)).toEqual(Array(8).fill(200));

    // Public submissions keep coming through the whole outage: each is answered 201 or 503.
    const statuses: number[] = [];
    const acknowledged: string[] = [];
    let trafficOn = true;
    const traffic = (async () => {
      while (trafficOn) {
        const body = lead('During Outage');
        const res = await post(`${url}/api/public/leads`, body).catch(() => undefined);
        statuses.push(res?.status ?? 0);
        if (res?.status === 201) acknowledged.push(body.submission_id);
        await res?.body?.cancel();
        await new Promise((r) => setTimeout(r, 20)); // traffic's pace against the real server
      }
    })();

    const until = async (done: () => boolean, what: string) => {
      for (const deadline = Date.now() + 15_000; !done(); await new Promise((r) => setTimeout(r, 50))) {
        if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
      }
    };
    await until(() => acknowledged.length >= 3, 'submissions before the outage');

    // In this process too: a pooled client checked out (between queries, as in a
    // transaction) when PostgreSQL goes away emits 'error', which must not be uncaught.
    const direct = openPostgres(cluster.url, 2);
    closers.push(() => void direct.close().catch(() => {}));
    const pool = (direct.db as unknown as { $client: pg.Pool }).$client;
    const held = await pool.connect();
    await held.query('select 1');

    const seenBeforeStop = stream.events.length;
    cluster.stop();
    await expectUnavailable(await fetch(`${url}/api/leads`, { headers: admin }));
    await expectUnavailable(await post(`${url}/api/public/leads`, lead('While Down')));
    await expectUnavailable(
      await post(
        `${url}/api/public/events`,
        { session_id: 'outage-session-0001', event_type: 'pageview', page_path: '/' },
        { 'user-agent': 'Mozilla/5.0 (X11; Linux x86_64) Chrome/130.0' },
      ),
    );
    // Health probes the database at most once a second, so it may take that long to say so.
    let healthRes = await fetch(`${url}/api/health`);
    for (const until = Date.now() + 5000; healthRes.status === 200 && Date.now() < until; ) {
      await new Promise((r) => setTimeout(r, 200));
      healthRes = await fetch(`${url}/api/health`);
    }
    await expectUnavailable(healthRes);
    await new Promise((r) => setTimeout(r, 1500)); // a real wait: the server process stays down a while, its retries back off
    expect(server.child.exitCode).toBeNull();
    const heldError = await held.query('select 1').then(
      () => undefined,
      (err: unknown) => err,
    );
    expect(databaseFault(heldError)).toBe('unavailable');
    held.release(heldError as Error);

    cluster.start();
    const backBy = Date.now() + 15_000;
    let health = 0;
    while (Date.now() < backBy && (health = (await fetch(`${url}/api/health`)).status) !== 200)
      await new Promise((r) => setTimeout(r, 100));
    expect(health).toBe(200);
    expect((await fetch(`${url}/api/leads`, { headers: admin })).status).toBe(200);
    await direct.db.execute(sql`select 1`); // the pool replaced its dead clients
    const acknowledgedBeforeRecovery = acknowledged.length;
    await until(() => acknowledged.length >= acknowledgedBeforeRecovery + 3, 'submissions after the outage');
    trafficOn = false;
    await traffic;

    // The stream that stayed open is told to refetch once LISTEN is back, then gets live notifications.
    await stream.waitFor((e) => e.event === 'ready', seenBeforeStop, 15_000);
    const after = lead('After Outage');
    expect((await post(`${url}/api/public/leads`, after)).status).toBe(201);
    const live = await stream.waitFor((e) => e.event === 'notification' && e.data.includes(after.email), seenBeforeStop, 5000);
    expect(JSON.parse(live.data)).toMatchObject({ type: 'lead', message: `New lead: After Outage (${after.email})` });
    // And a stream opened now works too.
    const fresh = reconnectingSse(`${url}/api/notifications/stream`, admin, 200);
    closers.push(fresh.close);
    await fresh.waitFor((e) => e.event === 'ready');
    const later = lead('Fresh Stream');
    expect((await post(`${url}/api/public/leads`, later)).status).toBe(201);
    await fresh.waitFor((e) => e.event === 'notification' && e.data.includes(later.email), 0, 5000);

    // Never a 500 or a dropped connection; the answers to the outage were 503s; nothing acknowledged was lost.
    expect(statuses.filter((s) => s !== 201 && s !== 503)).toEqual([]);
    expect(statuses).toContain(503);
    const client = new pg.Client({ connectionString: cluster.url });
    await client.connect();
    const { rows } = await client.query<{ submission_id: string }>('select submission_id from leads where submission_id = any($1)', [
      acknowledged,
    ]);
    await client.end();
    expect(rows.length).toBe(acknowledged.length);
    expect(server.output()).not.toMatch(/Uncaught|unhandled|at .*node_modules/i);
    console.info(
      `PostgreSQL restart: ${statuses.length} submissions before, during and after the outage; ${acknowledged.length} acknowledged (all stored), ${statuses.filter((s) => s === 503).length} answered 503, none 500`,
    );
  }, 120_000);
});
