import type { EmailKind } from '../db/queries/emails-queries.ts';
import { appointmentReminderTemplate } from './templates/appointment-reminder.ts';
import { appointmentTemplate } from './templates/appointment-mail.ts';
import { bookingConfirmationTemplate } from './templates/booking-confirmation.ts';
import { inviteTemplate } from './templates/invite.ts';
import { leadMessageTemplate } from './templates/lead-message.ts';
import { leadAcknowledgementTemplate, newLeadTemplate } from './templates/lead-mail.ts';
import { passwordChangedTemplate } from './templates/password-changed.ts';
import { passwordResetTemplate } from './templates/password-reset.ts';
import type { ComposedEmail, MailContext, Template } from './templates/render.ts';
import { testEmailTemplate } from './templates/test-email.ts';
import { weeklyReportTemplate } from './templates/weekly-report.ts';
import { leadReplyTemplate } from './templates/lead-reply.ts';
import { taskDigestTemplate } from './templates/task-digest.ts';

/**
 * Which template writes each kind of email (one module per kind in templates/, sharing
 * templates/render.ts): the outbox composes from here, the Email settings page and a lead's
 * timeline take the subject alone.
 */
const TEMPLATES: Record<EmailKind, Template> = {
  'new-lead': newLeadTemplate,
  'lead-acknowledgement': leadAcknowledgementTemplate,
  appointment: appointmentTemplate,
  'appointment-reminder': appointmentReminderTemplate,
  test: testEmailTemplate,
  invite: inviteTemplate,
  'password-changed': passwordChangedTemplate,
  'password-reset': passwordResetTemplate,
  'weekly-report': weeklyReportTemplate,
  'lead-reply': leadReplyTemplate,
  'booking-confirmation': bookingConfirmationTemplate,
  'lead-message': leadMessageTemplate,
  'task-digest': taskDigestTemplate,
};

/** The message an outbox row stands for. Throws EmailDataError when its snapshot does not fit. */
export const composeEmail = (kind: EmailKind, data: unknown, ctx: MailContext): ComposedEmail => TEMPLATES[kind].compose(data, ctx);

/**
 * The subject alone, as composeEmail writes it (for the Email settings page and a lead's
 * timeline); a placeholder when the snapshot does not fit.
 */
export function emailSubject(kind: EmailKind, data: unknown, ctx: MailContext): string {
  try {
    return TEMPLATES[kind].subject(data, ctx);
  } catch {
    return `(${kind})`;
  }
}
