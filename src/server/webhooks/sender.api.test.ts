import { sql } from 'drizzle-orm';
import pino from 'pino';
import { beforeEach, describe, expect, it } from 'vitest';
import { signIn, validLead } from '../test/test-app.ts';
import { rowsOf, useTestDatabase } from '../test/database.ts';
import { useWebhookReceiver } from '../test/webhook-receiver.ts';
import { useWebhookOwner } from '../test/webhook-owner.ts';
import { changeEndpoint } from './change-endpoint.ts';
import { GIVE_UP_SECONDS } from './retry.ts';
import { WebhookSender } from './sender.ts';

/**
 * The sender's rules, one batch at a time at the test's own time (`runOnce(at)`, as the worker
 * runs it), to a real receiver on loopback that verifies each signature at that time:
 * delivered once, a failure logged and tried again after retry.ts's backoff (given up 3 days
 * after the delivery was made), nothing sent to a paused endpoint.
 */
const database = useTestDatabase();
const receiver = useWebhookReceiver();
const webhooks = useWebhookOwner(database);
/** The owner's session, to add leads with. */
let cookie: string;

/** A second process's sender on the same database. */
const otherSender = () =>
  new WebhookSender({
    database: () => database,
    config: webhooks.t.config,
    vault: () => webhooks.t.vault,
    logger: pino({ level: 'silent' }),
  });

/** One batch of `sender` at `at` (the receiver's clock moved there); how many deliveries it claimed. */
function runAt(at: Date, sender: WebhookSender = webhooks.t.webhooks) {
  receiver.now = () => at.getTime();
  return sender.runOnce(at);
}
const later = (at: Date, seconds: number) => new Date(at.getTime() + seconds * 1000);

/** An endpoint at the receiver listening to new leads, the receiver holding its secret. */
async function endpoint() {
  const created = await webhooks.endpoint(receiver.url, ['lead.created']);
  receiver.secrets.push(created.secret);
  return created;
}

/** A lead added by the owner (which records lead.created); its id. */
async function newLead(): Promise<string> {
  const res = await webhooks.t.json('POST', '/api/leads', validLead({ email: `p${crypto.randomUUID().slice(0, 8)}@example.com` }), {
    cookie,
  });
  expect(res.status).toBe(201);
  return ((await res.json()) as { id: string }).id;
}

type Delivery = { status: string; attempts: number; last_status: number | null; last_error: string | null; next_attempt_at: string | Date };
const deliveries = () =>
  rowsOf<Delivery>(
    database.db,
    sql`select status, attempts, last_status, last_error, next_attempt_at from webhook_deliveries order by event_seq`,
  );
const leadIdOf = (body: string) => (JSON.parse(body) as { data: { id: string } }).data.id;

beforeEach(async () => {
  receiver.reset();
  cookie = await signIn(webhooks.t.json, 'dana@keystone.test', 'dana-password');
});

describe('WebhookSender', () => {
  it('delivers each due event once, signed, even with two processes sending at once; then nothing is left to send', async () => {
    await endpoint();
    const leads = [await newLead(), await newLead(), await newLead()];
    const now = new Date();
    const claimed = await Promise.all([runAt(now), runAt(now, otherSender())]);
    expect(claimed[0] + claimed[1]).toBe(3);
    expect(receiver.received.every((r) => r.verified)).toBe(true);
    expect(receiver.received.map((r) => leadIdOf(r.body)).sort()).toEqual([...leads].sort());
    expect(new Set(receiver.received.map((r) => r.headers['webhook-id'])).size).toBe(3);
    expect(await deliveries()).toMatchObject(Array(3).fill({ status: 'delivered', attempts: 1, last_status: 204, last_error: null }));
    expect(await runAt(later(now, 3600))).toBe(0);
    expect(receiver.received).toHaveLength(3);
  });

  it('logs a failed attempt and tries it again after the backoff, with the same webhook-id and body', async () => {
    await endpoint();
    receiver.answer = (_r, res) => res.writeHead(503).end('down');
    await newLead();
    const now = new Date();
    expect(await runAt(now)).toBe(1);
    const [failed] = await deliveries();
    expect(failed).toMatchObject({ status: 'pending', attempts: 1, last_status: 503, last_error: 'HTTP 503' });
    // retry.ts: 30 s after the first failure, the upper half jittered.
    const wait = (new Date(failed!.next_attempt_at).getTime() - now.getTime()) / 1000;
    expect(wait).toBeGreaterThanOrEqual(15);
    expect(wait).toBeLessThanOrEqual(30);
    expect(await rowsOf(database.db, sql`select http_status, response_body, error from webhook_attempts`)).toEqual([
      { http_status: 503, response_body: 'down', error: 'HTTP 503' },
    ]);

    expect(await runAt(later(now, 14))).toBe(0);
    receiver.answer = (_r, res) => res.writeHead(204).end();
    expect(await runAt(later(now, 30))).toBe(1);
    expect(await deliveries()).toMatchObject([{ status: 'delivered', attempts: 2, last_status: 204, last_error: null }]);
    const [first, second] = receiver.received;
    expect(receiver.received).toHaveLength(2);
    expect(second!.headers['webhook-id']).toBe(first!.headers['webhook-id']);
    expect(second!.body).toBe(first!.body);
  });

  it('gives a delivery up when it fails 3 days after it was made: failed, never tried again', async () => {
    await endpoint();
    receiver.answer = (_r, res) => res.writeHead(500).end();
    await newLead();
    const threeDaysOn = later(new Date(), GIVE_UP_SECONDS);
    expect(await runAt(threeDaysOn)).toBe(1);
    expect(await deliveries()).toMatchObject([{ status: 'failed', attempts: 1, last_status: 500, last_error: 'HTTP 500' }]);
    expect(await runAt(later(threeDaysOn, 86_400))).toBe(0);
    expect(receiver.received).toHaveLength(1);
  });

  it('sends nothing to a paused endpoint; resumed, it gets what waited, not what happened while it was paused', async () => {
    const { id } = await endpoint();
    const pause = (paused: boolean) => changeEndpoint(database.db, webhooks.t.vault, webhooks.t.config.outboundAllowHosts, id, { paused });
    receiver.answer = (_r, res) => res.writeHead(503).end();
    const waited = await newLead();
    const now = new Date();
    expect(await runAt(now)).toBe(1); // tried once, due again in under a minute
    await pause(true);
    receiver.answer = (_r, res) => res.writeHead(204).end();
    await newLead();
    expect(await runAt(later(now, 3600))).toBe(0);
    expect(receiver.received).toHaveLength(1);

    await pause(false);
    expect(await runAt(later(now, 3600))).toBe(1);
    expect(await runAt(later(now, 7200))).toBe(0);
    expect(receiver.received.map((r) => leadIdOf(r.body))).toEqual([waited, waited]);
    expect(await deliveries()).toMatchObject([{ status: 'delivered', attempts: 2 }]);
  });
});
