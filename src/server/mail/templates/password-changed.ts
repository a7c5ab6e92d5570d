import * as z from 'zod';
import { oneLine, parse, render, type ComposedEmail, type MailContext, type Template } from './render.ts';

/**
 * "Your password was changed": to the account's own address after every password change (on the
 * account page, with a reset link, or by `npm run admin -- reset-password`). Other sessions
 * ended with the old password; the API keys the person made did not, so each is named, with the
 * page where one click revokes them all.
 */
const changedData = z.object({
  how: z.enum(['account', 'reset_link', 'admin_command']),
  keys: z.array(z.object({ name: z.string(), prefix: z.string() })),
});

const HOW = {
  account: 'on your account page',
  reset_link: 'with a password reset link sent to this address',
  admin_command: 'by an administrator on the server (npm run admin -- reset-password)',
} as const;

const changedSubject = (ctx: MailContext) => oneLine(`Your password for ${ctx.site.name}'s CRM was changed`);

function passwordChanged(data: unknown, ctx: MailContext): ComposedEmail {
  const c = parse(changedData, data);
  const integrations = `${ctx.publicUrl}/dashboard/settings/integrations`;
  return {
    subject: changedSubject(ctx),
    ...render(ctx, 'Hello,', [
      {
        lines: [
          `The password of this email's account at ${ctx.site.name}'s CRM was changed ${HOW[c.how]}. Every other place you were signed in has been signed out.`,
          'If you did not change it, choose a new password now with “Forgot your password?” on the sign-in page, and tell an owner of your team.',
        ],
      },
      ...(c.keys.length === 0
        ? []
        : [
            {
              heading: c.keys.length === 1 ? 'Your API key still works' : `Your ${c.keys.length} API keys still work`,
              lines: [
                ...c.keys.map((k) => `${k.name} (${k.prefix}…)`),
                'A password change does not end them. If they should stop, revoke them all with one click:',
              ],
            },
            { link: { label: 'Revoke your API keys', href: integrations } },
          ]),
    ]),
  };
}

export const passwordChangedTemplate: Template = { compose: passwordChanged, subject: (_data, ctx) => changedSubject(ctx) };
