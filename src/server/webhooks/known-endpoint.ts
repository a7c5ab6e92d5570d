import type { WebhookEndpoint } from '#shared/schemas/webhook';
import type { Db } from '../db/client.ts';
import { getWebhookEndpoint } from '../db/queries/webhook-endpoints-queries.ts';
import { AppError } from '../lib/app-error.ts';

export const webhookNotFound = () => new AppError('not_found', 'Webhook not found.');

/** The endpoint `id`; 404 when there is none. */
export async function knownEndpoint(db: Db, id: string): Promise<WebhookEndpoint> {
  const endpoint = await getWebhookEndpoint(db, id);
  if (!endpoint) throw webhookNotFound();
  return endpoint;
}
