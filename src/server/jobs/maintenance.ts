import type { Logger } from 'pino';
import type { Config } from '../config.ts';
import type { Db } from '../db/client.ts';
import { deleteExpiredAnalyticsEvents } from '../db/queries/analytics-events-queries.ts';
import { deleteExpiredAuditEntries } from '../db/queries/audit-log-queries.ts';
import { appointmentMailOf, queueLeadReminders } from '../db/queries/appointments-queries.ts';
import { sendDueReminders } from '../db/queries/reminders-queries.ts';
import { notifyDueFollowUps } from '../db/queries/follow-ups-queries.ts';
import { queueMailOf } from '../db/queries/emails-queries.ts';
import { queueTaskDigests } from '../db/queries/task-digest-queries.ts';
import { queueWeeklyReports } from '../db/queries/weekly-report-queries.ts';
import type { CredentialsVault } from '../lib/credentials.ts';
import { calendarAccess } from '../calendars/calendar-access.ts';
import { writeDueCopies } from '../calendars/calendar-copies.ts';
import { syncDueCalendars } from '../calendars/sync.ts';

/**
 * What the periodic jobs do, each a run of one worker (jobs/registry.ts says how often):
 * appointment reminders (notifications for the admins, email for the lead), follow-up
 * notifications, the weekly report and morning task list emails, the outside calendars, and
 * what the log says of them. Every job is one statement that claims its rows, so several
 * processes running them at once do each piece of work once. Housekeeping deletes are called
 * straight from the table.
 */
export type JobContext = {
  config: Config;
  logger: Logger;
  /** The process's credentials vault (main.ts), which opens the calendars' secrets. */
  vault: () => CredentialsVault;
  /** Sends queued email now rather than at the outbox's next tick. */
  nudgeOutbox: () => void;
};

export async function sendAppointmentReminders(db: Db, { config, logger }: JobContext): Promise<void> {
  const sent = await sendDueReminders(db, config.businessTimeZone, config.reminderMinutesBefore);
  if (sent > 0) logger.info({ event: 'reminders_sent', notifications: sent }, 'sent appointment reminders');
}

/** A task at its due time (a next step set as a date: that day's start, business time zone): its assignee, or every admin, is told once per due time. */
export async function notifyFollowUps(db: Db, { logger }: JobContext): Promise<void> {
  const sent = await notifyDueFollowUps(db);
  if (sent > 0) logger.info({ event: 'follow_ups_notified', notifications: sent }, 'sent follow-up notifications');
}

/** Monday from 8:00 (business time zone): last week's report to each admin who asked for it, once a week whichever process runs it. */
export async function queueWeeklyReport(db: Db, { config, logger, nudgeOutbox }: JobContext): Promise<void> {
  const queued = await queueWeeklyReports(db, { now: new Date(), timeZone: config.businessTimeZone, mail: queueMailOf(config.mail) });
  if (queued > 0) {
    logger.info({ event: 'weekly_reports_queued', emails: queued }, 'queued the weekly report');
    nudgeOutbox();
  }
}

/** Every morning from 7:00 (business time zone): the day's tasks to each person who asked, once a day whichever process runs it. */
export async function queueMorningTaskLists(db: Db, { config, logger, nudgeOutbox }: JobContext): Promise<void> {
  const queued = await queueTaskDigests(db, { now: new Date(), timeZone: config.businessTimeZone, mail: queueMailOf(config.mail) });
  if (queued > 0) {
    logger.info({ event: 'task_digests_queued', emails: queued }, 'queued the morning task lists');
    nudgeOutbox();
  }
}

/** The leads' own reminder emails, LEAD_REMINDER_HOURS before their call (the registry leaves it out when that is 0). */
export async function queueLeadEmailReminders(db: Db, { config, logger, nudgeOutbox }: JobContext): Promise<void> {
  const queued = await queueLeadReminders(db, appointmentMailOf(config));
  if (queued > 0) {
    logger.info({ event: 'lead_reminders_queued', emails: queued }, 'queued appointment reminders for leads');
    nudgeOutbox();
  }
}

/** Outside calendars due a read (every 5 minutes each), whichever process claims them first. */
export async function syncCalendars(db: Db, { config, logger, vault }: JobContext): Promise<void> {
  const read = await syncDueCalendars(calendarAccess(db, config, vault(), logger));
  if (read > 0) logger.debug({ event: 'calendars_synced', calendars: read }, 'synced outside calendars');
}

/** Booked calls to copy into their hosts' CalDAV calendars (queued by the appointments' triggers), each by one process. */
export async function writeCalendarCopies(db: Db, { config, logger, vault }: JobContext): Promise<void> {
  const written = await writeDueCopies(calendarAccess(db, config, vault(), logger));
  if (written > 0) logger.debug({ event: 'calendar_copies_written', copies: written }, 'wrote booked calls to calendars');
}

export async function deleteOldAnalytics(db: Db, { config, logger }: JobContext): Promise<void> {
  const days = config.analyticsRetentionDays;
  const deleted = await deleteExpiredAnalyticsEvents(db, days);
  if (deleted > 0) logger.info({ event: 'analytics_events_deleted', events: deleted, days }, 'deleted old analytics events');
}

/** Entries past AUDIT_RETENTION_DAYS; a delete by age is the same whichever process runs it, or both. */
export async function deleteOldAuditEntries(db: Db, { config, logger }: JobContext): Promise<void> {
  const days = config.auditRetentionDays;
  const deleted = await deleteExpiredAuditEntries(db, days);
  if (deleted > 0) logger.info({ event: 'audit_entries_deleted', entries: deleted, days }, 'deleted old audit log entries');
}
