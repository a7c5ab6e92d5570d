import type { WebhookTestResult } from '#shared/schemas/webhook';
import type { Db } from '../db/client.ts';
import { createTestDelivery } from '../db/queries/webhook-deliveries-queries.ts';
import type { CredentialsVault } from '../lib/credentials.ts';
import { openVault } from './endpoint-secrets.ts';
import { knownEndpoint } from './known-endpoint.ts';
import type { WebhookSender } from './sender.ts';

/**
 * "Send test" (POST /api/webhooks/{id}/test): a `webhook.test` event sent to the endpoint now,
 * whether or not it is paused, answered with what the endpoint said; logged like any attempt,
 * never tried again. 404 for no such endpoint, 503 without a credentials key to sign it.
 */
export async function sendTest(db: Db, vault: CredentialsVault, sender: WebhookSender, id: string): Promise<WebhookTestResult> {
  await knownEndpoint(db, id);
  openVault(vault);
  const now = new Date();
  const delivery = await createTestDelivery(db, id, now, sender.leaseSeconds);
  const result = await sender.deliver(db, delivery, now, { retry: false });
  return {
    delivered: result.delivered,
    http_status: result.httpStatus,
    duration_ms: result.durationMs,
    response_body: result.responseBody,
    error: result.error,
  };
}
