import * as z from 'zod';
import { fillMergeFields } from '#shared/rules/merge-fields';
import { EmailDataError, escapeHtml, oneLine, type ComposedEmail, type MailContext, type Template } from './render.ts';

/**
 * A message a person wrote to a lead from the lead's page: their words as they typed them
 * (plain text, line breaks kept; links made clickable in the HTML part), from MAIL_FROM's
 * address under the writer's name ("Dana at Keystone Due Diligence"), with a reply address
 * that brings the answer back to the lead (MAIL_REPLY_TO with the lead's +token), fixed when
 * it was queued, and their signature under the usual "-- " line.
 */
const dataSchema = z.object({
  subject: z.string(),
  body: z.string(),
  writer: z.string(),
  reply_to: z.string().nullable(),
  /** The writer's signature when it was queued ('' or absent: none), under the usual "-- " line. */
  signature: z.string().optional(),
  /** The path of the booking link made for {{booking_link}}: kept only until the message is sent (or fails). */
  link: z.string().optional(),
  /** The Message-ID of the lead's message this answers (Reply on the timeline). */
  in_reply_to: z.string().optional(),
});

function parse(data: unknown) {
  const parsed = dataSchema.safeParse(data);
  if (!parsed.success) throw new EmailDataError('The message could not be read back from the outbox');
  return parsed.data;
}

/** Addresses on the web (http and https), made links; everything else escaped. */
const LINK = /\bhttps?:\/\/[^\s<>"']+[^\s<>"'.,;:!?)\]]/g;
export function linkedHtml(text: string): string {
  let html = '';
  let last = 0;
  for (const match of text.matchAll(LINK)) {
    html += escapeHtml(text.slice(last, match.index));
    const href = escapeHtml(match[0]);
    html += `<a href="${href}" style="color:#1d4ed8">${href}</a>`;
    last = match.index + match[0].length;
  }
  return html + escapeHtml(text.slice(last));
}

/** "Dana at Keystone Due Diligence": the writer, and the firm they write for. */
export const writerName = (writer: string, ctx: MailContext) => oneLine(`${writer} at ${ctx.site.name}`);

function leadMessage(data: unknown, ctx: MailContext): ComposedEmail {
  const parsed = parse(data);
  const { writer, reply_to, signature } = parsed;
  // The link the message was queued with; without one (an old row) the placeholder stays as written.
  const links = parsed.link ? { booking_link: `${ctx.publicUrl}${parsed.link}` } : {};
  const subject = fillMergeFields(parsed.subject, links);
  const body = fillMergeFields(parsed.body, links);
  const words = body.replace(/\r\n?/g, '\n').replace(/\n+$/, '');
  const signed = signature ? signature.replace(/\r\n?/g, '\n').replace(/\n+$/, '') : '';
  const text = signed ? `${words}\n\n-- \n${signed}` : words;
  return {
    subject: oneLine(subject),
    text: text.endsWith('\n') ? text : `${text}\n`,
    html: `<!doctype html><html><body style="font-family:-apple-system,'Segoe UI',Roboto,Arial,sans-serif;font-size:15px;line-height:1.5;color:#0f172a;max-width:600px"><div style="white-space:pre-wrap">${linkedHtml(text)}</div></body></html>`,
    fromName: writerName(writer, ctx),
    ...(reply_to ? { replyTo: { name: writerName(writer, ctx), address: reply_to } } : {}),
    ...(parsed.in_reply_to ? { inReplyTo: parsed.in_reply_to } : {}),
  };
}

export const leadMessageTemplate: Template = { compose: leadMessage, subject: (data) => oneLine(parse(data).subject) };
