import { sql, type SQL } from 'drizzle-orm';
import * as z from 'zod';
import type { InboundMessage } from '../../lib/inbound-message.ts';
import type { Db } from '../client.ts';
import { execute, pgArray, queryRows } from '../sql.ts';
import { newEmail, type QueueMail } from './emails-queries.ts';
import { messageHash, senderHash } from './inbound-emails-queries.ts';

/**
 * Storing a message read from the reply mailbox, as SQL: what the database knows for matching it
 * to a lead (conversations/match-reply.ts decides), and the insert that stores it as matched and
 * tells the lead's owner. conversations/store-reply.ts runs them in one transaction.
 */

/** Where a message was read: the mailbox, the process reading it, and the message's UID. */
export type MailboxPlace = { mailbox: string; me: string; uidvalidity: number; uid: number };

/** A message a reply names (In-Reply-To, References) that we know on a lead: one of ours, or one of theirs we stored. */
export type AnsweredMessage = {
  leadId: string;
  /** Ours: the email's id; theirs: null. */
  emailId: string | null;
  /** Ours: true; theirs: its sender_verified. */
  verified: boolean;
  /** The thread it is in (its own id when it started one). */
  thread: string;
  /** When it was sent (ours) or received (theirs): ISO 8601 in UTC, to the microsecond. */
  at: string;
  /** Its place among the Message-IDs the reply answers: 1 for In-Reply-To, then References from the newest. */
  rank: number;
};

/** What the database knows of a message read from the mailbox, for matching it (readReplyCandidates). */
export type ReplyCandidates = {
  /** The messages it names that we know on a lead, by rank, verified first. */
  answered: readonly AnsweredMessage[];
  /** The newest lead with one of the reply tokens it was addressed to (To or Cc). */
  tokenLead: string | null;
  /** The leads whose address is its From address, newest first. */
  senderLeads: readonly string[];
  /** Its From address is in erased_senders: a person whose data was erased. */
  senderErased: boolean;
  /** …and was erased after the message reached the mailbox (false when we do not know when it did). */
  senderErasedSinceArrival: boolean;
  /** Its Message-ID is in erased_messages: a copy of mail erased with its sender's data. */
  copyErased: boolean;
};

/** How a message joins a lead, as insertReply stores it (inbound_emails' columns of the same names). */
export type ReplyMatch = {
  leadId: string | null;
  matchedBy: 'thread' | 'token' | 'sender' | null;
  /** Sent by the lead, and shown to be (conversations/match-reply.ts). */
  senderVerified: boolean;
  /** Sent by another address than the lead's. */
  fromSomeoneElse: boolean;
  /** The message of ours it answers. */
  answersEmailId: string | null;
  /** The thread it joins; null: it starts its own. */
  threadId: string | null;
  /** When the message it answers was sent or received (AnsweredMessage's `at`): it is stored a millisecond after, at least. */
  answeredAt: string | null;
  erasedSender: boolean;
};

const answeredRow = z.object({
  leadId: z.string(),
  emailId: z.string().nullable(),
  verified: z.boolean(),
  thread: z.string(),
  at: z.string(),
  rank: z.number().int(),
});
const candidatesRow = z.object({
  answered: z.array(answeredRow),
  token_lead: z.string().nullable(),
  sender_leads: z.array(z.string()),
  sender_erased: z.boolean(),
  sender_erased_since_arrival: z.boolean(),
  copy_erased: z.boolean(),
});

/**
 * What the database knows of a message read from `mailbox`, for matching it to a lead
 * (conversations/match-reply.ts decides): the messages of ours, and of theirs stored from this
 * mailbox, that it answers, on a lead (their time to the microsecond); the newest lead with one
 * of `tokens`, and the leads with its From address (newest first); and whether its sender, or this very
 * message, was erased (`erasedKey`: erased_senders' and erased_messages' keyed hashes).
 */
export async function readReplyCandidates(
  db: Db,
  mailbox: string,
  message: Pick<InboundMessage, 'answers' | 'from' | 'messageId' | 'receivedAt'>,
  tokens: readonly string[],
  erasedKey: Buffer,
): Promise<ReplyCandidates> {
  const fromHash = senderHash(erasedKey, message.from.address);
  const erasedCopy = message.messageId ? messageHash(erasedKey, message.messageId) : null;
  const answers = pgArray(message.answers);
  const micros = (at: SQL) => sql`to_char(${at} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`;
  const [row] = await queryRows(
    db,
    sql`
    select
      coalesce((select json_agg(t order by t."rank", t.verified desc) from (
        select e.lead_id as "leadId", e.id as "emailId", true as verified, coalesce(e.thread_id, e.id) as thread,
          ${micros(sql`coalesce(e.sent_at, e.created_at)`)} as at, array_position(${answers}::text[], e.message_id) as "rank"
        from emails e where e.message_id = any(${answers}::text[]) and e.lead_id is not null
        union all
        select i.lead_id, null, i.sender_verified, coalesce(i.thread_id, i.id), ${micros(sql`i.received_at`)},
          array_position(${answers}::text[], i.message_id)
        from inbound_emails i where i.message_id = any(${answers}::text[]) and i.lead_id is not null and i.mailbox = ${mailbox}
      ) t), '[]'::json) as answered,
      (select id from leads where reply_token = any(${pgArray(tokens)}::text[]) order by created_at desc limit 1) as token_lead,
      (select coalesce(array_agg(s.id order by s.created_at desc), '{}') from (
        select id, created_at from leads where email = ${message.from.address} order by created_at desc limit 50) s) as sender_leads,
      exists (select 1 from erased_senders where address_hash = ${fromHash}) as sender_erased,
      exists (select 1 from erased_senders where address_hash = ${fromHash}
              and erased_at > ${message.receivedAt?.toISOString() ?? null}::timestamptz) as sender_erased_since_arrival,
      exists (select 1 from erased_messages where message_hash = ${erasedCopy}::text) as copy_erased`,
    candidatesRow,
  );
  return {
    answered: row!.answered,
    tokenLead: row!.token_lead,
    senderLeads: row!.sender_leads,
    senderErased: row!.sender_erased,
    senderErasedSinceArrival: row!.sender_erased_since_arrival,
    copyErased: row!.copy_erased,
  };
}

/**
 * Stores a message read from the mailbox as `match` joins it to a lead, unless it was stored
 * already (the unique UID, or Message-ID, of inbound_emails: undefined then), and in the same
 * statement tells the lead's owner: a notification, and an email with `excerpt` when they asked
 * for one. Told only when this statement stored it, so a message stored once is told once.
 */
export async function insertReply(
  db: Db,
  at: MailboxPlace,
  message: InboundMessage,
  match: ReplyMatch,
  excerpt: string,
  mail: QueueMail,
): Promise<{ id: string; lead_id: string | null } | undefined> {
  const [row] = await queryRows(
    db,
    sql`
    with added as (
      insert into inbound_emails (mailbox, uidvalidity, uid, message_id, in_reply_to, from_address, from_name, to_addresses,
        cc_addresses, subject, sent_at, received_at, body, lead_id, matched_by, sender_verified, from_someone_else, answers_email_id,
        erased_sender, asks_to_stop, thread_id)
      values (${at.mailbox}, ${at.uidvalidity}, ${at.uid}, ${message.messageId}, ${message.inReplyTo}, ${message.from.address},
        ${message.from.name}, ${message.to}, ${message.cc}, ${message.subject}, ${message.date?.toISOString() ?? null}::timestamptz,
        -- Never before the message it answers (conversations/reply-thread.ts).
        greatest(coalesce(${message.receivedAt?.toISOString() ?? null}::timestamptz, crm_now()),
          ${match.answeredAt}::timestamptz + interval '1 millisecond'), ${message.body}, ${match.leadId}::uuid, ${match.matchedBy}::text,
        ${match.senderVerified}::boolean, ${match.fromSomeoneElse}::boolean, ${match.answersEmailId}::uuid, ${match.erasedSender}::boolean,
        ${message.asksToStop}::boolean,
        ${match.threadId}::uuid)
      on conflict do nothing
      returning id, lead_id
    ), told as (
      select u.id as user_id, u.email, u.email_replies, l.id as lead_id, l.full_name
      from added a join leads l on l.id = a.lead_id
      -- The owner; everyone, when the lead has none or its owner can no longer sign in.
      join users u on u.deactivated_at is null and (u.id = l.owner_id or not exists (
        select 1 from users o where o.id = l.owner_id and o.deactivated_at is null))
    ), noticed as (
      insert into notifications (user_id, type, message, lead_id)
      select user_id, 'reply', ${replyNotice(match, message.from.address)}, lead_id from told
    ), emailed as (
      insert into emails (message_id, status, last_error, kind, to_address, data, lead_id)
      select ${newEmail(mail)}, 'lead-reply', t.email,
        jsonb_build_object('lead_id', t.lead_id, 'lead_name', t.full_name, 'from', ${message.from.address}::text,
          'subject', ${message.subject}::text, 'excerpt', ${excerpt}::text, 'sender_verified', ${match.senderVerified}::boolean,
          'from_someone_else', ${match.fromSomeoneElse}::boolean),
        t.lead_id
      from told t where t.email_replies
    )
    select id, lead_id from added`,
    z.object({ id: z.uuid(), lead_id: z.uuid().nullable() }),
  );
  return row;
}

/**
 * The owner's notification of a reply, as SQL over `full_name`: "Jane Doe replied", saying when
 * the sender was not shown to be Jane, or was someone else.
 */
function replyNotice(match: ReplyMatch, from: string): SQL {
  if (match.fromSomeoneElse) return sql`full_name || ' replied: from someone else, ' || ${from.slice(0, 254)}::text`;
  if (!match.senderVerified) return sql`full_name || ' replied (sender not verified)'`;
  return sql`full_name || ' replied'`;
}

/** The files that came with a stored message. */
export async function insertReplyAttachments(db: Db, emailId: string, files: InboundMessage['attachments']): Promise<void> {
  for (const file of files) {
    await execute(
      db,
      sql`insert into inbound_attachments (email_id, filename, content_type, size, content)
          values (${emailId}, ${file.filename}, ${file.contentType}, ${file.size}, ${file.content})`,
    );
  }
}
