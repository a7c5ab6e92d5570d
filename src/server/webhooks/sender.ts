import type { Logger } from 'pino';
import type { Config } from '../config.ts';
import type { Database } from '../db/client.ts';
import type { Db } from '../db/client.ts';
import {
  cancelDelivery,
  claimDueDeliveries,
  freezePayloads,
  recordDelivered,
  releaseDeliveries,
  routeWebhookEvents,
  type AttemptOutcome,
  type ClaimedDelivery,
} from '../db/queries/webhook-deliveries-queries.ts';
import { getSealedSecretsOf } from '../db/queries/webhook-endpoints-queries.ts';
import { webhookSecretContext } from '../db/sealed-secrets.ts';
import type { CredentialsVault } from '../lib/credentials.ts';
import { GroupCommit } from '../lib/group-commit.ts';
import { guardedFetch } from '../outbound/guarded-fetch.ts';
import { OutboundError } from '../outbound/outbound-error.ts';
import { buildPayloads } from './payload.ts';
import { recordFailure } from './pausing.ts';
import { nextAttemptAt } from './retry.ts';
import { webhookHeaders } from './webhook-signature.ts';

/**
 * Sends the webhook outbox, as the email outbox sends mail: every app process runs one, as a
 * worker (jobs/registry.ts); a batch claims due deliveries (a lease, `for update skip locked`), posts each
 * signed (Standard Webhooks) through the guarded fetcher and records the attempt. 2xx is
 * delivered; anything else is tried again with exponential backoff and jitter, for 3 days from
 * the delivery's creation, then failed (retry.ts). An endpoint failing for 3 days, or answering
 * 410 Gone, is paused and its creator (or the owners) notified (pausing.ts). The payload is
 * built at an event's first attempt and frozen (payload.ts). A process killed mid-delivery leaves its
 * lease to run out; the delivery is then sent again (at least once), with the same webhook-id.
 * An object's events reach an endpoint in order: the claim skips an event while an earlier one
 * of the same object to that endpoint is pending (db/queries/webhook-deliveries-queries.ts).
 * A batch reads its payloads and secrets together and records its successes in group commits.
 * While the server is busy with requests, its worker pauses between batches, as the email
 * outbox's does: receivers can wait a moment, a visitor's form should not.
 */

export const TIMEOUT_MS = 5_000;
/** The body excerpt the log keeps. */
export const LOGGED_BODY_BYTES = 1024;

export type WebhookSenderOptions = {
  database: () => Database | undefined;
  config: Pick<Config, 'outboundAllowHosts'> & Partial<Pick<Config, 'webhookLeaseSeconds'>>;
  /** The process's credentials vault (loaded once, in main.ts), which opens the endpoints' signing secrets. */
  vault: () => CredentialsVault;
  logger: Logger;
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

export class WebhookSender {
  private readonly batchSize: number;
  private readonly concurrency: number;
  readonly leaseSeconds: number;
  /** How many events the last batch routed. */
  private routedLast = 0;

  constructor(private readonly options: WebhookSenderOptions) {
    this.batchSize = options.batchSize ?? 50;
    this.concurrency = options.concurrency ?? 8;
    this.leaseSeconds = options.leaseSeconds ?? options.config.webhookLeaseSeconds ?? 60;
  }

  /**
   * One batch due now (the worker's `runOnce`); true when more may be due: a full batch sent,
   * or a full batch of events routed (some of which may have had no endpoint left to go to).
   */
  async sendDue(signal?: AbortSignal): Promise<boolean> {
    const sent = await this.runOnce(new Date(), signal);
    return sent === this.batchSize || this.routedLast === this.batchSize;
  }

  /** One batch due at `now` (tests pass their own time); how many deliveries it claimed. Stopping (`signal`) hands back what is not yet sent. */
  async runOnce(now: Date = new Date(), signal?: AbortSignal): Promise<number> {
    this.routedLast = 0;
    const database = this.options.database();
    if (!database) return 0;
    const db = database.db;
    // Routed as fast as they are sent, no faster: while the server is busy, the events wait as
    // recorded (one row each) rather than being given deliveries nobody sends yet.
    this.routedLast = await routeWebhookEvents(db, this.batchSize);
    const batch = await claimDueDeliveries(db, now, this.batchSize, this.leaseSeconds);
    if (batch.length === 0) return 0;
    const prepared = await this.prepare(db, batch, now);
    // Successes are recorded as they come, those arriving together in one statement (one write
    // at a time), so a kill -9 re-sends little more than the requests in flight.
    const recorder = new GroupCommit((outcomes: AttemptOutcome[]) => recordDelivered(db, outcomes), {
      maxBatch: this.batchSize,
      maxWaitMs: 0,
      maxInFlight: 1,
      isolates: () => false,
    });
    const record = (outcome: AttemptOutcome) => recorder.add(outcome);
    let next = 0;
    const workers = Array.from({ length: Math.min(this.concurrency, batch.length) }, async () => {
      while (next < batch.length) {
        const delivery = batch[next++]!;
        if (signal?.aborted) {
          await releaseDeliveries(db, [delivery.id]);
          continue;
        }
        await this.send(db, delivery, prepared, now, { retry: true, record });
      }
    });
    await Promise.all(workers);
    return batch.length;
  }

  /** Sends one claimed delivery and records the outcome; `retry: false` fails it at once (Send test). */
  async deliver(db: Db, delivery: ClaimedDelivery, now: Date, { retry = true } = {}): Promise<SendResult> {
    const prepared = await this.prepare(db, [delivery], now);
    return this.send(db, delivery, prepared, now, { retry, record: (outcome) => recordDelivered(db, [outcome]) });
  }

  /**
   * What a batch's requests need from the database, read together: each event's payload (built
   * and frozen at its first attempt; undefined once erased) and each endpoint's signing secrets.
   */
  private async prepare(db: Db, batch: readonly ClaimedDelivery[], now: Date): Promise<PreparedBatch> {
    const unfrozen = new Map(batch.filter((d) => !d.erased && d.payload === null).map((d) => [d.event_id, d]));
    const frozen = await freezePayloads(db, await buildPayloads(db, [...unfrozen.values()]));
    const payloads = new Map(batch.map((d) => [d.event_id, d.erased ? undefined : (d.payload ?? frozen.get(d.event_id))] as const));
    const secrets = new Map<string, string[] | Error>();
    const vault = this.options.vault();
    if (!vault.available) return { payloads, secrets };
    const sealed = await getSealedSecretsOf(db, [...new Set(batch.map((d) => d.endpoint_id))], now);
    for (const [endpointId, { secret, previous_secret }] of sealed) {
      const context = webhookSecretContext(endpointId);
      try {
        secrets.set(
          endpointId,
          [secret, ...(previous_secret ? [previous_secret] : [])].map((s) => vault.open(s, context)),
        );
      } catch (error) {
        if (!(error instanceof Error) || error.name !== 'SealedSecretError') throw error;
        secrets.set(endpointId, error);
      }
    }
    return { payloads, secrets };
  }

  private async send(
    db: Db,
    delivery: ClaimedDelivery,
    prepared: PreparedBatch,
    now: Date,
    { retry, record }: { retry: boolean; record: (outcome: AttemptOutcome) => Promise<void> },
  ): Promise<SendResult> {
    const payload = prepared.payloads.get(delivery.event_id);
    if (payload === undefined) {
      await cancelDelivery(db, delivery.id, 'The lead was erased', now);
      return { delivered: false, httpStatus: null, durationMs: 0, responseBody: null, error: 'The lead was erased' };
    }
    const result = await this.post(delivery, payload, prepared.secrets.get(delivery.endpoint_id), now);
    const outcome: AttemptOutcome = { deliveryId: delivery.id, endpointId: delivery.endpoint_id, at: now, ...result };
    if (result.delivered) {
      await record(outcome);
      return result;
    }
    await recordFailure(db, outcome, nextAttemptAt(delivery, now, retry), this.options.logger);
    return result;
  }

  /** `secrets`: the endpoint's, opened; an Error when they do not open; undefined when the endpoint is gone or the vault is unset. */
  private async post(delivery: ClaimedDelivery, payload: string, secrets: string[] | Error | undefined, now: Date): Promise<SendResult> {
    const started = performance.now();
    const elapsed = () => Math.round(performance.now() - started);
    try {
      const vault = this.options.vault();
      if (!vault.available) throw new OutboundError('bad_url', vault.reason);
      if (secrets === undefined) throw new OutboundError('bad_url', 'The endpoint was removed.');
      if (secrets instanceof Error) throw secrets;
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

type PreparedBatch = { payloads: Map<string, string | undefined>; secrets: Map<string, string[] | Error> };
