import * as z from 'zod';

/** What the Email settings page shows: whether email is on, how it is sent, the newest messages. */
export const EMAIL_MESSAGE_STATUSES = ['queued', 'sent', 'failed', 'not_sent'] as const;
export type EmailMessageStatus = (typeof EMAIL_MESSAGE_STATUSES)[number];

export const emailMessageSchema = z
  .object({
    id: z.uuid(),
    /**
     * new-lead, lead-acknowledgement, appointment, appointment-reminder, test, invite, password-changed, password-reset,
     * weekly-report, booking-confirmation, lead-message, lead-reply or task-digest.
     */
    kind: z.string(),
    /** The recipient, as "Name <address>" or the address. */
    to: z.string(),
    subject: z.string(),
    status: z.enum(EMAIL_MESSAGE_STATUSES),
    attempts: z.number().int(),
    /** Why it failed, was not sent, or is being retried (the mail server's reply when it gave one). */
    error: z.string().nullable(),
    created_at: z.string(),
    sent_at: z.string().nullable(),
    /** When a queued message is tried next. */
    next_attempt_at: z.string(),
  })
  .meta({ id: 'EmailMessage' });
export type EmailMessage = z.infer<typeof emailMessageSchema>;

export const emailOverviewSchema = z
  .object({
    enabled: z.boolean(),
    /** The mail server without its password (smtp://user@host:587), or null when email is off. */
    transport: z.string().nullable(),
    from: z.string(),
    reply_to: z.string().nullable(),
    /** Where links in emails point. */
    public_url: z.string(),
    /** Hours before an appointment the lead is reminded; 0 = never. */
    lead_reminder_hours: z.number().int(),
    queued: z.number().int(),
    messages: z.array(emailMessageSchema),
    /** Reading replies (IMAP_URL): the mailbox without its password, or null when replies are not read. */
    replies: z.object({
      mailbox: z.string().nullable(),
      /** The last look at it, and why it failed (null: it went well, or none yet). */
      checked_at: z.string().nullable(),
      error: z.string().nullable(),
    }),
  })
  .meta({ id: 'EmailOverview' });
export type EmailOverview = z.infer<typeof emailOverviewSchema>;

export const emailIdParamSchema = z.object({ id: z.uuid('Invalid email id') });

/** Each admin's email preferences (the account menu). */
export const emailPreferencesSchema = z
  .object({
    /** A message for every new lead. */
    email_new_leads: z.boolean(),
    /** A calendar invitation whenever an appointment is scheduled, moved or cancelled. */
    email_appointments: z.boolean(),
    /** Last week's analytics, every Monday morning. */
    email_weekly_report: z.boolean(),
    /** A message when a lead of theirs (or one with no owner) replies. */
    email_replies: z.boolean(),
    /** The day's tasks, every morning. */
    email_task_digest: z.boolean(),
  })
  .meta({ id: 'EmailPreferences' });
export type EmailPreferences = z.infer<typeof emailPreferencesSchema>;

export const updateEmailPreferencesSchema = emailPreferencesSchema
  .partial()
  .refine((body) => Object.keys(body).length > 0, { message: 'Nothing to update' })
  .meta({ id: 'UpdateEmailPreferences' });
export type UpdateEmailPreferences = z.infer<typeof updateEmailPreferencesSchema>;
