import { emailIdParamSchema, emailOverviewSchema, type EmailMessage } from '#shared/schemas/email';
import * as z from 'zod';
import { createOwnerRoute } from '../auth/admin-route.ts';
import { countQueuedEmails, listRecentEmails, queueMailOf, queueTestEmail } from '../db/queries/emails-queries.ts';
import { queueWeeklyReportTo } from '../db/queries/weekly-report-queries.ts';
import { errorResponses, jsonContent } from '../http/openapi.ts';
import { createRouter } from '../http/router.ts';
import { describeImap, describeSmtp, formatMailbox } from '../lib/mail-settings.ts';
import { readerStatus } from '../db/queries/inbound-emails-queries.ts';
import { currentMailContext } from '../mail/mail-context.ts';
import { emailSubject } from '../mail/messages.ts';
import { requireEmailOn, sendEmailAgain } from '../mail/send-again.ts';

const RECENT = 50;

const overviewRoute = createOwnerRoute({
  method: 'get',
  path: '/api/email',
  tags: ['email'],
  summary: 'Whether email is on, how it is sent, and the newest 50 messages with their status',
  responses: { 200: jsonContent(emailOverviewSchema, 'Email') },
});

const testRoute = createOwnerRoute({
  method: 'post',
  path: '/api/email/test',
  tags: ['email'],
  summary: 'Queue a test email to the signed-in admin',
  responses: { 202: jsonContent(z.object({ id: z.uuid() }), 'Queued'), ...errorResponses({ 422: 'Email is off' }) },
});

const weeklyReportRoute = createOwnerRoute({
  method: 'post',
  path: '/api/email/weekly-report',
  tags: ['email'],
  summary: "Queue the last complete week's report to the signed-in admin now",
  responses: { 202: jsonContent(z.object({ id: z.uuid() }), 'Queued'), ...errorResponses({ 422: 'Email is off' }) },
});

const retryRoute = createOwnerRoute({
  method: 'post',
  path: '/api/email/{id}/retry',
  tags: ['email'],
  summary: 'Queue a failed (or unsent) message again, with another day of retries',
  request: { params: emailIdParamSchema },
  responses: {
    200: jsonContent(z.object({ id: z.uuid() }), 'Queued again'),
    ...errorResponses({ 400: 'Invalid id', 404: 'No such message', 422: 'The message has not failed, or email is off' }),
  },
});

export const emailRoutes = createRouter()
  .openapi(overviewRoute, async (c) => {
    const { config } = c.get('deps');
    const context = await currentMailContext(c.get('db'), config);
    const [rows, queued] = await Promise.all([listRecentEmails(c.get('db'), RECENT), countQueuedEmails(c.get('db'))]);
    const messages: EmailMessage[] = rows.map((m) => ({
      id: m.id,
      kind: m.kind,
      to: m.to_name ? formatMailbox({ name: m.to_name, address: m.to_address }) : m.to_address,
      subject: emailSubject(m.kind, m.data, context),
      status: m.status,
      attempts: m.attempts,
      error: m.last_error,
      created_at: m.created_at,
      sent_at: m.sent_at,
      next_attempt_at: m.next_attempt_at,
    }));
    return c.json(
      {
        enabled: config.mail.smtp !== undefined,
        transport: config.mail.smtp ? describeSmtp(config.mail.smtp) : null,
        from: formatMailbox(config.mail.from),
        reply_to: config.mail.replyTo ? formatMailbox(config.mail.replyTo) : null,
        public_url: config.publicUrl,
        lead_reminder_hours: config.mail.leadReminderHours,
        queued,
        messages,
        replies: config.mail.imap
          ? { mailbox: describeImap(config.mail.imap), ...(await readerStatus(c.get('db'), describeImap(config.mail.imap))) }
          : { mailbox: null, checked_at: null, error: null },
      },
      200,
    );
  })
  .openapi(testRoute, async (c) => {
    requireEmailOn(c.get('deps').config.mail);
    const id = await queueTestEmail(c.get('db'), c.get('user'), queueMailOf(c.get('deps').config.mail));
    c.get('deps').outbox.nudge();
    return c.json({ id }, 202);
  })
  .openapi(weeklyReportRoute, async (c) => {
    requireEmailOn(c.get('deps').config.mail);
    const { config } = c.get('deps');
    const id = await queueWeeklyReportTo(c.get('db'), c.get('user'), {
      now: new Date(),
      timeZone: config.businessTimeZone,
      mail: queueMailOf(config.mail),
    });
    c.get('deps').outbox.nudge();
    return c.json({ id }, 202);
  })
  .openapi(retryRoute, async (c) => {
    const { id } = c.req.valid('param');
    await sendEmailAgain(c.get('db'), c.get('deps').config.mail, id);
    c.get('deps').outbox.nudge();
    return c.json({ id }, 200);
  });
