import * as z from 'zod';
import { meetingName as meeting } from '../../lib/booked-call-calendar.ts';
import { oneLine, parse, render, visitorShort, visitorWhen, type ComposedEmail, type MailContext, type Template } from './render.ts';

const reminderData = z.object({
  appointment_id: z.string(),
  type: z.string(),
  time_zone: z.string(),
  starts_at: z.string(),
  lead_name: z.string(),
  visitor_time_zone: z.string().nullable().optional(),
});

const reminderSubject = (a: z.infer<typeof reminderData>, ctx: MailContext) =>
  oneLine(`Reminder: your ${meeting(a.type)} with ${ctx.site.name}, ${visitorShort(a.starts_at, a.time_zone, a.visitor_time_zone)}`);

function appointmentReminder(data: unknown, ctx: MailContext): ComposedEmail {
  const a = parse(reminderData, data);
  const first = a.lead_name.split(/\s+/)[0] ?? a.lead_name;
  const when = visitorWhen(a.starts_at, a.time_zone, a.visitor_time_zone);
  return {
    subject: reminderSubject(a, ctx),
    ...render(ctx, `Hello ${first},`, [
      {
        lines: [
          `A reminder of your ${meeting(a.type)} with ${ctx.site.name} on ${when}.`,
          `To change it, call ${ctx.site.phone} or reply to this email.`,
        ],
      },
    ]),
  };
}

export const appointmentReminderTemplate: Template = {
  compose: appointmentReminder,
  subject: (data, ctx) => reminderSubject(parse(reminderData, data), ctx),
};
