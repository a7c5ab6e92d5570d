import type { WebhookEndpoint } from '#shared/schemas/webhook';
import type { Config } from '../config.ts';
import type { Db } from '../db/client.ts';
import { updateWebhookEndpoint } from '../db/queries/webhook-endpoints-queries.ts';
import { webhookSecretContext } from '../db/sealed-secrets.ts';
import type { CredentialsVault } from '../lib/credentials.ts';
import { requireEndpointUrl } from './endpoint-url.ts';
import { openVault } from './endpoint-secrets.ts';
import { knownEndpoint, webhookNotFound } from './known-endpoint.ts';
import { newWebhookSecret } from './webhook-signature.ts';

export type EndpointChangeRequest = { url?: string; events?: string[]; paused?: boolean; rotate_secret?: true };

/**
 * An owner changes an endpoint (PATCH /api/webhooks/{id}): only the fields sent. A new URL
 * obeys endpoint-url.ts; pausing stops its queue, resuming sends what waited and counts its
 * failures afresh; a rotation seals a new secret while the old one signs beside it for 24 hours
 * (503 without a credentials key). 404 for no such endpoint. Answers it before and after.
 */
export async function changeEndpoint(
  db: Db,
  vault: CredentialsVault,
  allowHosts: Config['outboundAllowHosts'],
  id: string,
  change: EndpointChangeRequest,
): Promise<{ before: WebhookEndpoint; saved: WebhookEndpoint; rotated: boolean }> {
  if (change.url !== undefined) requireEndpointUrl(change.url, allowHosts);
  const rotatedSecret = change.rotate_secret ? openVault(vault).seal(newWebhookSecret(), webhookSecretContext(id)) : undefined;
  const before = await knownEndpoint(db, id);
  const saved = await updateWebhookEndpoint(db, id, {
    ...(change.url !== undefined && { url: change.url }),
    ...(change.events !== undefined && { events: change.events }),
    ...(change.paused !== undefined && { paused: change.paused }),
    ...(rotatedSecret !== undefined && { rotatedSecret }),
  });
  if (!saved) throw webhookNotFound();
  return { before, saved, rotated: rotatedSecret !== undefined };
}
