import pino from 'pino';
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { createTestDelivery, type AttemptOutcome } from '../db/queries/webhook-deliveries-queries.ts';
import { rowsOf, useTestDatabase } from '../test/database.ts';
import { useWebhookOwner } from '../test/webhook-owner.ts';
import { PAUSE_AFTER_SECONDS, pauseRule, pausedNotice, recordFailure } from './pausing.ts';

const database = useTestDatabase();
const webhooks = useWebhookOwner(database);
const logger = pino({ level: 'silent' });
const start = new Date('2026-03-02T09:00:00.000Z');
const after = (seconds: number) => new Date(start.getTime() + seconds * 1000);

/** A delivery to `endpointId` made at `at` that failed there with `httpStatus`. */
async function failAt(endpointId: string, at: Date, httpStatus: number | null) {
  const delivery = await createTestDelivery(database.db, endpointId, at, 60);
  const outcome: AttemptOutcome = {
    deliveryId: delivery.id,
    endpointId,
    at,
    httpStatus,
    durationMs: 5,
    responseBody: null,
    error: 'HTTP 500',
  };
  await recordFailure(database.db, outcome, null, logger);
}
const endpointState = async (id: string) =>
  (
    await rowsOf<{ paused: boolean; paused_reason: string | null }>(
      database.db,
      sql`select paused_at is not null as paused, paused_reason from webhook_endpoints where id = ${id}`,
    )
  )[0];
const notices = () => rowsOf<{ user_id: string; message: string }>(database.db, sql`select user_id, message from notifications`);

describe('pauseRule', () => {
  it('pauses after 3 days of failures, or at once on 410 Gone', () => {
    expect(PAUSE_AFTER_SECONDS).toBe(3 * 86_400);
    expect(pauseRule(500)).toEqual({ afterSeconds: PAUSE_AFTER_SECONDS, now: false, reason: 'Every delivery failed for 3 days' });
    expect(pauseRule(null).now).toBe(false);
    expect(pauseRule(410)).toEqual({ afterSeconds: PAUSE_AFTER_SECONDS, now: true, reason: 'The endpoint answered 410 Gone' });
    expect(pausedNotice('hooks.example.com', true)).toBe('Webhook to hooks.example.com paused: it answered 410 Gone');
    expect(pausedNotice('hooks.example.com', false)).toBe('Webhook to hooks.example.com paused: it failed for 3 days');
  });
});

describe('recordFailure (the rule in SQL: recordFailed)', () => {
  it('pauses an endpoint failing since 3 days, telling its creator once', async () => {
    const { id } = await webhooks.endpoint();
    await failAt(id, start, 500);
    await failAt(id, after(PAUSE_AFTER_SECONDS - 60), 500);
    expect(await endpointState(id)).toEqual({ paused: false, paused_reason: null });
    expect(await notices()).toEqual([]);
    await failAt(id, after(PAUSE_AFTER_SECONDS), null);
    expect(await endpointState(id)).toEqual({ paused: true, paused_reason: 'Every delivery failed for 3 days' });
    await failAt(id, after(PAUSE_AFTER_SECONDS + 60), 500);
    expect(await notices()).toEqual([{ user_id: webhooks.owner, message: 'Webhook to hooks.example.com paused: it failed for 3 days' }]);
  });

  it('pauses at once on 410 Gone; failures of two endpoints are counted apart', async () => {
    const gone = await webhooks.endpoint('https://gone.example.com/crm');
    const other = await webhooks.endpoint('https://other.example.com/crm');
    await failAt(other.id, start, 500);
    await failAt(gone.id, after(60), 410);
    expect(await endpointState(gone.id)).toEqual({ paused: true, paused_reason: 'The endpoint answered 410 Gone' });
    expect(await endpointState(other.id)).toEqual({ paused: false, paused_reason: null });
    expect(await notices()).toEqual([{ user_id: webhooks.owner, message: 'Webhook to gone.example.com paused: it answered 410 Gone' }]);
  });
});
