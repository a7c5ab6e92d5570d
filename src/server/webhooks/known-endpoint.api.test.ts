import { describe, expect, it } from 'vitest';
import { useTestDatabase } from '../test/database.ts';
import { refusalOf } from '../test/refusal.ts';
import { useWebhookOwner } from '../test/webhook-owner.ts';
import { knownEndpoint } from './known-endpoint.ts';

const database = useTestDatabase();
const webhooks = useWebhookOwner(database);

describe('knownEndpoint', () => {
  it('answers the endpoint without its secret, or 404', async () => {
    const created = await webhooks.endpoint();
    const known = await knownEndpoint(database.db, created.id);
    expect(known).toMatchObject({ id: created.id, url: created.url });
    expect(JSON.stringify(known)).not.toContain(created.secret.slice(6));
    expect(await refusalOf(knownEndpoint(database.db, crypto.randomUUID()))).toMatchObject({ status: 404, message: 'Webhook not found.' });
  });
});
