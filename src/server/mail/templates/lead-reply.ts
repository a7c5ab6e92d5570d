import * as z from 'zod';
import { oneLine, parse, render, type ComposedEmail, type MailContext, type Template } from './render.ts';

/**
 * "Jane Doe replied": to the lead's owner (everyone, for a lead with no owner) who asked for it
 * (account menu → Email me when a lead replies), with the start of the reply as text and a link
 * to the lead's page, where the whole message and its files are.
 */
const replyData = z.object({
  lead_id: z.string(),
  lead_name: z.string(),
  from: z.string(),
  subject: z.string(),
  excerpt: z.string(),
});

const replySubject = (r: z.infer<typeof replyData>) => oneLine(`${r.lead_name} replied: ${r.subject || '(no subject)'}`);

function leadReply(data: unknown, ctx: MailContext): ComposedEmail {
  const reply = parse(replyData, data);
  return {
    subject: replySubject(reply),
    ...render(ctx, `${reply.lead_name} replied.`, [
      {
        rows: [
          ['From', reply.from],
          ['Subject', reply.subject || '(no subject)'],
        ],
      },
      { lines: [reply.excerpt] },
      { link: { label: 'Read it on the lead’s page', href: `${ctx.publicUrl}/dashboard/leads/${encodeURIComponent(reply.lead_id)}` } },
    ]),
  };
}

export const leadReplyTemplate: Template = { compose: leadReply, subject: (data) => replySubject(parse(replyData, data)) };
