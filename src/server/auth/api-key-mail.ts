import type { Context } from 'hono';
import { hitLeadMessageLimit } from '../conversations/send-message.ts';
import type { AppEnv } from '../http/context.ts';

/**
 * Mail an API key's operation would send a lead (an appointment's confirmation, move or
 * cancellation, and the lead's reminder) speaks for the firm to an address the key chose. So it
 * is sent only when the key has the `email:send` scope (which its owner ticked when making it),
 * and each such operation counts one message against the key maker's LEAD_EMAIL_PER_HOUR, in the
 * database counter Send email uses. Otherwise the operation still happens, sending nothing, and
 * its answer says so: `"notified": false` with the reason. A session's request is not asked.
 */
export type KeyedMail = { send: boolean; answer: { notified: boolean; notified_reason?: string } | undefined };

export const NO_EMAIL_SCOPE = 'This API key does not have the email:send scope, so no email was sent.';
export const EMAIL_LIMIT_REACHED = (retryAfterSeconds: number) =>
  `Your email limit (LEAD_EMAIL_PER_HOUR) is reached, so no email was sent. Try again in ${Math.ceil(retryAfterSeconds / 60)} min.`;

/** Whether this request may mail the lead, counting the message when it may. */
export async function keyedMail(c: Context<AppEnv>): Promise<KeyedMail> {
  const key = c.get('apiKey');
  if (!key) return { send: true, answer: undefined };
  if (!key.scopes.includes('email:send')) return { send: false, answer: { notified: false, notified_reason: NO_EMAIL_SCOPE } };
  const hit = await hitLeadMessageLimit(c.get('db'), c.get('user').id, c.get('deps').config.mail.leadMessagesPerHour);
  if (!hit.allowed) return { send: false, answer: { notified: false, notified_reason: EMAIL_LIMIT_REACHED(hit.retryAfterSeconds) } };
  return { send: true, answer: { notified: true } };
}
