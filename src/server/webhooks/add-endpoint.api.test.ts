import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { WEBHOOK_ENDPOINTS_MAX } from '#shared/constants';
import { webhookSecretContext } from '../db/sealed-secrets.ts';
import { rowsOf, useTestDatabase } from '../test/database.ts';
import { refusalOf } from '../test/refusal.ts';
import { useWebhookOwner } from '../test/webhook-owner.ts';
import { addEndpoint } from './add-endpoint.ts';

const database = useTestDatabase();
const webhooks = useWebhookOwner(database);
const add = (url: string, vault = webhooks.t.vault) =>
  addEndpoint(database.db, vault, webhooks.t.config.outboundAllowHosts, { url, events: ['lead.created'], createdBy: webhooks.owner });

describe('addEndpoint', () => {
  it('stores the endpoint with a new secret, sealed, and answers the secret this once', async () => {
    const created = await add('https://hooks.example.com/crm');
    expect(created).toMatchObject({ url: 'https://hooks.example.com/crm', events: ['lead.created'] });
    expect(created.secret).toMatch(/^whsec_/);
    const [stored] = await rowsOf<{ secret: string }>(database.db, sql`select secret from webhook_endpoints`);
    expect(stored!.secret).not.toContain(created.secret.slice(6));
    const vault = webhooks.t.vault;
    if (!vault.available) throw new Error(vault.reason);
    expect(vault.open(stored!.secret, webhookSecretContext(created.id))).toBe(created.secret);
  });

  it('refuses a URL it may not post to (400), no credentials key (503), and more than the firm keeps (409)', async () => {
    expect(await refusalOf(add('http://hooks.example.com/crm'))).toMatchObject({ status: 400, fields: { url: expect.any(String) } });
    expect(await refusalOf(add('https://hooks.example.com/crm', { available: false, reason: 'No credentials key.' }))).toMatchObject({
      status: 503,
      message: 'No credentials key.',
    });
    expect(await rowsOf(database.db, sql`select 1 from webhook_endpoints`)).toEqual([]);
    for (let i = 0; i < WEBHOOK_ENDPOINTS_MAX; i++) await add(`https://hooks.example.com/${i}`);
    expect(await refusalOf(add('https://hooks.example.com/more'))).toMatchObject({
      status: 409,
      message: `A firm keeps at most ${WEBHOOK_ENDPOINTS_MAX} webhook endpoints: remove one first.`,
    });
  });
});
