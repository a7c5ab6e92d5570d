import { randomBytes } from 'node:crypto';
import { sql } from 'drizzle-orm';
import * as z from 'zod';
import { leadEmailSchema, type LeadEmail, type LeadEmailRequest } from '#shared/schemas/lead-workspace';
import type { Mailbox } from '../../lib/mail-settings.ts';
import type { Db } from '../client.ts';
import { queryRows } from '../sql.ts';
import { newEmail, type QueueMail } from './emails.ts';

/**
 * A lead's reply token: ten characters of [a-z0-9] (about 51 bits), so a reply address
 * (`replies+k3x9…@firm.com`) survives mail systems that change the case of an address.
 */
export function newReplyToken(): string {
  const alphabet = 'abcdefghijklmnopqrstuvwxyz0123456789';
  return [...randomBytes(10)].map((b) => alphabet[b % 36]).join('');
}

/**
 * Queues a message `writer` wrote to the lead, to `to` or the lead's own address, in one
 * statement: the lead's reply token is made with the first message (and kept), the message's
 * reply address carries it when MAIL_REPLY_TO is set. Nothing is queued for a lead that does
 * not exist, or that staff marked Do not email.
 */
export async function queueLeadMessage(
  db: Db,
  leadId: string,
  writer: { id: string; name: string },
  message: LeadEmailRequest,
  mail: QueueMail,
  replyTo: Mailbox | undefined,
): Promise<LeadEmail | 'not_found' | 'do_not_email'> {
  const token = newReplyToken();
  const [local, domain] = replyTo
    ? [replyTo.address.slice(0, replyTo.address.lastIndexOf('@')), replyTo.address.slice(replyTo.address.lastIndexOf('@'))]
    : [null, null];
  const [row] = await queryRows(
    db,
    sql`
    with l as (
      update leads set reply_token = coalesce(reply_token, ${token}) where id = ${leadId} and not do_not_email
      returning id, email, full_name, reply_token
    ), m as (
      insert into emails (message_id, status, last_error, kind, to_address, to_name, data, lead_id, sent_by)
      select ${newEmail(mail)}, 'lead-message', coalesce(${message.to ?? null}::text, l.email), l.full_name,
        jsonb_build_object('subject', ${message.subject}::text, 'body', ${message.body}::text, 'writer', ${writer.name}::text,
          'signature', (select u.email_signature from users u where u.id = ${writer.id}::uuid),
          'reply_to', case when ${local}::text is null then null else ${local}::text || '+' || l.reply_token || ${domain}::text end),
        l.id, ${writer.id}::uuid
      from l
      returning id, to_address, data, status, last_error
    )
    select id, to_address as to, data->>'subject' as subject, status, last_error as error from m`,
    leadEmailSchema,
  );
  if (row) return row;
  const [lead] = await queryRows(db, sql`select do_not_email from leads where id = ${leadId}`, z.object({ do_not_email: z.boolean() }));
  return lead ? 'do_not_email' : 'not_found';
}
