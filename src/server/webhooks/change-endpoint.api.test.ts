import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { execute } from '../db/sql.ts';
import { rowsOf, useTestDatabase } from '../test/database.ts';
import { refusalOf } from '../test/refusal.ts';
import { useWebhookOwner } from '../test/webhook-owner.ts';
import { changeEndpoint } from './change-endpoint.ts';

const database = useTestDatabase();
const webhooks = useWebhookOwner(database);
const change = (id: string, body: Parameters<typeof changeEndpoint>[4], vault = webhooks.t.vault) =>
  changeEndpoint(database.db, vault, webhooks.t.config.outboundAllowHosts, id, body);

describe('changeEndpoint', () => {
  it('changes only the fields sent, answering the endpoint before and after', async () => {
    const { id } = await webhooks.endpoint('https://hooks.example.com/crm', ['lead.created']);
    const moved = await change(id, { url: 'https://new.example.com/in' });
    expect(moved.before).toMatchObject({ url: 'https://hooks.example.com/crm', events: ['lead.created'] });
    expect(moved.saved).toMatchObject({ url: 'https://new.example.com/in', events: ['lead.created'] });
    expect(moved.rotated).toBe(false);
    expect((await change(id, { events: ['lead.created', 'lead.stage_changed'] })).saved).toMatchObject({
      url: 'https://new.example.com/in',
      events: ['lead.created', 'lead.stage_changed'],
    });
  });

  it('pausing stops it; resuming counts its failures afresh', async () => {
    const { id } = await webhooks.endpoint();
    expect((await change(id, { paused: true })).saved.paused_at).not.toBeNull();
    await execute(database.db, sql`update webhook_endpoints set failing_since = now() - interval '2 days'`);
    expect((await change(id, { paused: false })).saved.paused_at).toBeNull();
    expect(await rowsOf(database.db, sql`select failing_since from webhook_endpoints`)).toEqual([{ failing_since: null }]);
  });

  it('rotating needs the credentials key; a URL it may not post to is refused first; 404 for no such endpoint', async () => {
    const { id } = await webhooks.endpoint();
    expect((await change(id, { rotate_secret: true })).rotated).toBe(true);
    const closed = { available: false as const, reason: 'No credentials key.' };
    expect(await refusalOf(change(id, { rotate_secret: true }, closed))).toMatchObject({ status: 503 });
    expect(await refusalOf(change(id, { url: 'ftp://hooks.example.com/' }, closed))).toMatchObject({
      status: 400,
      fields: { url: 'Use an https:// URL.' },
    });
    expect(await refusalOf(change(crypto.randomUUID(), { paused: true }))).toMatchObject({ status: 404, message: 'Webhook not found.' });
  });
});
