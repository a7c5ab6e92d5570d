import { oneLine, render, type ComposedEmail, type MailContext, type Template } from './render.ts';

/** Settings → Email's test message: says which mail server carried it. */
const testSubject = (ctx: MailContext) => oneLine(`Test email from ${ctx.site.name}`);

function testEmail(_data: unknown, ctx: MailContext): ComposedEmail {
  return {
    subject: testSubject(ctx),
    ...render(ctx, 'Email works.', [{ lines: [`This message went through ${ctx.transport} from ${ctx.from.address}.`] }]),
  };
}

export const testEmailTemplate: Template = { compose: testEmail, subject: (_data, ctx) => testSubject(ctx) };
