import type { Logger } from 'pino';
import type { Config } from '../config.ts';
import type { Database } from '../db/client.ts';
import { describeError } from '../db/database-faults.ts';
import { deleteExpiredAnalyticsEvents } from '../db/queries/analytics-events.ts';
import { deleteExpiredAuditEntries } from '../db/queries/audit-log.ts';
import { deleteExpiredBookingTokens } from '../db/queries/bookings.ts';
import { deleteDismissedInbox } from '../db/queries/inbound-emails.ts';
import { deleteOldBookingHolds } from '../db/queries/booking-holds.ts';
import { deleteExpiredFormTokenUses } from '../db/queries/form-token-uses.ts';
import { forgetOldBookingNetworks } from '../db/queries/website-bookings.ts';
import { deleteExpiredRateLimits } from '../db/queries/rate-limits.ts';
import { appointmentMailOf, queueLeadReminders } from '../db/queries/appointments.ts';
import { sendDueReminders } from '../db/queries/reminders.ts';
import { notifyDueFollowUps } from '../db/queries/follow-ups.ts';
import { deleteOldPublicMailSpends, queueMailOf } from '../db/queries/emails.ts';
import { queueTaskDigests } from '../db/queries/task-digest.ts';
import { queueWeeklyReports } from '../db/queries/weekly-report.ts';
import type { MailOutbox } from '../mail/outbox.ts';
import { writeDueCopies } from '../calendars/calendar-copies.ts';
import { calendarAccess, syncDueCalendars } from '../calendars/sync.ts';
import { deleteExpiredSessions } from '../db/queries/sessions.ts';
import { deleteOldWebhookLog } from '../db/queries/webhook-deliveries.ts';
import { deleteStaleSignInIps } from '../db/queries/sign-in-ips.ts';

/** `run`, skipped while its previous call is still going (a slow calendar server outlasts a tick). */
function onceAtATime(run: () => Promise<void>): () => Promise<void> {
  let running = false;
  return async () => {
    if (running) return;
    running = true;
    try {
      await run();
    } finally {
      running = false;
    }
  };
}

type Job = { name: string; everyMs: number; run: () => Promise<unknown> };

/**
 * Periodic work: appointment reminders (notifications for the admins, email for the lead),
 * follow-up notifications, the weekly report email and housekeeping. Every job is one statement that claims its rows, so several processes
 * running them at once do each piece of work once. Returns a stop function.
 */
export function startJobs(database: Database, config: Config, logger: Logger, outbox: MailOutbox): () => void {
  const mail = appointmentMailOf(config);
  const jobs: Job[] = [
    {
      name: 'appointment reminders',
      everyMs: 30_000,
      run: async () => {
        const sent = await sendDueReminders(database.db, config.businessTimeZone, config.reminderMinutesBefore);
        if (sent > 0) logger.info({ event: 'reminders_sent', notifications: sent }, 'sent appointment reminders');
      },
    },
    {
      // A task at its due time (a next step set as a date: that day's start, business time zone):
      // its assignee, or every admin, is told once per due time.
      name: 'follow-up notifications',
      everyMs: 60_000,
      run: async () => {
        const sent = await notifyDueFollowUps(database.db);
        if (sent > 0) logger.info({ event: 'follow_ups_notified', notifications: sent }, 'sent follow-up notifications');
      },
    },
    {
      // Monday from 8:00 (business time zone): last week's report to each admin who asked for it, once a week whichever process runs it.
      name: 'weekly report',
      everyMs: 60_000,
      run: async () => {
        const queued = await queueWeeklyReports(database.db, {
          now: new Date(),
          timeZone: config.businessTimeZone,
          mail: queueMailOf(config.mail),
        });
        if (queued > 0) {
          logger.info({ event: 'weekly_reports_queued', emails: queued }, 'queued the weekly report');
          outbox.nudge();
        }
      },
    },
    {
      // Every morning from 7:00 (business time zone): the day's tasks to each person who asked, once a day whichever process runs it.
      name: 'morning task list',
      everyMs: 60_000,
      run: async () => {
        const queued = await queueTaskDigests(database.db, {
          now: new Date(),
          timeZone: config.businessTimeZone,
          mail: queueMailOf(config.mail),
        });
        if (queued > 0) {
          logger.info({ event: 'task_digests_queued', emails: queued }, 'queued the morning task lists');
          outbox.nudge();
        }
      },
    },
    ...(mail.leadReminderHours > 0
      ? [
          {
            name: 'lead email reminders',
            everyMs: 30_000,
            run: async () => {
              const queued = await queueLeadReminders(database.db, mail);
              if (queued > 0) {
                logger.info({ event: 'lead_reminders_queued', emails: queued }, 'queued appointment reminders for leads');
                outbox.nudge();
              }
            },
          },
        ]
      : []),
    {
      // Outside calendars due a read (every 5 minutes each), whichever process claims them first.
      name: 'calendar sync',
      everyMs: 30_000,
      run: onceAtATime(async () => {
        const read = await syncDueCalendars(calendarAccess(database.db, config, logger));
        if (read > 0) logger.debug({ event: 'calendars_synced', calendars: read }, 'synced outside calendars');
      }),
    },
    {
      // Booked calls to copy into their hosts' CalDAV calendars (queued by the appointments' triggers), each by one process.
      name: 'calendar copies',
      everyMs: 5_000,
      run: onceAtATime(async () => {
        const written = await writeDueCopies(calendarAccess(database.db, config, logger));
        if (written > 0) logger.debug({ event: 'calendar_copies_written', copies: written }, 'wrote booked calls to calendars');
      }),
    },
    // Every counter whose window has ended, so rate_limits holds only live windows.
    { name: 'rate limit cleanup', everyMs: 10 * 60_000, run: () => deleteExpiredRateLimits(database.db) },
    { name: 'usual sign-in IP cleanup', everyMs: 60 * 60_000, run: () => deleteStaleSignInIps(database.db) },
    { name: 'session cleanup', everyMs: 60 * 60_000, run: () => deleteExpiredSessions(database.db) },
    { name: 'booking link cleanup', everyMs: 60 * 60_000, run: () => deleteExpiredBookingTokens(database.db) },
    { name: 'dismissed Inbox mail cleanup', everyMs: 60 * 60_000, run: () => deleteDismissedInbox(database.db) },
    // The visitor mail budget's records past 30 days (the longest of its rules).
    { name: 'visitor mail budget cleanup', everyMs: 60 * 60_000, run: () => deleteOldPublicMailSpends(database.db) },

    // Held bookings nobody confirmed within their 30 minutes (and confirmed ones), a day later.
    { name: 'booking hold cleanup', everyMs: 60 * 60_000, run: () => deleteOldBookingHolds(database.db) },
    { name: 'used form token cleanup', everyMs: 60 * 60_000, run: () => deleteExpiredFormTokenUses(database.db) },
    { name: 'booking network retention', everyMs: 60 * 60_000, run: () => forgetOldBookingNetworks(database.db) },
    {
      name: 'analytics retention',
      everyMs: 60 * 60_000,
      run: async () => {
        const deleted = await deleteExpiredAnalyticsEvents(database.db, config.analyticsRetentionDays);
        if (deleted > 0)
          logger.info(
            { event: 'analytics_events_deleted', events: deleted, days: config.analyticsRetentionDays },
            'deleted old analytics events',
          );
      },
    },
    {
      // Entries past AUDIT_RETENTION_DAYS; a delete by age is the same whichever process runs it, or both.
      name: 'audit log retention',
      everyMs: 24 * 60 * 60_000,
      run: async () => {
        const deleted = await deleteExpiredAuditEntries(database.db, config.auditRetentionDays);
        if (deleted > 0)
          logger.info(
            { event: 'audit_entries_deleted', entries: deleted, days: config.auditRetentionDays },
            'deleted old audit log entries',
          );
      },
    },
    {
      // The webhook delivery log is kept 30 days (docs/webhooks.md).
      name: 'webhook log retention',
      everyMs: 60 * 60_000,
      run: () => deleteOldWebhookLog(database.db, new Date()),
    },
  ];
  const timers = jobs.map((job) => {
    const tick = () => job.run().catch((err: unknown) => logger.warn({ ...describeError(err), job: job.name }, 'job failed'));
    void tick();
    const timer = setInterval(tick, job.everyMs);
    timer.unref();
    return timer;
  });
  return () => timers.forEach(clearInterval);
}
