import type { Logger } from 'pino';
import type { Database } from '../db/client.ts';
import {
  claimDueEmails,
  EMAIL_OFF_REASON,
  markDueEmailsNotSent,
  markEmailFailed,
  markEmailSent,
  releaseEmails,
  retryEmailLater,
  type OutgoingEmail,
} from '../db/queries/emails-queries.ts';
import type { Mailbox } from '../lib/mail-settings.ts';
import { composeEmail } from './messages.ts';
import { EmailDataError, type MailContext } from './templates/render.ts';
import type { MailTransport } from './transport.ts';

/**
 * Sends the outbox. Each app process runs one, as a worker (jobs/registry.ts) that a request
 * nudges when it has queued mail: a batch claims due messages (a lease, `for update skip
 * locked`, so two processes never take the same one), sends them one by one and records the
 * outcome:
 * - sent;
 * - refused for good by the server (5xx): failed, with the server's reply;
 * - refused for now (4xx): tried again with exponential backoff, 1 minute doubling to an
 *   hour, until the message is a day old (`retry_until`), then failed;
 * - the server cannot be reached, or refuses our credentials: nothing is counted against the
 *   message; the outbox pauses `unreachableRetryMs` and tries again, so a server back after
 *   an outage gets the whole queue within seconds.
 * A message is marked sent only after the server accepted it; a process killed between the
 * two leaves it claimed, and it is sent again when the lease ends, with the same Message-ID.
 * While the server is busy with requests, its worker pauses between batches: mail can wait a
 * moment, a visitor's form should not; the backlog goes out at full speed once it is quiet.
 */
const GIVE_UP = 'Gave up after trying for 24 hours';

export type OutboxOptions = {
  database: () => Database | undefined;
  /** Undefined: email is off; messages are queued as not sent, and any left queued from before are marked so. */
  transport: MailTransport | undefined;
  /** What every email says about the firm and where its links go: read once per batch, so a saved brand shows in the next one. */
  context: (database: Database) => Promise<MailContext>;
  from: Mailbox;
  replyTo: Mailbox | undefined;
  logger: Logger;
  batchSize?: number;
  leaseSeconds?: number;
  unreachableRetryMs?: number;
};

type SendError = Error & { code?: string; responseCode?: number; response?: string; permanent?: boolean };

/** Backoff after a message's nth refused try: 1 minute doubling, at most an hour, ±10%. */
export function retryDelaySeconds(attempt: number, random = Math.random): number {
  const base = Math.min(60 * 2 ** Math.max(0, attempt - 1), 3600);
  return Math.round(base * (0.9 + random() * 0.2));
}

/** How a failed send is treated: see the class comment. */
export function classifySendError(err: SendError): 'refused' | 'deferred' | 'unreachable' {
  if (err.code === 'EAUTH') return 'unreachable'; // our credentials: every message would fail alike
  if (err.permanent === true) return 'refused';
  if (typeof err.responseCode === 'number') return 'deferred';
  return 'unreachable';
}

const describe = (err: SendError) => (err.response ?? err.message).replace(/\s+/g, ' ').trim();

export class MailOutbox {
  private readonly batchSize: number;
  private readonly leaseSeconds: number;
  private readonly unreachableRetryMs: number;
  /** Until when the mail server is left alone after it could not be reached. */
  private pausedUntil = 0;

  constructor(private readonly options: OutboxOptions) {
    this.batchSize = options.batchSize ?? 10;
    this.leaseSeconds = options.leaseSeconds ?? 30;
    this.unreachableRetryMs = options.unreachableRetryMs ?? 10_000;
  }

  get enabled(): boolean {
    return this.options.transport !== undefined;
  }

  /**
   * One batch of what is due (the worker's `runOnce`); true when it was full, so more may be.
   * Nothing while the mail server is left alone after it could not be reached. Stopping
   * (`signal`) hands the batch's unsent messages back at once.
   */
  async sendDue(signal: AbortSignal): Promise<boolean> {
    if (Date.now() < this.pausedUntil) return false;
    return this.runBatch(signal);
  }

  /** Closes the connections to the mail server (once its worker has stopped). */
  close(): void {
    this.options.transport?.close();
  }

  /** One batch; true when it was full (more may be due). */
  private async runBatch(signal: AbortSignal): Promise<boolean> {
    const database = this.options.database();
    if (!database) return false;
    const { transport } = this.options;
    if (!transport) {
      await markDueEmailsNotSent(database.db, EMAIL_OFF_REASON);
      return false;
    }
    const batch = await claimDueEmails(database.db, this.batchSize, this.leaseSeconds);
    if (batch.length === 0) return false;
    const batchContext = await this.options.context(database);
    const deadline = Date.now() + (this.leaseSeconds * 1000) / 2;
    for (let i = 0; i < batch.length; i++) {
      if (signal.aborted || Date.now() > deadline) {
        await releaseEmails(
          database.db,
          batch.slice(i).map((m) => m.id),
        );
        return false;
      }
      const outcome = await this.sendOne(database, transport, batch[i]!, batchContext);
      if (outcome === 'unreachable') {
        await releaseEmails(
          database.db,
          batch.slice(i + 1).map((m) => m.id),
        );
        this.pausedUntil = Date.now() + this.unreachableRetryMs;
        return false;
      }
    }
    return batch.length === this.batchSize;
  }

  private async sendOne(
    database: Database,
    transport: MailTransport,
    email: OutgoingEmail,
    context: MailContext,
  ): Promise<'sent' | 'failed' | 'unreachable'> {
    const { db } = database;
    let composed;
    try {
      composed = composeEmail(email.kind, email.data, context);
    } catch (err) {
      if (!(err instanceof EmailDataError)) throw err;
      await markEmailFailed(db, email.id, err.message, false);
      return 'failed';
    }
    try {
      const { fromName, replyTo, ...message } = composed;
      await transport.send({
        ...message,
        messageId: email.message_id,
        to: { name: email.to_name ?? '', address: email.to_address },
        from: fromName ? { name: fromName, address: this.options.from.address } : this.options.from,
        replyTo: replyTo ?? this.options.replyTo,
      });
    } catch (caught) {
      const err = caught as SendError;
      const kind = classifySendError(err);
      const reason = describe(err);
      const expired = Date.parse(email.retry_until) <= Date.now();
      this.options.logger.warn({ event: 'email_not_sent', emailId: email.id, kind, reason }, 'an email was not sent');
      if (kind === 'refused') await markEmailFailed(db, email.id, reason, true);
      else if (expired) await markEmailFailed(db, email.id, `${GIVE_UP}: ${reason}`, kind === 'deferred');
      else if (kind === 'deferred') await retryEmailLater(db, email.id, retryDelaySeconds(email.attempts + 1), reason, true);
      else await retryEmailLater(db, email.id, this.unreachableRetryMs / 1000, reason, false);
      return kind === 'unreachable' && !expired ? 'unreachable' : 'failed';
    }
    await markEmailSent(db, email.id);
    return 'sent';
  }
}
