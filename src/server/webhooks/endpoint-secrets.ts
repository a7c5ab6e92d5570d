import type { WebhookSecret } from '#shared/schemas/webhook';
import type { Db } from '../db/client.ts';
import { getSealedSecrets } from '../db/queries/webhook-endpoints-queries.ts';
import { webhookSecretContext } from '../db/sealed-secrets.ts';
import { AppError } from '../lib/app-error.ts';
import type { CredentialsVault } from '../lib/credentials.ts';
import { webhookNotFound } from './known-endpoint.ts';

/**
 * An endpoint's signing secrets are stored sealed with the credentials key (db/sealed-secrets.ts)
 * and opened only to sign a delivery or to show them to an owner.
 */

/** The vault, open: without a credentials key nothing can be sealed or opened (503, saying why). */
export function openVault(vault: CredentialsVault): Extract<CredentialsVault, { available: true }> {
  if (!vault.available) throw new AppError('service_unavailable', vault.reason);
  return vault;
}

/** The endpoint's secret, and the previous one while it still signs (24 hours after a rotation); 404 for no such endpoint. */
export async function endpointSecrets(db: Db, vault: CredentialsVault, id: string): Promise<WebhookSecret> {
  const open = openVault(vault);
  const sealed = await getSealedSecrets(db, id);
  if (!sealed) throw webhookNotFound();
  return {
    secret: open.open(sealed.secret, webhookSecretContext(id)),
    previous_secret: sealed.previous_secret ? open.open(sealed.previous_secret, webhookSecretContext(id)) : null,
    previous_secret_until: sealed.previous_secret_until,
  };
}
