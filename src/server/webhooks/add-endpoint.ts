import { randomUUID } from 'node:crypto';
import { WEBHOOK_ENDPOINTS_MAX } from '#shared/constants';
import type { WebhookEndpointCreated } from '#shared/schemas/webhook';
import type { Config } from '../config.ts';
import type { Db } from '../db/client.ts';
import { countWebhookEndpoints, createWebhookEndpoint } from '../db/queries/webhook-endpoints-queries.ts';
import { webhookSecretContext } from '../db/sealed-secrets.ts';
import { AppError } from '../lib/app-error.ts';
import type { CredentialsVault } from '../lib/credentials.ts';
import { requireEndpointUrl } from './endpoint-url.ts';
import { openVault } from './endpoint-secrets.ts';
import { newWebhookSecret } from './webhook-signature.ts';

/**
 * An owner adds an endpoint (POST /api/webhooks): a URL it may point to (endpoint-url.ts), at
 * most WEBHOOK_ENDPOINTS_MAX of them (409), with a new signing secret stored sealed (503 without
 * a credentials key) and answered this once.
 */
export async function addEndpoint(
  db: Db,
  vault: CredentialsVault,
  allowHosts: Config['outboundAllowHosts'],
  endpoint: { url: string; events: string[]; createdBy: string },
): Promise<WebhookEndpointCreated> {
  requireEndpointUrl(endpoint.url, allowHosts);
  const open = openVault(vault);
  if ((await countWebhookEndpoints(db)) >= WEBHOOK_ENDPOINTS_MAX)
    throw new AppError('conflict', `A firm keeps at most ${WEBHOOK_ENDPOINTS_MAX} webhook endpoints: remove one first.`);
  const id = randomUUID();
  const secret = newWebhookSecret();
  const created = await createWebhookEndpoint(db, {
    id,
    url: endpoint.url,
    events: endpoint.events,
    sealedSecret: open.seal(secret, webhookSecretContext(id)),
    createdBy: endpoint.createdBy,
  });
  return { ...created, secret };
}
