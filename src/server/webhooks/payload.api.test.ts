import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { freezePayloads } from '../db/queries/webhook-deliveries-queries.ts';
import { getLead } from '../db/queries/leads-queries.ts';
import { execute } from '../db/sql.ts';
import { signIn, validLead } from '../test/test-app.ts';
import { rowsOf, useTestDatabase } from '../test/database.ts';
import { useWebhookOwner } from '../test/webhook-owner.ts';
import { buildPayload, buildPayloads } from './payload.ts';

const database = useTestDatabase();
const webhooks = useWebhookOwner(database);
const at = '2026-03-02T09:00:00.000Z';

async function newLead(): Promise<string> {
  const cookie = await signIn(webhooks.t.json, 'dana@keystone.test', 'dana-password');
  const res = await webhooks.t.json('POST', '/api/leads', validLead({ email: `p${crypto.randomUUID().slice(0, 8)}@example.com` }), {
    cookie,
  });
  expect(res.status).toBe(201);
  return ((await res.json()) as { id: string }).id;
}
/** A recorded event of `type` about nothing (a test event), as the triggers record them. */
async function recordedEvent(): Promise<string> {
  const [row] = await rowsOf<{ id: string }>(
    database.db,
    sql`insert into webhook_events (type, created_at, routed) values ('webhook.test', now(), true) returning id`,
  );
  return row!.id;
}

describe('buildPayload', () => {
  it('is { type, timestamp, data } with the object as the API answers it, and what the trigger knew beside it', async () => {
    const id = await newLead();
    const body = await buildPayload(database.db, {
      event_type: 'lead.stage_changed',
      event_created_at: at,
      object_id: id,
      data: { previous: 'New' },
    });
    expect(JSON.parse(body)).toEqual({
      type: 'lead.stage_changed',
      timestamp: at,
      data: JSON.parse(JSON.stringify(await getLead(database.db, id))),
      previous: 'New',
    });
  });

  it('sends an object gone by the first attempt as its id alone, and an event about nothing with empty data', async () => {
    const gone = crypto.randomUUID();
    expect(
      JSON.parse(await buildPayload(database.db, { event_type: 'lead.deleted', event_created_at: at, object_id: gone, data: null })),
    ).toEqual({
      type: 'lead.deleted',
      timestamp: at,
      data: { id: gone },
    });
    expect(
      JSON.parse(await buildPayload(database.db, { event_type: 'webhook.test', event_created_at: at, object_id: null, data: null })),
    ).toEqual({
      type: 'webhook.test',
      timestamp: at,
      data: {},
    });
  });

  it('buildPayloads builds a batch’s bodies together, each the same bytes buildPayload makes', async () => {
    const [a, b] = [await newLead(), await newLead()];
    const events = [
      { event_id: 'e1', event_type: 'lead.created', event_created_at: at, object_id: a, data: null },
      { event_id: 'e2', event_type: 'lead.updated', event_created_at: at, object_id: b, data: { changed: ['status'] } },
      { event_id: 'e3', event_type: 'appointment.scheduled', event_created_at: at, object_id: crypto.randomUUID(), data: null },
      { event_id: 'e4', event_type: 'lead.deleted', event_created_at: at, object_id: crypto.randomUUID(), data: null },
    ];
    const built = await buildPayloads(database.db, events);
    for (const event of events) expect(built.get(event.event_id)).toBe(await buildPayload(database.db, event));
  });
});

describe('freezing (the rule in SQL: freezePayloads)', () => {
  it('keeps the first body an event was given: a retry, another endpoint or a replay sends the same bytes', async () => {
    const id = await recordedEvent();
    expect(await freezePayloads(database.db, new Map([[id, '{"first":true}']]))).toEqual(new Map([[id, '{"first":true}']]));
    // Built again meanwhile by another process (the object changed since): the first stays.
    expect(await freezePayloads(database.db, new Map([[id, '{"second":true}']]))).toEqual(new Map([[id, '{"first":true}']]));
    expect(await rowsOf(database.db, sql`select payload from webhook_events where id = ${id}`)).toEqual([{ payload: '{"first":true}' }]);
  });

  it('freezes nothing for an erased event', async () => {
    const id = await recordedEvent();
    await execute(database.db, sql`update webhook_events set erased = true where id = ${id}`);
    expect(await freezePayloads(database.db, new Map([[id, '{"data":{}}']]))).toEqual(new Map());
    expect(await rowsOf(database.db, sql`select payload from webhook_events where id = ${id}`)).toEqual([{ payload: null }]);
  });
});
