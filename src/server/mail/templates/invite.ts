import * as z from 'zod';
import { oneLine, parse, render, type ComposedEmail, type MailContext, type Template } from './render.ts';

/** An invitation: its link lives in the message's data only until the message is sent. */
const inviteData = z.object({
  link: z.string(),
  role: z.enum(['owner', 'staff']),
  invited_by: z.string().nullable(),
  expires_hours: z.number().int(),
});

const inviteSubject = (ctx: MailContext) => oneLine(`You are invited to ${ctx.site.name}'s CRM`);

function invite(data: unknown, ctx: MailContext): ComposedEmail {
  const i = parse(inviteData, data);
  const who = i.invited_by ? `${i.invited_by} invited you` : 'You are invited';
  return {
    subject: inviteSubject(ctx),
    ...render(ctx, 'Hello,', [
      { lines: [`${who} to join ${ctx.site.name}'s CRM as ${i.role === 'owner' ? 'an owner' : 'a member of staff'}.`] },
      { link: { label: 'Accept the invitation and choose a password', href: i.link } },
      { lines: [`The link works once, for ${i.expires_hours} hours. If you did not expect this, you can ignore this email.`] },
    ]),
  };
}

export const inviteTemplate: Template = { compose: invite, subject: (_data, ctx) => inviteSubject(ctx) };
