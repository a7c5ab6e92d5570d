import * as z from 'zod';
import { oneLine, parse, render, type ComposedEmail, type MailContext, type Template } from './render.ts';

const resetData = z.object({ link: z.string(), expires_minutes: z.number().int() });

const resetSubject = (ctx: MailContext) => oneLine(`Choose a new password for ${ctx.site.name}'s CRM`);

function passwordReset(data: unknown, ctx: MailContext): ComposedEmail {
  const r = parse(resetData, data);
  return {
    subject: resetSubject(ctx),
    ...render(ctx, 'Hello,', [
      { lines: [`Someone (we hope you) asked to choose a new password for this email's account at ${ctx.site.name}'s CRM.`] },
      { link: { label: 'Choose a new password', href: r.link } },
      {
        lines: [
          `The link works once, for ${r.expires_minutes} minutes, and signs you out everywhere. If you did not ask, ignore this email: your password stays as it is.`,
        ],
      },
    ]),
  };
}

export const passwordResetTemplate: Template = { compose: passwordReset, subject: (_data, ctx) => resetSubject(ctx) };
