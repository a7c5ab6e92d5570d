import type { Config } from '../config.ts';
import type { Db } from '../db/client.ts';
import { type BookingLinkToken, type EmailKind, retryEmail } from '../db/queries/emails-queries.ts';
import { AppError } from '../lib/app-error.ts';

/** Queuing mail by hand (a test, a retry) only makes sense with a mail server to send it. */
export const EMAIL_OFF = 'Email is off: set SMTP_URL and restart the server to send email.';

/** Refuses, with why, while no mail server is configured. */
export function requireEmailOn(mail: Pick<Config['mail'], 'smtp'>): void {
  if (mail.smtp === undefined) throw new AppError('unprocessable', EMAIL_OFF);
}

/**
 * Queues a failed or unsent message again (another day of retries): the one path behind every
 * "Send again" button; the caller nudges the outbox. `of` limits it to one lead's messages of one
 * kind; `beforeQueue` runs once email is known to be on and before anything changes (a
 * per-person limit, say); `relink` is a new booking link for a message whose text holds
 * {{booking_link}}.
 */
export async function sendEmailAgain(
  db: Db,
  mail: Pick<Config['mail'], 'smtp'>,
  id: string,
  options: { of?: { leadId: string; kind: EmailKind }; relink?: BookingLinkToken; beforeQueue?: () => Promise<void> } = {},
): Promise<void> {
  requireEmailOn(mail);
  await options.beforeQueue?.();
  const result = await retryEmail(db, id, options.of, options.relink);
  if (result === 'not_found') throw new AppError('not_found', 'Email not found.');
  if (result === 'not_failed') throw new AppError('unprocessable', 'Only a failed or unsent email can be sent again.');
}
