import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { createTestDelivery } from '../db/queries/webhook-deliveries-queries.ts';
import { execute } from '../db/sql.ts';
import { rowsOf, useTestDatabase } from '../test/database.ts';
import { refusalOf } from '../test/refusal.ts';
import { useWebhookOwner } from '../test/webhook-owner.ts';
import { replay } from './replay.ts';

const database = useTestDatabase();
const webhooks = useWebhookOwner(database);

describe('replay', () => {
  it('queues the delivery’s event again as a new delivery of the same event, due now', async () => {
    const { id } = await webhooks.endpoint();
    const sent = await createTestDelivery(database.db, id, new Date(), 60);
    const again = await replay(database.db, id, sent.id);
    expect(again).not.toBe(sent.id);
    const rows = await rowsOf<{ id: string; event_id: string; replay_of: string | null; status: string }>(
      database.db,
      sql`select id, event_id, replay_of, status from webhook_deliveries where id = ${again}`,
    );
    expect(rows).toEqual([{ id: again, event_id: sent.event_id, replay_of: sent.id, status: 'pending' }]);
  });

  it('refuses a delivery not of that endpoint (404) and an event about an erased lead (409)', async () => {
    const [a, b] = [await webhooks.endpoint('https://a.example.com/'), await webhooks.endpoint('https://b.example.com/')];
    const sent = await createTestDelivery(database.db, a.id, new Date(), 60);
    expect(await refusalOf(replay(database.db, b.id, sent.id))).toMatchObject({ status: 404, message: 'Delivery not found.' });
    await execute(database.db, sql`update webhook_events set erased = true where id = ${sent.event_id}`);
    expect(await refusalOf(replay(database.db, a.id, sent.id))).toMatchObject({
      status: 409,
      message: 'This event was about a lead who was erased: there is nothing left to send.',
    });
  });
});
