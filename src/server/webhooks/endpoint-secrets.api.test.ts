import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { execute } from '../db/sql.ts';
import { useTestDatabase } from '../test/database.ts';
import { refusalOf } from '../test/refusal.ts';
import { useWebhookOwner } from '../test/webhook-owner.ts';
import { changeEndpoint } from './change-endpoint.ts';
import { endpointSecrets, openVault } from './endpoint-secrets.ts';

const database = useTestDatabase();
const webhooks = useWebhookOwner(database);

describe('endpointSecrets', () => {
  it('opens the secret; after a rotation the previous one too, for 24 hours', async () => {
    const created = await webhooks.endpoint();
    expect(await endpointSecrets(database.db, webhooks.t.vault, created.id)).toEqual({
      secret: created.secret,
      previous_secret: null,
      previous_secret_until: null,
    });
    await changeEndpoint(database.db, webhooks.t.vault, [], created.id, { rotate_secret: true });
    const rotated = await endpointSecrets(database.db, webhooks.t.vault, created.id);
    expect(rotated.secret).not.toBe(created.secret);
    expect(rotated.previous_secret).toBe(created.secret);
    const hours = (Date.parse(rotated.previous_secret_until!) - Date.now()) / 3_600_000;
    expect(hours).toBeGreaterThan(23.9);
    expect(hours).toBeLessThanOrEqual(24);
    await execute(database.db, sql`update webhook_endpoints set previous_secret_until = now() - interval '1 second'`);
    expect(await endpointSecrets(database.db, webhooks.t.vault, created.id)).toMatchObject({ previous_secret: null });
  });

  it('answers 404 for no such endpoint and 503 without a credentials key', async () => {
    expect(await refusalOf(endpointSecrets(database.db, webhooks.t.vault, crypto.randomUUID()))).toMatchObject({
      status: 404,
      message: 'Webhook not found.',
    });
    const { id } = await webhooks.endpoint();
    const closed = { available: false as const, reason: 'No credentials key.' };
    expect(await refusalOf(endpointSecrets(database.db, closed, id))).toMatchObject({ status: 503, message: 'No credentials key.' });
    expect(() => openVault(closed)).toThrow('No credentials key.');
  });
});
