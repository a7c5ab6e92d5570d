import { randomUUID } from 'node:crypto';
import { ImapFlow } from 'imapflow';
import type { Logger } from 'pino';
import type { Config } from '../config.ts';
import type { Database } from '../db/client.ts';
import { databaseFault, describeError } from '../db/database-faults.ts';
import { appSecret } from '../db/queries/app-secrets-queries.ts';
import { queueMailOf, type QueueMail } from '../db/queries/emails-queries.ts';
import { advanceMailbox, claimMailbox, releaseMailbox, restartMailbox } from '../db/queries/inbound-emails-queries.ts';
import type { MailboxPlace } from '../db/queries/inbound-replies-queries.ts';
import { describeImap, type ImapSettings, type Mailbox } from '../lib/mail-settings.ts';
import { replyTokensIn } from './reply-token.ts';
import { storeReply } from './store-reply.ts';
import { oneLine, readInbound, storableDate, type InboundMessage } from './inbound-mail.ts';

export type ReaderOptions = {
  imap: ImapSettings;
  /** Certificates to trust besides the system's (IMAP_TLS_CA). */
  ca: string | undefined;
  /** Where replies are addressed (MAIL_REPLY_TO): its `+token` names the lead. */
  replyTo: Mailbox | undefined;
  /** Undefined while the server starts or stops: no look then. */
  database: () => Database | undefined;
  logger: Logger;
  /** Seconds the mailbox stays this process's to read after each message; another takes over once they pass. */
  leaseSeconds: number;
  /** How an owner's "Jane Doe replied" email is queued (email off: recorded not sent). */
  mail: QueueMail;
  /** The firm's mail host's authserv-id (IMAP_AUTHSERV_ID): only its Authentication-Results are believed. */
  authservId?: string | undefined;
  /** Days back the first look at a mailbox goes (IMAP_FIRST_DAYS). */
  firstDays: number;
  /** Messages read per look (the rest at the next). */
  batchSize?: number;
};

/** A message larger than this is not downloaded: a note in its place says to read it in the mailbox. */
export const MESSAGE_MAX_BYTES = 40 * 1024 * 1024;

/**
 * Reads the reply mailbox (IMAP_URL) every IMAP_POLL_SECONDS (a worker, jobs/registry.ts), in
 * every process: the first to claim the mailbox reads it (db/queries/inbound-emails-queries.ts),
 * fetching only UIDs past the last stored, and stores each message with its UID in one
 * transaction (conversations/store-reply.ts). The mailbox is opened read-only: nothing in it is
 * changed, moved or marked read, so a shared inbox stays as its people left it.
 */
export class MailReader {
  private readonly me = `${process.pid}-${randomUUID().slice(0, 8)}`;
  readonly key: string;
  /** The looks of `flush` (tests and the benchmark), which `stop` ends. */
  private readonly stopping = new AbortController();
  private flushing: Promise<number> | undefined;

  constructor(private readonly options: ReaderOptions) {
    this.key = describeImap(options.imap);
  }

  /**
   * One look (the worker's `runOnce`): how many messages it stored. A failure is logged and
   * stores none; the next look tries again. Stopping (`signal`) ends it after the message in hand.
   */
  async look(signal: AbortSignal): Promise<number> {
    try {
      return await this.read(signal);
    } catch (error) {
      this.options.logger.warn({ err: describeError(error), mailbox: this.key }, 'reading replies failed; trying again at the next look');
      return 0;
    }
  }

  /** One look now, after any look of flush's in flight; answers how many messages it stored (for tests and the benchmark). */
  async flush(): Promise<number> {
    while (this.flushing) await this.flushing;
    if (this.stopping.signal.aborted) return 0;
    this.flushing = this.look(this.stopping.signal).finally(() => {
      this.flushing = undefined;
    });
    return this.flushing;
  }

  async stop(): Promise<void> {
    this.stopping.abort();
    await this.flushing;
  }

  private async read(signal: AbortSignal): Promise<number> {
    const { imap, leaseSeconds } = this.options;
    const db = this.options.database()?.db;
    if (!db) return 0;
    const start = await claimMailbox(db, this.key, this.me, leaseSeconds);
    if (!start) return 0; // another process reads it now
    const client = new ImapFlow({
      host: imap.host,
      port: imap.port,
      secure: imap.secure,
      // imap:// is loopback only (config): nothing to protect there, and no certificate to check.
      doSTARTTLS: imap.secure ? undefined : false,
      auth: imap.auth,
      tls: this.options.ca ? { ca: this.options.ca } : {},
      logger: false,
      connectionTimeout: 15_000,
      greetingTimeout: 15_000,
      socketTimeout: 60_000,
    });
    let stored = 0;
    let failure: string | null = null;
    try {
      await client.connect();
      const box = await client.mailboxOpen(imap.mailbox, { readOnly: true });
      const uidvalidity = Number(box.uidValidity);
      const key = await appSecret(db, 'erased_senders');
      let from = start.last_uid;
      // A mailbox read for the first time (or rebuilt, a new UIDVALIDITY): only mail of the last
      // IMAP_FIRST_DAYS, so a shared inbox's years of mail are not imported (nor notified) whole.
      let since: Date | undefined;
      if (start.uidvalidity !== uidvalidity) {
        await restartMailbox(db, this.key, this.me, uidvalidity);
        from = 0;
        since = new Date(Date.now() - this.options.firstDays * 86_400_000);
      }
      const found = (await client.search(since ? { since } : { uid: `${from + 1}:*` }, { uid: true })) || [];
      const uids = found.filter((uid) => uid > from).sort((a, b) => a - b);
      for (const uid of uids.slice(0, this.options.batchSize ?? 200)) {
        if (signal.aborted) break;
        // Keep the mailbox ours for the next message, however long it takes to fetch and store.
        if (!(await claimMailbox(db, this.key, this.me, leaseSeconds))) break;
        const message = await this.fetch(client, uid);
        const result = await this.store(db, { mailbox: this.key, me: this.me, uidvalidity, uid }, message, key);
        if (result === 'not_ours') break; // our lease ran out and another process took over
        if (result !== 'duplicate') stored++;
      }
      // Nothing new past the first look's window: start there next time.
      if (since && uids.length === 0 && box.uidNext) await advanceMailbox(db, this.key, this.me, Number(box.uidNext) - 1);
    } catch (error) {
      failure = error instanceof Error ? oneLine(error.message, 300) : 'unknown error';
      throw error;
    } finally {
      await client.logout().catch(() => client.close());
      await releaseMailbox(db, this.key, this.me, failure).catch(() => undefined);
    }
    if (stored > 0) this.options.logger.info({ stored, mailbox: this.key }, 'replies read');
    return stored;
  }

  /**
   * Stores one message; one the database refuses as it came (a value it cannot hold) is stored
   * as a note of who sent it instead, so one odd message never stops the ones after it.
   */
  private async store(db: Database['db'], at: MailboxPlace, message: InboundMessage, key: Buffer) {
    const store = (m: InboundMessage) => storeReply(db, at, m, replyTokensIn(m.recipients, this.options.replyTo), key, this.options.mail);
    try {
      return await store(message);
    } catch (error) {
      if (databaseFault(error)) throw error; // the database is away: try again at the next look
      this.options.logger.warn({ err: describeError(error), uid: at.uid }, 'a reply could not be stored as it came; keeping a note of it');
      return store({
        ...message,
        to: '',
        cc: '',
        date: null,
        body: '[This message could not be stored as it came: read it in the mailbox.]',
        attachments: [],
      });
    }
  }

  /** The message with `uid`, as we keep it: a note in its place when it is too large or cannot be read. */
  private async fetch(client: ImapFlow, uid: number): Promise<InboundMessage> {
    const head = await client.fetchOne(String(uid), { uid: true, size: true, envelope: true, internalDate: true }, { uid: true });
    if (head === false) return note(undefined, 'This message was gone from the mailbox before it could be read.');
    if ((head.size ?? 0) > MESSAGE_MAX_BYTES)
      return note(
        head.envelope,
        `This message is larger than ${MESSAGE_MAX_BYTES / 1024 / 1024} MB and was not downloaded: read it in the mailbox.`,
      );
    const full = await client.fetchOne(String(uid), { uid: true, source: true }, { uid: true });
    if (full === false || !full.source) return note(head.envelope, 'This message was gone from the mailbox before it could be read.');
    try {
      return { ...(await readInbound(full.source, this.options.authservId)), receivedAt: storableDate(head.internalDate) };
    } catch (error) {
      return note(
        head.envelope,
        `This message could not be read (${error instanceof Error ? oneLine(error.message, 200) : 'unknown error'}): read it in the mailbox.`,
      );
    }
  }
}

type Envelope = { from?: { name?: string; address?: string }[]; subject?: string; date?: Date | string; messageId?: string } | undefined;

/** A message we keep only a note of: who sent it and when, and why there is no more. */
function note(envelope: Envelope, why: string): InboundMessage {
  const from = envelope?.from?.[0];
  return {
    messageId: envelope?.messageId ? oneLine(envelope.messageId, 500) : null,
    inReplyTo: null,
    answers: [],
    from: { name: oneLine(from?.name ?? '', 200), address: (from?.address ?? '').toLowerCase().slice(0, 254) },
    to: '',
    cc: '',
    recipients: [],
    subject: oneLine(envelope?.subject ?? '', 500),
    date: storableDate(envelope?.date),
    body: `[${why}]`,
    attachments: [],
    asksToStop: false,
    senderVerified: false,
  };
}

/** The reader of IMAP_URL's mailbox; undefined when IMAP_URL is not set (replies are not read). */
export function createReader(config: Config, database: () => Database | undefined, logger: Logger): MailReader | undefined {
  const { imap } = config.mail;
  if (!imap) return undefined;
  return new MailReader({
    imap,
    ca: config.mail.imapCa,
    replyTo: config.mail.replyTo,
    database,
    logger,
    leaseSeconds: config.mail.claimSeconds,
    mail: queueMailOf(config.mail),
    authservId: config.mail.imapAuthservId,
    firstDays: config.mail.imapFirstDays,
  });
}
