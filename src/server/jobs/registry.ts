import type { Logger } from 'pino';
import type { Config } from '../config.ts';
import type { Database, Db } from '../db/client.ts';
import { deleteExpiredBookingTokens } from '../db/queries/bookings-queries.ts';
import { deleteOldBookingHolds } from '../db/queries/booking-holds-queries.ts';
import { deleteOldPublicMailSpends } from '../db/queries/emails-queries.ts';
import { deleteExpiredFormTokenUses } from '../db/queries/form-token-uses-queries.ts';
import { deleteDismissedInbox } from '../db/queries/inbound-emails-queries.ts';
import { deleteExpiredRateLimits } from '../db/queries/rate-limits-queries.ts';
import { deleteExpiredSessions } from '../db/queries/sessions-queries.ts';
import { deleteStaleSignInIps } from '../db/queries/sign-in-ips-queries.ts';
import { deleteOldWebhookLog } from '../db/queries/webhook-deliveries-queries.ts';
import { forgetOldBookingNetworks } from '../db/queries/website-bookings-queries.ts';
import type { CredentialsVault } from '../lib/credentials.ts';
import type { MailOutbox } from '../mail/outbox.ts';
import type { MailReader } from '../conversations/reply-reader.ts';
import type { WebhookSender } from '../webhooks/sender.ts';
import * as job from './maintenance.ts';
import { startWorker, type Worker, type WorkerSpec } from './worker.ts';

/** What the background work of a process is handed (main.ts). */
export type BackgroundDeps = {
  config: Config;
  logger: Logger;
  /** Undefined until the database is ready, and again while the server stops: a run then does nothing. */
  database: () => Database | undefined;
  vault: () => CredentialsVault;
  /** True while the server is busy serving requests (lib/request-rate.ts). */
  busy: () => boolean;
  outbox: MailOutbox;
  webhooks: WebhookSender;
  /** Undefined when IMAP_URL is not set (replies are not read). */
  reader: MailReader | undefined;
};

const EMAIL_OUTBOX = 'email outbox';
const SECOND = 1_000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;

/** The email outbox's line of the table (the tests' app runs it off the clock). With email off, the tick records mail as not sent. */
export const outboxWorker = (outbox: MailOutbox, busy: () => boolean): WorkerSpec => ({
  name: EMAIL_OUTBOX,
  everyMs: 2 * SECOND,
  runOnce: (signal) => outbox.sendDue(signal),
  yieldWhenBusy: busy,
  busyPauseMs: 250,
  acceptsNudge: () => outbox.enabled,
  close: () => outbox.close(),
});

/**
 * Everything a server process runs in the background, every process alike: each line is a
 * worker (jobs/worker.ts), its clock, and whether it steps aside while visitors are served.
 * Two processes may run the same line at once: each run claims its rows, so every piece of
 * work is done once. `nudgeOutbox` reaches the outbox's worker, for the jobs that queue mail.
 */
export function backgroundWork(deps: BackgroundDeps, nudgeOutbox: () => void): WorkerSpec[] {
  const { config, outbox, webhooks, reader, busy } = deps;
  const context: job.JobContext = { config, logger: deps.logger, vault: deps.vault, nudgeOutbox };
  /** A run on the open database; nothing while there is none. */
  const onDatabase = (run: (db: Db) => Promise<unknown>) => async () => {
    const database = deps.database();
    if (database) await run(database.db);
  };
  /** One of maintenance.ts's jobs, on the open database. */
  const withContext = (run: (db: Db, context: job.JobContext) => Promise<unknown>) => onDatabase((db) => run(db, context));
  return [
    // Queued email out through SMTP_URL, a batch at a time; routes nudge it.
    outboxWorker(outbox, busy),
    // Webhook deliveries out, signed, each claimed by one process.
    { name: 'webhooks', everyMs: 1 * SECOND, runOnce: (signal) => webhooks.sendDue(signal), yieldWhenBusy: busy, busyPauseMs: 1 * SECOND },
    // The reply mailbox (IMAP_URL), read by whichever process holds its lease; nothing without IMAP_URL.
    ...(reader
      ? [
          {
            name: 'reply mailbox',
            everyMs: config.mail.imapPollSeconds * SECOND,
            runOnce: async (signal: AbortSignal) => {
              await reader.look(signal);
            },
          },
        ]
      : []),
    // Outside calendars due a read (each every 5 minutes).
    { name: 'calendar sync', everyMs: 30 * SECOND, runOnce: withContext(job.syncCalendars) },
    // Booked calls to copy into their hosts' CalDAV calendars.
    { name: 'calendar copies', everyMs: 5 * SECOND, runOnce: withContext(job.writeCalendarCopies) },
    // Appointment reminders for the admins (notifications).
    { name: 'appointment reminders', everyMs: 30 * SECOND, runOnce: withContext(job.sendAppointmentReminders) },
    // Tasks at their due time, told to their assignee.
    { name: 'follow-up notifications', everyMs: MINUTE, runOnce: withContext(job.notifyFollowUps) },
    // Monday's report of last week, to the admins who asked for it.
    { name: 'weekly report', everyMs: MINUTE, runOnce: withContext(job.queueWeeklyReport) },
    // The day's tasks each morning, to each person who asked.
    { name: 'morning task list', everyMs: MINUTE, runOnce: withContext(job.queueMorningTaskLists) },
    // The leads' own reminder emails before their call; nothing with LEAD_REMINDER_HOURS=0.
    ...(config.mail.leadReminderHours > 0
      ? [{ name: 'lead email reminders', everyMs: 30 * SECOND, runOnce: withContext(job.queueLeadEmailReminders) }]
      : []),
    // Every counter whose window has ended, so rate_limits holds only live windows.
    { name: 'rate limit cleanup', everyMs: 10 * MINUTE, runOnce: onDatabase(deleteExpiredRateLimits) },
    // The usual sign-in addresses not signed in from for USUAL_IP_DAYS.
    { name: 'usual sign-in IP cleanup', everyMs: HOUR, runOnce: onDatabase(deleteStaleSignInIps) },
    // Sessions past their end.
    { name: 'session cleanup', everyMs: HOUR, runOnce: onDatabase(deleteExpiredSessions) },
    // Booking links past their end.
    { name: 'booking link cleanup', everyMs: HOUR, runOnce: onDatabase(deleteExpiredBookingTokens) },
    // Inbox mail dismissed over 30 days ago, with its attachments.
    { name: 'dismissed Inbox mail cleanup', everyMs: HOUR, runOnce: onDatabase(deleteDismissedInbox) },
    // The visitor mail budget's records past 30 days (the longest of its rules).
    { name: 'visitor mail budget cleanup', everyMs: HOUR, runOnce: onDatabase(deleteOldPublicMailSpends) },
    // Held bookings nobody confirmed within their 30 minutes (and confirmed ones), a day later.
    { name: 'booking hold cleanup', everyMs: HOUR, runOnce: onDatabase(deleteOldBookingHolds) },
    // The uses of form tokens that have expired anyway (refused by their age).
    { name: 'used form token cleanup', everyMs: HOUR, runOnce: onDatabase(deleteExpiredFormTokenUses) },
    // The networks of website bookings whose calls are over 30 days past.
    { name: 'booking network retention', everyMs: HOUR, runOnce: onDatabase(forgetOldBookingNetworks) },
    // Analytics events past ANALYTICS_RETENTION_DAYS.
    { name: 'analytics retention', everyMs: HOUR, runOnce: withContext(job.deleteOldAnalytics) },
    // Audit log entries past AUDIT_RETENTION_DAYS.
    { name: 'audit log retention', everyMs: 24 * HOUR, runOnce: withContext(job.deleteOldAuditEntries) },
    // The webhook delivery log, kept 30 days (docs/webhooks.md).
    { name: 'webhook log retention', everyMs: HOUR, runOnce: onDatabase((db) => deleteOldWebhookLog(db, new Date())) },
  ];
}

/**
 * The table as a server process runs it: built when the server starts, so requests can nudge
 * the outbox (`outbox`, AppDeps), and started once the database is ready.
 */
export class BackgroundWork {
  private readonly workers = new Map<string, Worker>();
  /** Sends queued email now rather than at the next tick; before `start`, nothing (the first run sends it). */
  readonly outbox: Pick<Worker, 'nudge'> = { nudge: () => this.workers.get(EMAIL_OUTBOX)?.nudge() };

  constructor(private readonly deps: BackgroundDeps) {}

  start(): void {
    for (const spec of backgroundWork(this.deps, () => this.outbox.nudge()))
      this.workers.set(spec.name, startWorker(spec, this.deps.logger));
  }

  /** Stops every worker, each after its run in flight. */
  async stop(): Promise<void> {
    await Promise.all([...this.workers.values()].map((worker) => worker.stop()));
  }
}
