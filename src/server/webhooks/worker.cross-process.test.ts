import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import type { ServerResponse } from 'node:http';
import { afterAll, describe, expect, it } from 'vitest';
import type { WebhookEndpointCreated } from '#shared/schemas/webhook';
import { countAt, createPostgresDatabaseUrl, untilTrue, withPgClient } from '../test/database.ts';
import { BUILT_SERVER, signInOverHttp, startServer, stopServer, type ServerProcess } from '../test/process.ts';
import { useWebhookReceiver, type Received } from '../test/webhook-receiver.ts';

/**
 * Webhooks out from two built servers on one PostgreSQL database, to a receiver on loopback
 * that verifies each request with the reference library: (a) changes made through both
 * processes reach the receiver once each, in order per lead; (b) the process sending is killed
 * with SIGKILL while its requests are in flight and more changes wait: the other process sends
 * every event once the dead one's leases run out (WEBHOOK_LEASE_SECONDS, 4 s here), none lost;
 * only a request sent before the kill may arrive twice, with the same webhook-id (at least
 * once). Needs PostgreSQL (TEST_DATABASE_URL) and a build (`npm test` builds first); CI has both.
 */
const serverUrl = process.env.TEST_DATABASE_URL;
const ready = Boolean(serverUrl) && existsSync(BUILT_SERVER);
const ADMIN = { email: 'hooks-admin@example.com', password: 'hooks-admin-password' };
/** Leads changed through each process in (a), four events each; leads made while one process is killed in (b). */
const LEADS_PER_PROCESS = 10;
const LEADS_AT_KILL = 30;

const receiver = useWebhookReceiver();
const servers: ServerProcess[] = [];
let dropDatabase: (() => Promise<void>) | undefined;
afterAll(async () => {
  await Promise.all(servers.map((s) => stopServer(s, 'SIGKILL')));
  await dropDatabase?.();
});

const until = (what: string, check: () => Promise<boolean>, timeoutMs: number) => untilTrue(what, check, timeoutMs, 50);
const idOf = (r: Received) => String(r.headers['webhook-id']);

describe.skipIf(!ready)('webhooks from two processes on one PostgreSQL', () => {
  it('deliver each event once in order per lead, and every event after the sending process is killed with SIGKILL', async () => {
    const { url, drop } = await createPostgresDatabaseUrl();
    dropDatabase = drop;
    const env = {
      NODE_ENV: 'production',
      DATABASE_URL: url,
      LOG_LEVEL: 'warn',
      ADMIN_EMAIL: ADMIN.email,
      ADMIN_PASSWORD: ADMIN.password,
      CREDENTIALS_KEY: randomBytes(32).toString('base64'),
      OUTBOUND_ALLOW_HOSTS: '127.0.0.1',
      // The lease a killed process leaves on what it took: the other process sends it once it runs out.
      WEBHOOK_LEASE_SECONDS: '4',
    };
    const [a, b] = await Promise.all([
      startServer(env, { entry: 'built', isolated: true, timeoutMs: 90_000 }),
      startServer(env, { entry: 'built', isolated: true, timeoutMs: 90_000 }),
    ]);
    servers.push(a, b);
    const cookie = await signInOverHttp(a.url, ADMIN);
    const call = async (server: ServerProcess, method: string, path: string, body: unknown, expected: number) => {
      const res = await fetch(`${server.url}${path}`, {
        method,
        headers: { 'content-type': 'application/json', origin: server.url, cookie },
        body: JSON.stringify(body),
      });
      const text = await res.text();
      expect(res.status, `${method} ${path}: ${text}`).toBe(expected);
      return JSON.parse(text) as { id: string };
    };
    const newLead = async (server: ServerProcess, name: string) =>
      (
        await call(
          server,
          'POST',
          '/api/leads',
          {
            full_name: name,
            email: `${name.toLowerCase().replaceAll(' ', '.')}@example.com`,
            phone: '(301) 555-0199',
            property_types: ['multifamily'],
            submission_id: crypto.randomUUID(),
          },
          201,
        )
      ).id;
    const endpoint = (await call(
      a,
      'POST',
      '/api/webhooks',
      { url: receiver.url, events: ['lead.created', 'lead.updated', 'lead.stage_changed'] },
      201,
    )) as unknown as WebhookEndpointCreated;
    receiver.secrets.push(endpoint.secret);
    const delivered = () => countAt(url, `select count(*) as n from webhook_deliveries where status = 'delivered'`);
    const events = () =>
      withPgClient(
        url,
        async (c) => (await c.query<{ id: string; object_id: string }>('select id, object_id from webhook_events order by seq')).rows,
      );

    // (a) Each lead made on one process and changed three times on the other, both sending meanwhile.
    await Promise.all(
      Array.from({ length: LEADS_PER_PROCESS * 2 }, async (_, i) => {
        const [mine, other] = i % 2 === 0 ? [a, b] : [b, a];
        const id = await newLead(mine, `Order Lead ${i}`);
        await call(other, 'PATCH', `/api/leads/${id}`, { status: 'Contacted' }, 200);
        await call(other, 'PATCH', `/api/leads/${id}`, { property_address: `${i} Main St` }, 200);
        await call(mine, 'PATCH', `/api/leads/${id}`, { status: 'Converted' }, 200);
      }),
    );
    const first = await events();
    expect(first).toHaveLength(LEADS_PER_PROCESS * 2 * 4);
    await until('every event of (a) is delivered', async () => (await delivered()) === first.length, 30_000);
    expect(receiver.received.every((r) => r.verified)).toBe(true);
    expect(receiver.received.map(idOf).sort()).toEqual(first.map((e) => e.id).sort());
    const arrivals = receiver.received.map(idOf);
    const leads = new Set(first.map((e) => e.object_id));
    for (const lead of leads) {
      const made = first.filter((e) => e.object_id === lead).map((e) => e.id);
      expect(arrivals.filter((id) => made.includes(id))).toEqual(made);
    }

    // (b) Only `a` sends (b stopped), the receiver holds its requests; `a` is killed with requests
    // in flight and the later events committed but not sent; then `b` goes on.
    receiver.received.length = 0;
    const held: ServerResponse[] = [];
    const abandoned = new Set<string>();
    receiver.answer = (r, res) => {
      held.push(res);
      res.on('close', () => {
        if (!res.writableFinished) abandoned.add(idOf(r));
      });
    };
    b.child.kill('SIGSTOP');
    await Promise.all(Array.from({ length: LEADS_AT_KILL }, (_, i) => newLead(a, `Killed Lead ${i}`)));
    await until('a request of `a` is in flight', async () => held.length > 0, 10_000);
    await stopServer(a, 'SIGKILL');
    const inFlight = held.length;
    // Its connections close unanswered: each request in flight was sent and never acknowledged.
    await until('the dead process’s connections close', async () => abandoned.size === inFlight, 10_000);
    receiver.answer = (_r, res) => res.writeHead(204).end();
    b.child.kill('SIGCONT');
    const killedAt = Date.now();

    const all = await events();
    expect(all).toHaveLength(first.length + LEADS_AT_KILL);
    await until('every event is delivered after the kill', async () => (await delivered()) === all.length, 30_000);
    const seconds = (Date.now() - killedAt) / 1000;
    const later = all.slice(first.length).map((e) => e.id);
    const arrived = receiver.received.filter((r) => r.verified).map(idOf);
    // None lost: every event reached the receiver, signed.
    expect([...new Set(arrived)].sort()).toEqual([...later].sort());
    // Twice only what was in flight when `a` died, each with its one webhook-id.
    const counts = new Map<string, number>();
    for (const id of arrived) counts.set(id, (counts.get(id) ?? 0) + 1);
    const duplicates = [...counts].filter(([, n]) => n > 1);
    for (const [id, n] of duplicates) {
      expect(n).toBe(2);
      expect(abandoned.has(id), `${id} arrived twice but was not in flight at the kill`).toBe(true);
    }
    expect(inFlight).toBeGreaterThan(0);
    console.log(
      `webhooks: ${first.length} events from two processes once each in order; ${LEADS_AT_KILL} after SIGKILL all delivered in ${seconds.toFixed(1)} s ` +
        `(${inFlight} in flight at the kill, ${duplicates.length} arrived twice)`,
    );
  }, 180_000);
});
