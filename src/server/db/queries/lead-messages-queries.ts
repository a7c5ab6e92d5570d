import { sql } from 'drizzle-orm';
import * as z from 'zod';
import { MESSAGE_BOOKING_LINK_DAYS } from '#shared/constants';
import { fillMergeFields, firstNameOf, mergeFieldsIn, type MergeField } from '#shared/rules/merge-fields';
import { leadEmailSchema, type LeadEmail, type LeadEmailRequest } from '#shared/schemas/lead-workspace';
import type { Db } from '../client.ts';
import { queryRows } from '../sql.ts';
import { EMAILS_TO_LEAD, newEmail, newMessageBookingLink, type QueueMail } from './emails-queries.ts';

/** What the merge fields of a message to `leadId` from `writerId` become; undefined for no such lead. */
export async function mergeValuesFor(
  db: Db,
  leadId: string,
  writer: { id: string; name: string },
  firmPhone: string,
): Promise<{ values: Record<Exclude<MergeField, 'booking_link'>, string> } | undefined> {
  const [row] = await queryRows(
    db,
    sql`select l.full_name, coalesce(l.property_address, '') as property_address,
      (select u.phone from users u where u.id = ${writer.id}::uuid) as my_phone
    from leads l where l.id = ${leadId}`,
    z.object({ full_name: z.string(), property_address: z.string(), my_phone: z.string().nullable() }),
  );
  if (!row) return undefined;
  return {
    values: {
      first_name: firstNameOf(row.full_name),
      full_name: row.full_name,
      property_address: row.property_address,
      my_name: writer.name,
      my_phone: row.my_phone ?? firmPhone,
    },
  };
}

/**
 * Queues a message `writer` wrote to the lead, to `to` or the lead's own address, with its merge
 * fields filled in (the lead's name and property, the writer's name and phone, else the firm's
 * `firmPhone`), in one statement: the lead's reply token is `reply.token` with the first message
 * (and kept), the message's reply address carries it between `reply.local` and `reply.domain`
 * when MAIL_REPLY_TO is set (conversations/reply-token.ts), and a text holding
 * {{booking_link}} gets a booking link made for it (good for 7 days; only its hash is kept, and
 * the message keeps the link only until it is sent). Nothing is queued for a lead that does not
 * exist, or that staff marked Do not email.
 */
export async function queueLeadMessage(
  db: Db,
  leadId: string,
  writer: { id: string; name: string; firmPhone: string },
  message: LeadEmailRequest,
  mail: QueueMail,
  reply: { token: string; local: string | null; domain: string | null },
): Promise<LeadEmail | 'not_found' | 'do_not_email' | 'no_such_message'> {
  const merge = await mergeValuesFor(db, leadId, writer, writer.firmPhone);
  if (!merge) return 'not_found';
  const subject = fillMergeFields(message.subject, merge.values);
  const body = fillMergeFields(message.body, merge.values);
  const link = mergeFieldsIn(`${message.subject}\n${message.body}`).includes('booking_link') ? newMessageBookingLink() : undefined;
  const { token, local, domain } = reply;
  const [row] = await queryRows(
    db,
    sql`
    with l as (
      update leads set reply_token = coalesce(reply_token, ${token}) where id = ${leadId} and not do_not_email
      returning id, email, full_name, reply_token
    ), parent as (
      -- The message it answers, theirs or ours to them: its Message-ID heads the headers, its thread is this one's.
      select i.message_id, coalesce(i.thread_id, i.id) as thread from inbound_emails i join l on l.id = i.lead_id
        where i.id = ${message.in_reply_to ?? null}::uuid
      union all
      select e.message_id, coalesce(e.thread_id, e.id) from emails e join l on l.id = e.lead_id
        -- As the timeline shows them: to the lead's address, or written on their page (not a staff copy).
        where e.id = ${message.in_reply_to ?? null}::uuid and (e.to_address = l.email or e.kind = 'lead-message') and e.kind in (${sql.join(
          EMAILS_TO_LEAD.map((k) => sql`${k}`),
          sql`, `,
        )})
      limit 1
    ), link as (
      insert into booking_tokens (token_hash, lead_id, expires_at)
      select ${link?.hash ?? null}::text, l.id, crm_now() + make_interval(days => ${MESSAGE_BOOKING_LINK_DAYS}) from l
      where ${link !== undefined} and (${message.in_reply_to === undefined} or exists (select 1 from parent))
    ), m as (
      insert into emails (message_id, status, last_error, kind, to_address, to_name, data, lead_id, sent_by, thread_id)
      select ${newEmail(mail)}, 'lead-message', coalesce(${message.to ?? null}::text, l.email), l.full_name,
        jsonb_strip_nulls(jsonb_build_object('subject', ${subject}::text, 'body', ${body}::text, 'writer', ${writer.name}::text,
          'signature', (select u.email_signature from users u where u.id = ${writer.id}::uuid),
          'template_id', (select t.id from email_templates t where t.id = ${message.template_id ?? null}::uuid),
          'in_reply_to', (select p.message_id from parent p),
          'link', ${link?.path ?? null}::text))
        || jsonb_build_object('reply_to', case when ${local}::text is null then null else ${local}::text || '+' || l.reply_token || ${domain}::text end),
        l.id, ${writer.id}::uuid, (select p.thread from parent p)
      from l
      -- Answering a message that is not the lead's: nothing is sent.
      where ${message.in_reply_to === undefined} or exists (select 1 from parent)
      returning id, to_address, data, status, last_error
    )
    select id, to_address as to, data->>'subject' as subject, status, last_error as error from m`,
    leadEmailSchema,
  );
  if (row) return row;
  const [lead] = await queryRows(db, sql`select do_not_email from leads where id = ${leadId}`, z.object({ do_not_email: z.boolean() }));
  if (!lead) return 'not_found';
  return lead.do_not_email ? 'do_not_email' : 'no_such_message';
}
