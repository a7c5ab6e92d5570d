import * as z from 'zod';
import { bothClocks } from '#shared/visitor-clock';
import { meetingName as meeting } from '../../lib/booked-call-calendar.ts';
import { knownZone, oneLine, parse, render, visitorWhen, type ComposedEmail, type MailContext, type Template } from './render.ts';

/**
 * A website booking held until the visitor confirms it: the link (a path under PUBLIC_URL)
 * lives in the data only until the message is sent. Nothing the visitor typed is in it: the
 * address may be someone else's, and the firm's words are all it carries.
 */
const bookingConfirmationData = z.object({
  link: z.string(),
  type: z.string(),
  time_zone: z.string(),
  starts_at: z.string(),
  expires_at: z.string(),
  visitor_time_zone: z.string().nullable().optional(),
});
const bookingConfirmationSubject = (ctx: MailContext) => oneLine(`Confirm your call with ${ctx.site.name}`);

function bookingConfirmation(data: unknown, ctx: MailContext): ComposedEmail {
  const b = parse(bookingConfirmationData, data);
  const until = bothClocks(b.expires_at, b.time_zone, knownZone(b.visitor_time_zone));
  return {
    subject: bookingConfirmationSubject(ctx),
    ...render(ctx, 'Hello,', [
      {
        lines: [
          `Someone (we hope you) asked to book a ${meeting(b.type)} with ${ctx.site.name} on ${visitorWhen(b.starts_at, b.time_zone, b.visitor_time_zone)}.`,
          `The time is yours only once you confirm it: until then others may still book it. The link works for 30 minutes, until ${until}.`,
        ],
      },
      { link: { label: 'Confirm my call', href: `${ctx.publicUrl}${b.link}` } },
      { lines: [`If you did not ask for this call, ignore this email: nothing is booked. To book by phone, call ${ctx.site.phone}.`] },
    ]),
  };
}

export const bookingConfirmationTemplate: Template = {
  compose: bookingConfirmation,
  subject: (_data, ctx) => bookingConfirmationSubject(ctx),
};
