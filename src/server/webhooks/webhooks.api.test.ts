import { sql, type SQL } from 'drizzle-orm';
import pino from 'pino';
import { beforeEach, describe, expect, it } from 'vitest';
import type { LeadDetail } from '#shared/schemas/lead';
import type { WebhookAttemptList, WebhookEndpointCreated, WebhookSecret, WebhookTestResult } from '#shared/schemas/webhook';
import { ensureAdmin } from '../auth/accounts.ts';
import { execute } from '../db/sql.ts';
import { createTestApp, signIn, validLead } from '../test/test-app.ts';
import { rowsOf, untilTrue, useTestDatabase } from '../test/database.ts';
import { useWebhookReceiver, verifyStandardWebhook, verifyWithLibrary } from '../test/webhook-receiver.ts';
import { startWorker, type Worker } from '../jobs/worker.ts';
import { WebhookSender, type WebhookSenderOptions } from './sender.ts';

/**
 * Webhooks out, end to end on a real database and a real receiver on loopback: events recorded
 * with the change, signed per Standard Webhooks, retried, in order per object, paused after 3
 * days, rotated, erased. The tests own the clock: the worker runs one batch at the time given,
 * and the receiver checks the timestamps against that time. The receiver verifies every request
 * with the reference library (`standardwebhooks`) and answers 401 to one that does not verify.
 */
const database = useTestDatabase();
const receiver = useWebhookReceiver();
let t: ReturnType<typeof createTestApp>;
let owner: string;
let staff: string;
const logger = pino({ level: 'silent' });
const HOUR = 3600_000;
/** The `n` of a `select count(*)::int as n …`. */
const countOf = async (query: SQL) => (await rowsOf<{ n: number }>(database.db, query))[0]!.n;

/** How a test runs the sender on a clock, as the server's worker does (jobs/registry.ts). */
type Clock = { pollMs?: number; busy?: () => boolean; busyPauseMs?: number; pause?: (ms: number) => Promise<void> };

/** A sender whose batches move the receiver's clock to the time they run at; `start` runs it as a worker. */
const workerOf = ({ pollMs, busy, busyPauseMs, pause, ...options }: Partial<WebhookSenderOptions> & Clock = {}) => {
  const worker = new WebhookSender({ database: () => database, config: t.config, vault: () => t.vault, logger, ...options });
  const runOnce = worker.runOnce.bind(worker);
  worker.runOnce = (at = new Date(), signal) => {
    receiver.now = () => at.getTime();
    return runOnce(at, signal);
  };
  let running: Worker | undefined;
  const start = () => {
    const spec = { name: 'webhooks', everyMs: pollMs ?? 1000, runOnce: (signal: AbortSignal) => worker.sendDue(signal) };
    running = startWorker(
      { ...spec, ...(busy && { yieldWhenBusy: busy }), ...(busyPauseMs && { busyPauseMs }), ...(pause && { pause }) },
      logger,
    );
  };
  return Object.assign(worker, { start, stop: () => running?.stop() });
};

beforeEach(async () => {
  await execute(
    database.db,
    sql`truncate users, sessions, leads, notifications, emails, audit_log, webhook_endpoints, webhook_events cascade`,
  );
  receiver.reset();
  t = createTestApp(database, { OUTBOUND_ALLOW_HOSTS: '127.0.0.1' });
  await ensureAdmin(database.db, 'dana@keystone.test', 'dana-password', 'owner', 'Dana Whitfield');
  await ensureAdmin(database.db, 'sam@keystone.test', 'sam-password', 'staff', 'Sam Staff');
  owner = await signIn(t.json, 'dana@keystone.test', 'dana-password');
  staff = await signIn(t.json, 'sam@keystone.test', 'sam-password');
});

/** Adds an endpoint; the receiver is given its secret unless `receiverKnowsSecret` is false. */
async function addEndpoint(events: string[], url = receiver.url, { receiverKnowsSecret = true } = {}): Promise<WebhookEndpointCreated> {
  const res = await t.json('POST', '/api/webhooks', { url, events }, { cookie: owner });
  expect(res.status).toBe(201);
  const created = (await res.json()) as WebhookEndpointCreated;
  if (receiverKnowsSecret) receiver.secrets.push(created.secret);
  return created;
}

async function submitLead(overrides: Record<string, unknown> = {}): Promise<string> {
  const res = await t.json('POST', '/api/leads', validLead({ email: `p${crypto.randomUUID().slice(0, 8)}@example.com`, ...overrides }), {
    cookie: owner,
  });
  expect(res.status).toBe(201);
  return ((await res.json()) as { id: string }).id;
}

const bodies = () => receiver.received.map((r) => JSON.parse(r.body) as { type: string; timestamp: string; data: { id: string } });

/** Runs batches at `at` until nothing more is due then. */
async function drain(worker: WebhookSender, at: Date) {
  while ((await worker.runOnce(at)) > 0);
}

describe('endpoints', () => {
  it('POST /api/webhooks answers the secret once, GET lists without it, GET …/secret shows it', async () => {
    const created = await addEndpoint(['lead.created']);
    expect(created.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    const list = (await (await t.json('GET', '/api/webhooks', undefined, { cookie: owner })).json()) as { endpoints: object[] };
    expect(JSON.stringify(list)).not.toContain(created.secret);
    const secret = (await (
      await t.json('GET', `/api/webhooks/${created.id}/secret`, undefined, { cookie: owner })
    ).json()) as WebhookSecret;
    expect(secret.secret).toBe(created.secret);
    const [row] = await rowsOf<{ secret: string }>(database.db, sql`select secret from webhook_endpoints`);
    expect(row!.secret).not.toContain(created.secret.slice(6, 20));
  });

  it('POST /api/webhooks refuses plain http to a host not allowed, an unknown event and no events', async () => {
    for (const body of [
      { url: 'http://example.com/hook', events: ['lead.created'] },
      { url: 'ftp://example.com/hook', events: ['lead.created'] },
      { url: 'https://user:pw@example.com/hook', events: ['lead.created'] },
      { url: 'https://example.com/hook', events: ['lead.exploded'] },
      { url: 'https://example.com/hook', events: [] },
      { url: 'not a url', events: ['lead.created'] },
    ]) {
      const res = await t.json('POST', '/api/webhooks', body, { cookie: owner });
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(((await res.json()) as { error: { code: string } }).error.code).toBe('validation_failed');
    }
    expect(
      (await t.json('POST', '/api/webhooks', { url: 'https://example.com/hook', events: ['lead.created'] }, { cookie: owner })).status,
    ).toBe(201);
  });

  it('staff cannot see or change webhooks', async () => {
    const { id } = await addEndpoint(['lead.created']);
    expect((await t.json('GET', '/api/webhooks', undefined, { cookie: staff })).status).toBe(403);
    expect((await t.json('GET', `/api/webhooks/${id}/secret`, undefined, { cookie: staff })).status).toBe(403);
    expect((await t.json('DELETE', `/api/webhooks/${id}`, undefined, { cookie: staff })).status).toBe(403);
    expect((await t.json('DELETE', `/api/webhooks/${id}`, undefined, { cookie: owner })).status).toBe(200);
    expect((await t.json('DELETE', `/api/webhooks/${id}`, undefined, { cookie: owner })).status).toBe(404);
  });

  it('records nothing while no endpoint listens', async () => {
    await submitLead();
    expect(await rowsOf(database.db, sql`select id from webhook_events`)).toEqual([]);
  });
});

describe('delivery', () => {
  it('sends a new lead signed per Standard Webhooks, its data the API’s answer for the lead', async () => {
    const { secret } = await addEndpoint(['lead.created']);
    const leadId = await submitLead();
    const now = new Date();
    expect(await workerOf().runOnce(now)).toBe(1);
    expect(receiver.received).toHaveLength(1);
    const [got] = receiver.received;
    expect(got!.verified).toBe(true);
    expect(verifyWithLibrary(secret, got!.headers, got!.body, now.getTime())).toBeNull();
    // Tampered, another secret, too old: the library refuses each; the docs' no-library check agrees.
    const tampered = got!.body.replace('lead', 'Lead');
    expect(verifyWithLibrary(secret, got!.headers, tampered, now.getTime())).toBe('No matching signature found');
    expect(verifyWithLibrary(`whsec_${Buffer.alloc(32, 7).toString('base64')}`, got!.headers, got!.body, now.getTime())).toBe(
      'No matching signature found',
    );
    expect(verifyWithLibrary(secret, got!.headers, got!.body, now.getTime() + 6 * 60_000)).toBe('Message timestamp too old');
    expect(verifyStandardWebhook(secret, got!.headers, got!.body, Math.floor(now.getTime() / 1000))).toBe(true);
    expect(verifyStandardWebhook(secret, got!.headers, tampered, Math.floor(now.getTime() / 1000))).toBe(false);
    const lead = (await (await t.json('GET', `/api/leads/${leadId}`, undefined, { cookie: owner })).json()) as LeadDetail;
    expect(JSON.parse(got!.body)).toEqual({ type: 'lead.created', timestamp: expect.any(String), data: lead });
    const log = (await (
      await t.json(
        'GET',
        `/api/webhooks/${(await rowsOf<{ id: string }>(database.db, sql`select id from webhook_endpoints`))[0]!.id}/deliveries`,
        undefined,
        { cookie: owner },
      )
    ).json()) as WebhookAttemptList;
    expect(log.attempts).toMatchObject([{ event_type: 'lead.created', http_status: 204, delivery_status: 'delivered' }]);
  });

  it('a receiver down for an hour gets every event after, in order per lead, each with its one webhook-id', async () => {
    await addEndpoint(['lead.created', 'lead.updated', 'lead.stage_changed']);
    const worker = workerOf();
    let down = true;
    const triedWhileDown = new Set<string>();
    receiver.answer = (r, res) => {
      if (down) triedWhileDown.add(String(r.headers['webhook-id']));
      res.writeHead(down ? 503 : 200).end(down ? 'down' : 'ok');
    };
    const a = await submitLead({ full_name: 'Ann Able' });
    const b = await submitLead({ full_name: 'Bob Baker' });
    for (const [id, patch] of [
      [a, { status: 'Contacted' }],
      [a, { property_address: '1 Main St' }],
      [b, { status: 'Converted' }],
    ] as const)
      expect((await t.json('PATCH', `/api/leads/${id}`, patch, { cookie: owner })).status).toBe(200);
    const start = Date.now();
    for (let minute = 0; minute <= 60; minute += 1) await drain(worker, new Date(start + minute * 60_000));
    down = false;
    for (let minute = 60; minute <= 60 * 8; minute += 5) await drain(worker, new Date(start + minute * 60_000));
    const ok = await rowsOf<{ status: string; n: number }>(
      database.db,
      sql`select status, count(*)::int as n from webhook_deliveries group by status`,
    );
    expect(ok).toEqual([{ status: 'delivered', n: 5 }]);
    // While down, only each lead's first event was tried: the later ones waited behind it.
    expect(triedWhileDown.size).toBe(2);
    // Each event's id is the same on every try, and its body too.
    const byId = new Map<string, Set<string>>();
    for (const r of receiver.received)
      byId.set(String(r.headers['webhook-id']), (byId.get(String(r.headers['webhook-id'])) ?? new Set()).add(r.body));
    expect(byId.size).toBe(5);
    for (const set of byId.values()) expect(set.size).toBe(1);
    // The successful deliveries, per lead, in the order of the changes.
    const order = (leadId: string) => {
      const seen: string[] = [];
      for (const r of receiver.received) {
        const body = JSON.parse(r.body) as { type: string; data: { id: string } };
        if (body.data.id === leadId && !seen.includes(`${body.type}`)) seen.push(body.type);
      }
      return seen;
    };
    expect(order(a)).toEqual(['lead.created', 'lead.stage_changed', 'lead.updated']);
    expect(order(b)).toEqual(['lead.created', 'lead.stage_changed']);
  });

  it('two workers (two processes) deliver each event once', async () => {
    await addEndpoint(['lead.created']);
    for (let i = 0; i < 40; i++) await submitLead();
    const now = new Date();
    const one = workerOf({ batchSize: 7 });
    const two = workerOf({ batchSize: 7 });
    await Promise.all([drain(one, now), drain(two, now)]);
    expect(receiver.received.every((r) => r.verified)).toBe(true);
    const ids = receiver.received.map((r) => r.headers['webhook-id']);
    expect(ids).toHaveLength(40);
    expect(new Set(ids).size).toBe(40);
  });

  it('one batch of many leads to two endpoints: each delivery its own lead’s body, signed with its endpoint’s secret', async () => {
    const first = await addEndpoint(['lead.created']);
    const second = await addEndpoint(['lead.created'], `${receiver.url}?second`);
    const leads = [];
    for (let i = 0; i < 12; i++) leads.push(await submitLead({ full_name: `Batch Person ${i}` }));
    const now = new Date();
    expect(await workerOf({ batchSize: 50 }).runOnce(now)).toBe(24);
    expect(receiver.received.every((r) => r.verified)).toBe(true);
    for (const id of leads) {
      const lead = (await (await t.json('GET', `/api/leads/${id}`, undefined, { cookie: owner })).json()) as LeadDetail;
      const sent = receiver.received.filter((r) => (JSON.parse(r.body) as { data: { id: string } }).data.id === id);
      expect(sent.map((r) => r.path).sort()).toEqual(['/hook', '/hook?second']);
      for (const r of sent) expect(JSON.parse(r.body)).toEqual({ type: 'lead.created', timestamp: expect.any(String), data: lead });
      // Both endpoints get the same bytes (the payload frozen once), each signed with its own secret only.
      expect(sent[0]!.body).toBe(sent[1]!.body);
      for (const r of sent) {
        const [own, other] = r.path === '/hook' ? [first.secret, second.secret] : [second.secret, first.secret];
        expect(verifyWithLibrary(own, r.headers, r.body, now.getTime())).toBeNull();
        expect(verifyWithLibrary(other, r.headers, r.body, now.getTime())).not.toBeNull();
      }
    }
    const rows = await rowsOf(database.db, sql`select status, count(*)::int as n from webhook_deliveries group by status`);
    expect(rows).toEqual([{ status: 'delivered', n: 24 }]);
    const attempts = await rowsOf(
      database.db,
      sql`select count(*)::int as n from webhook_attempts where endpoint_id = ${second.id} and http_status = 204`,
    );
    expect(attempts).toEqual([{ n: 12 }]);
  });

  it('while the server is busy serving requests, it pauses after each full batch; idle, it drains at once', async () => {
    await addEndpoint(['lead.created']);
    for (let i = 0; i < 12; i++) await submitLead();
    // Events not delivered yet: waiting to be routed, or routed and pending.
    const pending = async () =>
      countOf(sql`select count(*)::int as n from webhook_events e
              where not exists (select 1 from webhook_deliveries d where d.event_id = e.id and d.status = 'delivered')`);
    // The test holds each pause: the worker asks for one and waits until the test lets it go.
    const pauses: { ms: number; resume: () => void }[] = [];
    let asked: (() => void) | undefined;
    const nextPause = () => new Promise<void>((resolve) => (asked = resolve));
    const pause = (ms: number) =>
      new Promise<void>((resume) => {
        pauses.push({ ms, resume });
        asked?.();
      });
    const busy = workerOf({ batchSize: 5, pollMs: 3_600_000, busyPauseMs: 250, busy: () => true, pause });
    let paused = nextPause();
    busy.start();
    await paused; // a full first batch, then a pause of 250 ms
    expect(pauses.map((p) => p.ms)).toEqual([250]);
    expect(receiver.received).toHaveLength(5);
    expect(await pending()).toBe(7);
    paused = nextPause();
    pauses[0]!.resume();
    await paused; // the second full batch, then another pause
    expect(receiver.received).toHaveLength(10);
    expect(await pending()).toBe(2);
    pauses[1]!.resume();
    await untilTrue('the last batch is delivered', async () => (await pending()) === 0, 10_000, 20);
    await busy.stop();
    expect(receiver.received).toHaveLength(12);
    expect(pauses).toHaveLength(2); // the last batch was not full: nothing more was due

    await submitLead();
    await submitLead();
    const idle = workerOf({ batchSize: 1, pollMs: 3_600_000, busy: () => false, pause });
    idle.start();
    const delivered = async () => countOf(sql`select count(*)::int as n from webhook_deliveries where status = 'delivered'`);
    await untilTrue('the rest is delivered', async () => (await delivered()) === 14, 10_000, 20);
    await idle.stop();
    expect(receiver.received).toHaveLength(14);
    expect(pauses).toHaveLength(2);
  });

  it('the change’s transaction records the event alone; the worker routes it to the endpoints listening since before it', async () => {
    await addEndpoint(['lead.created']);
    const first = await submitLead();
    await addEndpoint(['lead.created'], `${receiver.url}?later`); // added after the first lead
    const second = await submitLead();
    const count = async (table: 'webhook_events' | 'webhook_deliveries') => countOf(sql`select count(*)::int as n from ${sql.raw(table)}`);
    expect(await count('webhook_events')).toBe(2);
    expect(await count('webhook_deliveries')).toBe(0);
    await drain(workerOf(), new Date());
    const got = receiver.received.map((r) => `${r.path} ${(JSON.parse(r.body) as { data: { id: string } }).data.id}`).sort();
    expect(got).toEqual([`/hook ${first}`, `/hook ${second}`, `/hook?later ${second}`].sort());
    expect(await count('webhook_deliveries')).toBe(3);
    // Routed once: running again gives nothing more.
    await drain(workerOf(), new Date());
    expect(receiver.received).toHaveLength(3);
  });

  it('events left with no endpoint to go to (it was paused) do not hold up the ones behind them', async () => {
    const paused = await addEndpoint(['lead.created']);
    await addEndpoint(['lead.updated'], `${receiver.url}?updates`);
    const ids: string[] = [];
    for (let i = 0; i < 12; i++) ids.push(await submitLead());
    expect((await t.json('PATCH', `/api/webhooks/${paused.id}`, { paused: true }, { cookie: owner })).status).toBe(200);
    await t.json('PATCH', `/api/leads/${ids[0]}`, { property_address: '9 Elm St' }, { cookie: owner });
    // Batches of 5: the first two route 10 events and send nothing; the worker goes on at once
    // (no poll for an hour) to the third, which sends the update.
    const worker = workerOf({ batchSize: 5, pollMs: 3_600_000 });
    worker.start();
    await untilTrue('the update is delivered', async () => receiver.received.length === 1, 10_000, 20);
    await worker.stop();
    expect(receiver.received[0]!.path).toBe('/hook?updates');
  });

  it('a lease that ran out (a process killed mid-delivery) is sent again, with the same id', async () => {
    await addEndpoint(['lead.created']);
    await submitLead();
    const now = new Date();
    const { claimDueDeliveries, routeWebhookEvents } = await import('../db/queries/webhook-deliveries-queries.ts');
    expect(await routeWebhookEvents(database.db, 10)).toBe(1);
    expect(await claimDueDeliveries(database.db, now, 10, 60)).toHaveLength(1); // claimed, then the process died
    expect(await workerOf().runOnce(new Date(now.getTime() + 30_000))).toBe(0);
    expect(await workerOf().runOnce(new Date(now.getTime() + 61_000))).toBe(1);
    expect(receiver.received).toHaveLength(1);
  });

  it('an endpoint failing for 3 days is paused and its creator told; resuming sends what waited', async () => {
    const { id } = await addEndpoint(['lead.created']);
    receiver.answer = (_r, res) => res.writeHead(500).end('boom');
    await submitLead();
    const worker = workerOf();
    const start = Date.now();
    for (let h = 0; h <= 80; h += 1) await drain(worker, new Date(start + h * HOUR));
    const [endpoint] = await rowsOf<{ paused_reason: string | null }>(database.db, sql`select paused_reason from webhook_endpoints`);
    expect(endpoint!.paused_reason).toBe('Every delivery failed for 3 days');
    const notes = await rowsOf<{ type: string; message: string }>(
      database.db,
      sql`select type, message from notifications where type = 'webhook'`,
    );
    expect(notes).toEqual([{ type: 'webhook', message: `Webhook to 127.0.0.1:${receiver.port} paused: it failed for 3 days` }]);
    // The delivery itself was given up after 3 days.
    expect(await rowsOf(database.db, sql`select status from webhook_deliveries`)).toEqual([{ status: 'failed' }]);
    receiver.answer = (_r, res) => res.writeHead(200).end();
    expect((await t.json('PATCH', `/api/webhooks/${id}`, { paused: false }, { cookie: owner })).status).toBe(200);
    await submitLead();
    await drain(worker, new Date(start + 81 * HOUR));
    expect(receiver.received.at(-1)!.headers['webhook-id']).toBeDefined();
    expect(await rowsOf(database.db, sql`select failing_since from webhook_endpoints`)).toEqual([{ failing_since: null }]);
  });

  it('410 Gone pauses at once', async () => {
    await addEndpoint(['lead.created']);
    receiver.answer = (_r, res) => res.writeHead(410).end();
    await submitLead();
    await workerOf().runOnce(new Date());
    expect(await rowsOf(database.db, sql`select paused_reason from webhook_endpoints`)).toEqual([
      { paused_reason: 'The endpoint answered 410 Gone' },
    ]);
  });

  it('after a rotation both secrets sign for 24 hours, then only the new one', async () => {
    const created = await addEndpoint(['lead.created']);
    const res = await t.json('PATCH', `/api/webhooks/${created.id}`, { rotate_secret: true }, { cookie: owner });
    expect(res.status).toBe(200);
    const secrets = (await (
      await t.json('GET', `/api/webhooks/${created.id}/secret`, undefined, { cookie: owner })
    ).json()) as WebhookSecret;
    expect(secrets.previous_secret).toBe(created.secret);
    expect(secrets.secret).not.toBe(created.secret);
    await submitLead();
    const now = new Date();
    await workerOf().runOnce(now);
    const [got] = receiver.received;
    const seconds = Math.floor(now.getTime() / 1000);
    expect(String(got!.headers['webhook-signature']).split(' ')).toHaveLength(2);
    expect(verifyWithLibrary(created.secret, got!.headers, got!.body, now.getTime())).toBeNull();
    expect(verifyWithLibrary(secrets.secret, got!.headers, got!.body, now.getTime())).toBeNull();
    expect(verifyStandardWebhook(created.secret, got!.headers, got!.body, seconds)).toBe(true);
    expect(verifyStandardWebhook(secrets.secret, got!.headers, got!.body, seconds)).toBe(true);
    await submitLead();
    const later = new Date(now.getTime() + 25 * HOUR);
    // A receiver still holding only the old secret refuses what the new one alone signs (401), and it is retried.
    await workerOf().runOnce(later);
    const refused = receiver.received.at(-1)!;
    expect(refused).toMatchObject({ verified: false, verifyError: 'No matching signature found' });
    expect(await rowsOf(database.db, sql`select status, attempts from webhook_deliveries order by created_at desc limit 1`)).toEqual([
      { status: 'pending', attempts: 1 },
    ]);
    receiver.secrets.push(secrets.secret);
    await drain(workerOf(), new Date(later.getTime() + HOUR));
    const last = receiver.received.at(-1)!;
    expect(last.verified).toBe(true);
    expect(last.headers['webhook-id']).toBe(refused.headers['webhook-id']);
    expect(String(last.headers['webhook-signature']).split(' ')).toHaveLength(1);
    expect(verifyWithLibrary(created.secret, last.headers, last.body, Number(last.headers['webhook-timestamp']) * 1000)).toBe(
      'No matching signature found',
    );
  });

  it('erasing a lead clears its payloads and log, cancels what waited and sends lead.erased with the id alone', async () => {
    const { id: endpointId } = await addEndpoint(['lead.created', 'lead.updated', 'lead.erased']);
    receiver.answer = (_r, res) => res.writeHead(200).end('got Jane Investor');
    const leadId = await submitLead();
    await workerOf().runOnce(new Date());
    receiver.answer = (_r, res) => res.writeHead(503).end();
    await t.json('PATCH', `/api/leads/${leadId}`, { property_address: '1 Main St' }, { cookie: owner });
    await workerOf().runOnce(new Date()); // fails: pending, its payload frozen
    expect((await t.json('POST', `/api/leads/${leadId}/erase`, { confirm: true }, { cookie: owner })).status).toBe(200);
    const events = await rowsOf<{ type: string; payload: string | null; erased: boolean }>(
      database.db,
      sql`select type, payload, erased from webhook_events order by seq`,
    );
    expect(events.map((e) => [e.type, e.erased, e.payload === null])).toEqual([
      ['lead.created', true, true],
      ['lead.updated', true, true],
      ['lead.erased', false, false],
    ]);
    expect(JSON.stringify(await rowsOf(database.db, sql`select * from webhook_attempts`))).not.toContain('Jane');
    receiver.answer = (_r, res) => res.writeHead(204).end();
    receiver.received.length = 0;
    await drain(workerOf(), new Date(Date.now() + HOUR));
    expect(bodies()).toEqual([{ type: 'lead.erased', timestamp: expect.any(String), data: { id: leadId } }]);
    const log = (await (
      await t.json('GET', `/api/webhooks/${endpointId}/deliveries`, undefined, { cookie: owner })
    ).json()) as WebhookAttemptList;
    const first = log.attempts.find((a) => a.event_type === 'lead.created')!;
    const replay = await t.json('POST', `/api/webhooks/${endpointId}/deliveries/${first.delivery_id}/replay`, undefined, { cookie: owner });
    expect(replay.status).toBe(409);
  });

  it('a lead erased before its events were routed: they get no delivery, lead.erased does', async () => {
    await addEndpoint(['lead.created', 'lead.erased']);
    const leadId = await submitLead();
    expect((await t.json('POST', `/api/leads/${leadId}/erase`, { confirm: true }, { cookie: owner })).status).toBe(200);
    await drain(workerOf(), new Date());
    expect(bodies()).toEqual([{ type: 'lead.erased', timestamp: expect.any(String), data: { id: leadId } }]);
    const deliveries = await rowsOf(database.db, sql`select e.type from webhook_deliveries d join webhook_events e on e.id = d.event_id`);
    expect(deliveries).toEqual([{ type: 'lead.erased' }]);
  });

  it('a bulk change of 500 leads records one event per lead in the same transaction', async () => {
    await addEndpoint(['lead.stage_changed']);
    const ids: string[] = [];
    for (let i = 0; i < 500; i++) ids.push(crypto.randomUUID());
    await execute(
      database.db,
      sql`insert into leads (id, full_name, email, phone, property_types, stage_id)
          select i, 'Bulk Person', 'bulk' || n || '@example.com', '555', array['land'], (select id from pipeline_stages where status = 'New' order by position limit 1)
          from unnest(${`{${ids.join(',')}}`}::uuid[]) with ordinality as u(i, n)`,
    );
    const res = await t.json('POST', '/api/leads/bulk', { ids, action: 'status', status: 'Contacted' }, { cookie: owner });
    expect(res.status).toBe(200);
    expect(await rowsOf(database.db, sql`select count(*)::int as n, count(distinct tx)::int as txs from webhook_events`)).toEqual([
      { n: 500, txs: 1 },
    ]);
    await drain(workerOf(), new Date());
    expect(new Set(bodies().map((b) => b.data.id)).size).toBe(500);
  });

  it('several changes of one lead in one transaction are one event of each type, its creation included', async () => {
    await addEndpoint(['lead.created', 'lead.updated']);
    await execute(
      database.db,
      sql`insert into leads (full_name, email, phone, property_types) values ('Twice Changed', 'twice@example.com', '1', array['land'])`,
    );
    await execute(
      database.db,
      sql`do $$ begin
        update leads set phone = '2' where email = 'twice@example.com';
        update leads set phone = '3' where email = 'twice@example.com';
        update leads set full_name = 'Twice Renamed' where email = 'twice@example.com';
      end $$`,
    );
    // Created and changed in one transaction: one of each.
    await execute(
      database.db,
      sql`do $$ begin
        insert into leads (full_name, email, phone, property_types) values ('Born Busy', 'busy@example.com', '1', array['land']);
        update leads set phone = '2' where email = 'busy@example.com';
        update leads set phone = '3' where email = 'busy@example.com';
      end $$`,
    );
    const events = await rowsOf<{ type: string; email: string }>(
      database.db,
      sql`select e.type, l.email from webhook_events e join leads l on l.id = e.object_id order by e.seq`,
    );
    expect(events).toEqual([
      { type: 'lead.created', email: 'twice@example.com' },
      { type: 'lead.updated', email: 'twice@example.com' },
      { type: 'lead.created', email: 'busy@example.com' },
      { type: 'lead.updated', email: 'busy@example.com' },
    ]);
  });

  it('a replay sends the same id and body again', async () => {
    const { id } = await addEndpoint(['lead.created']);
    await submitLead();
    await workerOf().runOnce(new Date());
    const log = (await (await t.json('GET', `/api/webhooks/${id}/deliveries`, undefined, { cookie: owner })).json()) as WebhookAttemptList;
    const res = await t.json('POST', `/api/webhooks/${id}/deliveries/${log.attempts[0]!.delivery_id}/replay`, undefined, { cookie: owner });
    expect(res.status).toBe(202);
    await workerOf().runOnce(new Date());
    expect(receiver.received).toHaveLength(2);
    expect(receiver.received[1]!.headers['webhook-id']).toBe(receiver.received[0]!.headers['webhook-id']);
    expect(receiver.received[1]!.body).toBe(receiver.received[0]!.body);
  });
});

describe('the log’s 30 days', () => {
  it('attempts and events older than 30 days go, with their deliveries; an old event still pending stays', async () => {
    const { deleteOldWebhookLog, routeWebhookEvents } = await import('../db/queries/webhook-deliveries-queries.ts');
    await addEndpoint(['lead.created']);
    const delivered = await submitLead();
    const now = new Date();
    await drain(workerOf(), now);
    receiver.answer = (_r, res) => res.writeHead(503).end();
    const waiting = await submitLead();
    expect(await workerOf().runOnce(new Date())).toBe(1); // failed once: pending, to be tried again
    const recent = await submitLead(); // not sent yet, and recent
    expect(await routeWebhookEvents(database.db, 10)).toBe(1);
    const old = new Date(now.getTime() - 31 * 24 * HOUR).toISOString();
    await execute(database.db, sql`update webhook_events set created_at = ${old}::timestamptz where object_id <> ${recent}`);
    await execute(database.db, sql`update webhook_attempts set at = ${old}::timestamptz`);

    const removed = await deleteOldWebhookLog(database.db, now);
    expect(removed).toBe(3); // two attempts, one event
    const events = await rowsOf<{ object_id: string }>(database.db, sql`select object_id from webhook_events order by seq`);
    expect(events.map((e) => e.object_id)).toEqual([waiting, recent]);
    const deliveries = await rowsOf<{ object_id: string; status: string }>(
      database.db,
      sql`select object_id, status from webhook_deliveries order by event_seq`,
    );
    expect(deliveries).toEqual([
      { object_id: waiting, status: 'pending' },
      { object_id: recent, status: 'pending' },
    ]);
    expect(await rowsOf(database.db, sql`select id from webhook_attempts`)).toEqual([]);
    expect(delivered).not.toBe(waiting);
  });
});

describe('hostile endpoints', () => {
  it('Send test answers the result: a redirect to another loopback port is an answer, not followed', async () => {
    const { id } = await addEndpoint(['lead.created']);
    receiver.answer = (_r, res) => res.writeHead(302, { location: 'http://127.0.0.1:1/metadata' }).end();
    const res = await t.json('POST', `/api/webhooks/${id}/test`, undefined, { cookie: owner });
    expect(res.status).toBe(200);
    expect((await res.json()) as WebhookTestResult).toMatchObject({ delivered: false, http_status: 302 });
    expect(receiver.received).toHaveLength(1);
    expect(JSON.parse(receiver.received[0]!.body)).toMatchObject({ type: 'webhook.test' });
  });

  it('a huge answer is cut at 1 KB and a slow one timed out; the next endpoint is served all the same', async () => {
    const huge = await addEndpoint(['lead.created'], `${receiver.url}?huge`);
    const slow = await addEndpoint(['lead.created'], `${receiver.url}?slow`);
    await addEndpoint(['lead.created'], `${receiver.url}?fine`);
    receiver.answer = (r, res) => {
      if (r.path.endsWith('?huge')) {
        res.writeHead(200);
        const chunk = 'x'.repeat(64 * 1024);
        const write = () => (res.destroyed ? undefined : res.write(chunk) ? setImmediate(write) : res.once('drain', write));
        write();
      } else if (!r.path.endsWith('?slow')) res.writeHead(204).end();
      // ?slow never answers
    };
    await submitLead();
    const tls = await addEndpoint(['lead.created'], `https://127.0.0.1:${receiver.port}/tls`);
    await submitLead({ full_name: 'Second Lead' });
    // A real wait: the silent endpoint must be timed out (1.5 s, to leave the others room on a busy machine).
    await workerOf({ timeoutMs: 1500 }).runOnce(new Date());
    const log = async (endpointId: string) =>
      ((await (await t.json('GET', `/api/webhooks/${endpointId}/deliveries`, undefined, { cookie: owner })).json()) as WebhookAttemptList)
        .attempts;
    const hugeLog = await log(huge.id);
    expect(hugeLog[0]).toMatchObject({ http_status: 200, delivery_status: 'delivered' });
    expect(hugeLog[0]!.response_body).toHaveLength(1024);
    expect((await log(slow.id))[0]).toMatchObject({ http_status: null, delivery_status: 'pending' });
    expect((await log(slow.id))[0]!.error).toMatch(/within/);
    expect((await log(tls.id))[0]!.error).toMatch(/secure connection|TLS|ssl/i);
    const fine = receiver.received.filter((r) => r.path.endsWith('?fine'));
    expect(fine).toHaveLength(2);
  });
});
