import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { rowsOf, useTestDatabase } from '../test/database.ts';
import { refusalOf } from '../test/refusal.ts';
import { useWebhookReceiver } from '../test/webhook-receiver.ts';
import { useWebhookOwner } from '../test/webhook-owner.ts';
import { changeEndpoint } from './change-endpoint.ts';
import { sendTest } from './send-test.ts';

const database = useTestDatabase();
const receiver = useWebhookReceiver();
const webhooks = useWebhookOwner(database);

describe('sendTest', () => {
  it('sends webhook.test signed now, even to a paused endpoint, and answers what it said; logged, never retried', async () => {
    receiver.reset();
    const created = await webhooks.endpoint(receiver.url);
    receiver.secrets.push(created.secret);
    await changeEndpoint(database.db, webhooks.t.vault, webhooks.t.config.outboundAllowHosts, created.id, { paused: true });
    const result = await sendTest(database.db, webhooks.t.vault, webhooks.t.webhooks, created.id);
    expect(result).toMatchObject({ delivered: true, http_status: 204, response_body: null, error: null });
    expect(receiver.received).toHaveLength(1);
    expect(receiver.received[0]!.verified).toBe(true);
    expect(JSON.parse(receiver.received[0]!.body)).toMatchObject({ type: 'webhook.test', data: {} });

    receiver.answer = (_r, res) => res.writeHead(500).end('down');
    const failed = await sendTest(database.db, webhooks.t.vault, webhooks.t.webhooks, created.id);
    expect(failed).toMatchObject({ delivered: false, http_status: 500, response_body: 'down', error: 'HTTP 500' });
    const deliveries = await rowsOf(database.db, sql`select status from webhook_deliveries order by created_at`);
    expect(deliveries).toEqual([{ status: 'delivered' }, { status: 'failed' }]);
  });

  it('answers 404 for no such endpoint and 503 without a credentials key to sign with', async () => {
    expect(await refusalOf(sendTest(database.db, webhooks.t.vault, webhooks.t.webhooks, crypto.randomUUID()))).toMatchObject({
      status: 404,
    });
    const { id } = await webhooks.endpoint();
    const closed = { available: false as const, reason: 'No credentials key.' };
    expect(await refusalOf(sendTest(database.db, closed, webhooks.t.webhooks, id))).toMatchObject({ status: 503 });
    expect(await rowsOf(database.db, sql`select 1 from webhook_deliveries`)).toEqual([]);
  });
});
