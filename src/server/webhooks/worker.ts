import type { Logger } from 'pino';
import type { Config } from '../config.ts';
import type { Database } from '../db/client.ts';
import type { Db } from '../db/client.ts';
import { describeError } from '../db/database-faults.ts';
import {
  cancelDelivery,
  claimDueDeliveries,
  freezePayload,
  notifyEndpointPaused,
  recordDelivered,
  recordFailed,
  releaseDeliveries,
  type AttemptOutcome,
  type ClaimedDelivery,
} from '../db/queries/webhook-deliveries.ts';
import { getSealedSecrets } from '../db/queries/webhook-endpoints.ts';
import { webhookSecretContext } from '../db/sealed-secrets.ts';
import { loadCredentialsVault, type CredentialsVault } from '../lib/credentials.ts';
import { guardedFetch } from '../outbound/guarded-fetch.ts';
import { OutboundError } from '../outbound/outbound-error.ts';
import { buildPayload } from './payload.ts';
import { webhookHeaders } from './signature.ts';

/**
 * Sends the webhook outbox, as the email outbox sends mail: every app process runs one; it
 * wakes every `pollMs`, claims due deliveries (a lease, `for update skip locked`), posts each
 * signed (Standard Webhooks) through the guarded fetcher and records the attempt. 2xx is
 * delivered; anything else is tried again with exponential backoff and jitter, for 3 days from
 * the delivery's creation, then failed. An endpoint failing for 3 days, or answering 410 Gone,
 * is paused and its creator (or the owners) notified. A process killed mid-delivery leaves its
 * lease to run out; the delivery is then sent again (at least once), with the same webhook-id.
 * An object's events reach an endpoint in order: the claim skips an event while an earlier one
 * of the same object to that endpoint is pending (db/queries/webhook-deliveries.ts).
 */

export const GIVE_UP_SECONDS = 3 * 86_400;
export const TIMEOUT_MS = 5_000;
/** The body excerpt the log keeps. */
export const LOGGED_BODY_BYTES = 1024;

/** Backoff after the nth failed attempt: 30 s doubling to 6 hours, with full jitter on its upper half. */
export function retryDelaySeconds(attempt: number, random = Math.random): number {
  const base = Math.min(30 * 2 ** Math.max(0, attempt - 1), 6 * 3600);
  return Math.round(base * (0.5 + random() * 0.5));
}

export type WebhookWorkerOptions = {
  database: () => Database | undefined;
  config: Pick<Config, 'outboundAllowHosts' | 'credentialsKey' | 'credentialsKeyPrevious' | 'dataDir' | 'databaseUrl'> &
    Partial<Pick<Config, 'webhookLeaseSeconds'>>;
  logger: Logger;
  pollMs?: number;
  batchSize?: number;
  /** Deliveries sent at once within a batch (to different objects or endpoints). */
  concurrency?: number;
  /** Default: the config's WEBHOOK_LEASE_SECONDS (60). */
  leaseSeconds?: number;
  /** Each POST, answer included (5 s). */
  timeoutMs?: number;
  /** Tests answer name lookups themselves. */
  lookupAddresses?: (name: string) => Promise<string[]>;
};

export type SendResult = {
  delivered: boolean;
  httpStatus: number | null;
  durationMs: number;
  responseBody: string | null;
  error: string | null;
};

export class WebhookWorker {
  private readonly pollMs: number;
  private readonly batchSize: number;
  private readonly concurrency: number;
  readonly leaseSeconds: number;
  readonly vault: CredentialsVault;
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  private again = false;
  private stopped = false;

  constructor(private readonly options: WebhookWorkerOptions) {
    this.pollMs = options.pollMs ?? 1000;
    this.batchSize = options.batchSize ?? 50;
    this.concurrency = options.concurrency ?? 8;
    this.leaseSeconds = options.leaseSeconds ?? options.config.webhookLeaseSeconds ?? 60;
    this.vault = loadCredentialsVault(options.config);
  }

  start(): void {
    this.timer = setInterval(() => this.run(), this.pollMs);
    this.timer.unref();
    this.run();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearInterval(this.timer);
    await this.running;
  }

  private run(): void {
    if (this.stopped) return;
    if (this.running) {
      this.again = true;
      return;
    }
    this.running = this.drain().finally(() => {
      this.running = undefined;
    });
  }

  private async drain(): Promise<void> {
    try {
      do {
        this.again = false;
        const database = this.options.database();
        if (!database) return;
        if ((await this.runOnce(new Date())) === this.batchSize) this.again = true;
        if (this.again) await new Promise((r) => setImmediate(r));
      } while (this.again && !this.stopped);
    } catch (err) {
      this.options.logger.warn(describeError(err), 'webhooks: a batch failed; it is tried again shortly');
    }
  }

  /** One batch due at `now` (tests pass their own time); how many deliveries it claimed. */
  async runOnce(now: Date = new Date()): Promise<number> {
    const database = this.options.database();
    if (!database) return 0;
    const batch = await claimDueDeliveries(database.db, now, this.batchSize, this.leaseSeconds);
    let next = 0;
    const workers = Array.from({ length: Math.min(this.concurrency, batch.length) }, async () => {
      while (next < batch.length) {
        const delivery = batch[next++]!;
        if (this.stopped) {
          await releaseDeliveries(database.db, [delivery.id]);
          continue;
        }
        await this.deliver(database.db, delivery, now);
      }
    });
    await Promise.all(workers);
    return batch.length;
  }

  /** Sends one claimed delivery and records the outcome; `retry: false` fails it at once (Send test). */
  async deliver(db: Db, delivery: ClaimedDelivery, now: Date, { retry = true } = {}): Promise<SendResult> {
    const payload = delivery.erased
      ? undefined
      : (delivery.payload ?? (await freezePayload(db, delivery.event_id, await buildPayload(db, delivery))));
    if (payload === undefined) {
      await cancelDelivery(db, delivery.id, 'The lead was erased', now);
      return { delivered: false, httpStatus: null, durationMs: 0, responseBody: null, error: 'The lead was erased' };
    }
    const result = await this.post(db, delivery, payload, now);
    const outcome: AttemptOutcome = { deliveryId: delivery.id, endpointId: delivery.endpoint_id, at: now, ...result };
    if (result.delivered) {
      await recordDelivered(db, outcome);
      return result;
    }
    const age = (now.getTime() - Date.parse(delivery.created_at)) / 1000;
    const retryAt = retry && age < GIVE_UP_SECONDS ? new Date(now.getTime() + retryDelaySeconds(delivery.attempts + 1) * 1000) : null;
    const gone = result.httpStatus === 410;
    const { paused } = await recordFailed(db, outcome, retryAt, {
      afterSeconds: GIVE_UP_SECONDS,
      now: gone,
      reason: gone ? 'The endpoint answered 410 Gone' : 'Every delivery failed for 3 days',
    });
    if (paused) {
      const host = new URL(paused.url).host;
      await notifyEndpointPaused(
        db,
        paused.createdBy,
        gone ? `Webhook to ${host} paused: it answered 410 Gone` : `Webhook to ${host} paused: it failed for 3 days`,
      );
      this.options.logger.warn({ event: 'webhook_paused', endpointId: delivery.endpoint_id, host }, 'a webhook endpoint was paused');
    }
    return result;
  }

  private async post(db: Db, delivery: ClaimedDelivery, payload: string, now: Date): Promise<SendResult> {
    const started = performance.now();
    const elapsed = () => Math.round(performance.now() - started);
    try {
      if (!this.vault.available) throw new OutboundError('bad_url', this.vault.reason);
      const sealed = await getSealedSecrets(db, delivery.endpoint_id, now);
      if (!sealed) throw new OutboundError('bad_url', 'The endpoint was removed.');
      const context = webhookSecretContext(delivery.endpoint_id);
      const secrets = [this.vault.open(sealed.secret, context)];
      if (sealed.previous_secret) secrets.push(this.vault.open(sealed.previous_secret, context));
      const answer = await guardedFetch(delivery.url, {
        method: 'POST',
        headers: {
          ...webhookHeaders(secrets, delivery.event_id, Math.floor(now.getTime() / 1000), payload),
          'user-agent': 'crm-webhooks/1',
        },
        body: payload,
        allowHosts: this.options.config.outboundAllowHosts,
        timeoutMs: this.options.timeoutMs ?? TIMEOUT_MS,
        connectTimeoutMs: this.options.timeoutMs ?? TIMEOUT_MS,
        maxBodyBytes: LOGGED_BODY_BYTES,
        truncateBody: true,
        // A redirect is an answer like any other non-2xx: a receiver that moved says so in the log.
        maxRedirects: 0,
        ...(this.options.lookupAddresses && { lookupAddresses: this.options.lookupAddresses }),
      });
      const delivered = answer.status >= 200 && answer.status < 300;
      return {
        delivered,
        httpStatus: answer.status,
        durationMs: elapsed(),
        responseBody: answer.body.length === 0 ? null : answer.text().replaceAll('\u0000', ''),
        error: delivered ? null : `HTTP ${answer.status}`,
      };
    } catch (error) {
      if (!(error instanceof Error)) throw error;
      const known = error instanceof OutboundError || error.name === 'SealedSecretError';
      if (!known) throw error;
      return { delivered: false, httpStatus: null, durationMs: elapsed(), responseBody: null, error: error.message };
    }
  }
}

const workers = new WeakMap<object, WebhookWorker>();
/** One worker per app process (its config), shared by main.ts and the Send test route. */
export function webhookWorkerOf(options: WebhookWorkerOptions): WebhookWorker {
  let worker = workers.get(options.config);
  if (!worker) {
    worker = new WebhookWorker(options);
    workers.set(options.config, worker);
  }
  return worker;
}
