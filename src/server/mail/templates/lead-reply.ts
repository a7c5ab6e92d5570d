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
  // Written since replies carry who they are shown to be from; a mail queued before reads as the lead's.
  sender_verified: z.boolean().default(true),
  from_someone_else: z.boolean().default(false),
});

/** Said above the reply when it is not shown to be the lead's (conversations/match-reply.ts). */
function senderWarning(reply: z.infer<typeof replyData>): string[] {
  if (reply.from_someone_else)
    return [`From someone else: ${reply.from}. It answers your conversation with ${reply.lead_name}, but not from their address.`];
  if (!reply.sender_verified)
    return [`Sender not verified: it comes from ${reply.lead_name}’s address, but nothing showed that they sent it. It may be forged.`];
  return [];
}

const replySubject = (r: z.infer<typeof replyData>) => oneLine(`${r.lead_name} replied: ${r.subject || '(no subject)'}`);

function leadReply(data: unknown, ctx: MailContext): ComposedEmail {
  const reply = parse(replyData, data);
  const warning = senderWarning(reply);
  return {
    subject: replySubject(reply),
    ...render(ctx, `${reply.lead_name} replied.`, [
      {
        rows: [
          ['From', reply.from],
          ['Subject', reply.subject || '(no subject)'],
        ],
      },
      ...(warning.length > 0 ? [{ lines: warning }] : []),
      { lines: [reply.excerpt] },
      { link: { label: 'Read it on the lead’s page', href: `${ctx.publicUrl}/dashboard/leads/${encodeURIComponent(reply.lead_id)}` } },
    ]),
  };
}

export const leadReplyTemplate: Template = { compose: leadReply, subject: (data) => replySubject(parse(replyData, data)) };
