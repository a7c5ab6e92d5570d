import type { LeadEmail, LeadEmailRequest } from '#shared/schemas/lead-workspace';
import type { Config } from '../config.ts';
import type { Db } from '../db/client.ts';
import { newMessageBookingLink, queueMailOf } from '../db/queries/emails-queries.ts';
import { queueLeadMessage } from '../db/queries/lead-messages-queries.ts';
import { hitRateLimit } from '../db/queries/rate-limits-queries.ts';
import { AppError, tooManyRequests } from '../lib/app-error.ts';
import { mailSite } from '../mail/mail-context.ts';
import { sendEmailAgain } from '../mail/send-again.ts';
import { newReplyToken, replyAddressParts } from './reply-token.ts';

/**
 * Writing to a lead from their page (docs/product-rules.md, "The lead page", Send email): queued
 * in the outbox from the firm's address under the writer's name, with the lead's reply address
 * (reply-token.ts) and its merge fields filled in; never to a lead marked Do not email; an answer
 * joins the thread of the message it answers, which must be on the lead's timeline
 * (db/queries/lead-messages-queries.ts, queueLeadMessage, decides it in the statement that queues).
 */

/** Why a message to a lead marked Do not email is refused. */
export const DO_NOT_EMAIL_REFUSAL = 'This lead is marked Do not email. Clear it on their page first if they asked to hear from you again.';

/**
 * Counts one message of `userId`'s to a lead against LEAD_EMAIL_PER_HOUR (0: no limit), in the
 * database for every process, so a stolen session cannot make the firm mail strangers without
 * bound; 429 past it.
 */
export async function countLeadMessage(db: Db, userId: string, perHour: number): Promise<void> {
  const hit = await hitLeadMessageLimit(db, userId, perHour);
  if (!hit.allowed) throw tooManyRequests(hit.retryAfterSeconds, 'emails');
}

/** The same count, answered rather than refused: for mail an API key causes (auth/api-key-mail.ts). */
export async function hitLeadMessageLimit(
  db: Db,
  userId: string,
  perHour: number,
): Promise<{ allowed: boolean; retryAfterSeconds: number }> {
  if (perHour === 0) return { allowed: true, retryAfterSeconds: 0 };
  return hitRateLimit(db, `lead-email:${userId}`, perHour, 3600);
}

/** Queues `message` from `writer` to the lead, or refuses: 404 no such lead, 409 Do not email, 400 answering a message not theirs. */
export async function sendLeadMessage(
  db: Db,
  config: Config,
  writer: { id: string; name: string },
  leadId: string,
  message: LeadEmailRequest,
): Promise<LeadEmail> {
  await countLeadMessage(db, writer.id, config.mail.leadMessagesPerHour);
  const [local, domain] = replyAddressParts(config.mail.replyTo);
  const sent = await queueLeadMessage(
    db,
    leadId,
    { ...writer, firmPhone: (await mailSite(db, config)).phone },
    message,
    queueMailOf(config.mail),
    { token: newReplyToken(), local, domain },
  );
  if (sent === 'not_found') throw new AppError('not_found', 'Lead not found.');
  if (sent === 'do_not_email') throw new AppError('conflict', DO_NOT_EMAIL_REFUSAL);
  if (sent === 'no_such_message')
    throw new AppError('validation_failed', 'The message you are answering is not on this lead’s timeline.', {
      in_reply_to: 'Not a message on this lead’s timeline',
    });
  return sent;
}

/**
 * Queues a message written to the lead again, once it failed or was not sent (mail/send-again.ts),
 * counted like a new one, with a new booking link when its text holds {{booking_link}}.
 */
export async function sendLeadMessageAgain(db: Db, config: Config, writerId: string, leadId: string, emailId: string): Promise<void> {
  await sendEmailAgain(db, config.mail, emailId, {
    of: { leadId, kind: 'lead-message' },
    relink: newMessageBookingLink(),
    beforeQueue: () => countLeadMessage(db, writerId, config.mail.leadMessagesPerHour),
  });
}
