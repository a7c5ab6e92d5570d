import { createHmac } from 'node:crypto';
import { sql } from 'drizzle-orm';
import * as z from 'zod';
import { inboxMessageSchema, type InboxMessage } from '#shared/schemas/inbox';
import type { InboundMessage } from '../../lib/inbound-message.ts';
import type { Db } from '../client.ts';
import { newEmail, type QueueMail } from './emails.ts';
import { execute, isoTimestamp, pgArray, queryRows, transaction } from '../sql.ts';

/**
 * The reply mailbox's reader (mail/reader.ts) and what it stores. One process at a time reads
 * a mailbox (a lease in mail_readers); each message is stored in one transaction with the UID
 * it came with, its match to a lead, the owner's notification and the reader's progress, and
 * the unique UID (and Message-ID) of inbound_emails keeps any message from being stored twice,
 * whatever process stored it first and however the last one stopped.
 */

/**
 * An address as erased_senders keeps it: HMAC-SHA256 under the app secret 'erased_senders', so
 * the table names nobody to whoever reads it without that secret.
 */
export const senderHash = (key: Buffer, address: string) => createHmac('sha256', key).update(address.trim().toLowerCase()).digest('hex');

/** A Message-ID as erased_messages keeps it: HMAC-SHA256 under the same secret. */
export const messageHash = (key: Buffer, messageId: string) => createHmac('sha256', key).update(`message:${messageId}`).digest('hex');

/** The start of a reply, for the email that tells its owner: a few lines, whole words. */
function excerptOf(body: string): string {
  const text = body.replace(/\s+/g, ' ').trim();
  if (text.length <= 500) return text;
  const cut = text.slice(0, 500);
  return `${cut.slice(0, cut.lastIndexOf(' ') > 300 ? cut.lastIndexOf(' ') : 500)}…`;
}

const position = z.object({ uidvalidity: z.number().nullable(), last_uid: z.number() });
export type ReaderPosition = z.infer<typeof position>;

/**
 * Takes the mailbox for `leaseSeconds` unless another process holds it; answers where reading
 * goes on from, or undefined when another process reads it now.
 */
export async function claimMailbox(db: Db, mailbox: string, me: string, leaseSeconds: number): Promise<ReaderPosition | undefined> {
  const [row] = await queryRows(
    db,
    sql`
    insert into mail_readers (mailbox, locked_until, locked_by) values (${mailbox}, now() + make_interval(secs => ${leaseSeconds}), ${me})
    on conflict (mailbox) do update set locked_until = excluded.locked_until, locked_by = excluded.locked_by
      where mail_readers.locked_until is null or mail_readers.locked_until < now() or mail_readers.locked_by = ${me}
    returning uidvalidity::float8 as uidvalidity, last_uid::float8 as last_uid`,
    position,
  );
  return row;
}

/** Lets the mailbox go (this process stops reading it), with the look's outcome for Settings → Email. */
export async function releaseMailbox(db: Db, mailbox: string, me: string, error: string | null): Promise<void> {
  await execute(
    db,
    sql`
    update mail_readers set locked_until = null, locked_by = null, checked_at = now(), last_error = ${error === null ? null : error.slice(0, 500)}
    where mailbox = ${mailbox} and locked_by = ${me}`,
  );
}

/**
 * The mailbox was rebuilt (a new UIDVALIDITY): UIDs start again from 1. Messages read before are
 * known by their Message-ID, so they are not stored twice.
 */
export async function restartMailbox(db: Db, mailbox: string, me: string, uidvalidity: number): Promise<void> {
  await execute(
    db,
    sql`update mail_readers set uidvalidity = ${uidvalidity}, last_uid = 0 where mailbox = ${mailbox} and locked_by = ${me}`,
  );
}

/** Messages past `uid` were looked at and need no storing (none): the reader's progress alone. */
export async function advanceMailbox(db: Db, mailbox: string, me: string, uid: number): Promise<void> {
  await execute(db, sql`update mail_readers set last_uid = greatest(last_uid, ${uid}) where mailbox = ${mailbox} and locked_by = ${me}`);
}

export type StoredInbound = { id: string; lead_id: string | null } | 'duplicate' | 'not_ours';

/**
 * Stores one message read from the mailbox, and moves the reader past its UID, in one
 * transaction. It joins a lead when it answers a message we sent them (or one of theirs we
 * stored), else when it went to the lead's reply address (`tokens`), else when it is from a
 * lead's address (the newest such lead; "sender not verified" unless the receiving server saw
 * the domain pass). An answer joins the thread of the message it answers; any other starts its own. A lead's owner (everyone, for a lead with no owner) is notified. Nothing
 * happens when this process no longer holds the mailbox ('not_ours': another took it over).
 */
export async function storeInbound(
  db: Db,
  at: { mailbox: string; me: string; uidvalidity: number; uid: number },
  message: InboundMessage,
  tokens: readonly string[],
  erasedKey: Buffer,
  mail: QueueMail,
): Promise<StoredInbound> {
  const fromHash = senderHash(erasedKey, message.from.address);
  const erasedCopy = message.messageId ? messageHash(erasedKey, message.messageId) : null;
  return transaction(db, async (tx) => {
    const held = await execute(
      tx,
      sql`update mail_readers set last_uid = greatest(last_uid, ${at.uid}) where mailbox = ${at.mailbox} and locked_by = ${at.me}`,
    );
    if (held === 0) return 'not_ours';
    const answers = pgArray(message.answers);
    const [row] = await queryRows(
      tx,
      sql`
      with thread as (
        -- A message of ours vouches for the sender (only the lead had its Message-ID); one of
        -- theirs passes on whatever it was believed to be, so a forged one cannot be answered clean.
        select lead_id, email_id, verified, thread, at from (
          select e.lead_id, e.id as email_id, true as verified, coalesce(e.thread_id, e.id) as thread,
            coalesce(e.sent_at, e.created_at) as at, array_position(${answers}::text[], e.message_id) as rank
          from emails e where e.message_id = any(${answers}::text[]) and e.lead_id is not null
          union all
          select i.lead_id, null, i.sender_verified, coalesce(i.thread_id, i.id), i.received_at,
            array_position(${answers}::text[], i.message_id)
          from inbound_emails i where i.message_id = any(${answers}::text[]) and i.lead_id is not null and i.mailbox = ${at.mailbox}
        ) t order by rank, verified desc limit 1
      ), token as (
        select id from leads where reply_token = any(${pgArray(tokens)}::text[]) order by created_at desc limit 1
      ), erased as (
        select exists (select 1 from erased_senders where address_hash = ${fromHash}) as yes
      ), read_before as (
        -- A copy of mail erased with its sender's data (the mailbox was read again from its
        -- start): its Message-ID, or, without one, its sender's and a time before the erasure.
        select exists (select 1 from erased_messages where message_hash = ${erasedCopy}::text)
          or exists (select 1 from erased_senders where address_hash = ${fromHash}
                     and erased_at > ${message.receivedAt?.toISOString() ?? null}::timestamptz and ${erasedCopy}::text is null) as yes
      ), sender as (
        select id from leads where email = ${message.from.address} and ${message.from.address} <> '' and not (select yes from erased)
        order by created_at desc limit 1
      ), chosen as (
        select coalesce((select lead_id from thread), (select id from token), (select id from sender)) as lead_id,
          case when exists (select 1 from thread) then 'thread' when exists (select 1 from token) then 'token'
               when exists (select 1 from sender) then 'sender' end as matched_by
      ), added as (
        insert into inbound_emails (mailbox, uidvalidity, uid, message_id, in_reply_to, from_address, from_name, to_addresses,
          cc_addresses, subject, sent_at, received_at, body, lead_id, matched_by, sender_verified, answers_email_id, erased_sender,
          asks_to_stop, thread_id)
        select ${at.mailbox}, ${at.uidvalidity}, ${at.uid}, ${message.messageId}, ${message.inReplyTo}, ${message.from.address},
          ${message.from.name}, ${message.to}, ${message.cc}, ${message.subject}, ${message.date?.toISOString() ?? null}::timestamptz,
          -- Never before the message it answers: a mail server's clock, or its dates to the second,
          -- could put an answer first, and the conversation would read out of order.
          greatest(coalesce(${message.receivedAt?.toISOString() ?? null}::timestamptz, now()),
            (select at + interval '1 millisecond' from thread)), ${message.body}, c.lead_id, c.matched_by,
          case c.matched_by when 'sender' then ${message.senderVerified} when 'thread' then (select verified from thread) else true end,
          (select email_id from thread), (select yes from erased), ${message.asksToStop}, (select thread from thread)
        from chosen c
        where not (select yes from read_before)
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
        select user_id, 'reply', full_name || ' replied', lead_id from told
      ), emailed as (
        insert into emails (message_id, status, last_error, kind, to_address, data, lead_id)
        select ${newEmail(mail)}, 'lead-reply', t.email,
          jsonb_build_object('lead_id', t.lead_id, 'lead_name', t.full_name, 'from', ${message.from.address}::text,
            'subject', ${message.subject}::text, 'excerpt', ${excerptOf(message.body)}::text),
          t.lead_id
        from told t where t.email_replies
      )
      select id, lead_id from added`,
      z.object({ id: z.uuid(), lead_id: z.uuid().nullable() }),
    );
    if (!row) return 'duplicate';
    for (const file of message.attachments) {
      await execute(
        tx,
        sql`insert into inbound_attachments (email_id, filename, content_type, size, content)
            values (${row.id}, ${file.filename}, ${file.contentType}, ${file.size}, ${file.content})`,
      );
    }
    return row;
  });
}

/** A file that came with a reply, for download; undefined for none (or not of that message). */
export async function readAttachment(
  db: Db,
  emailId: string,
  attachmentId: string,
): Promise<{ filename: string; content: Buffer } | undefined> {
  const [row] = await queryRows(
    db,
    sql`select filename, content from inbound_attachments where id = ${attachmentId} and email_id = ${emailId}`,
    z.object({ filename: z.string(), content: z.instanceof(Uint8Array) }),
  );
  return row ? { filename: row.filename, content: Buffer.from(row.content) } : undefined;
}

/** Marks the lead's replies read (someone opened the lead's page); answers how many were unread, or undefined for no such lead. */
export async function markRepliesRead(db: Db, leadId: string, upTo?: string): Promise<number | undefined> {
  const [row] = await queryRows(
    db,
    sql`
    with lead as (select id from leads where id = ${leadId}),
    -- Only what the page showed: a reply that came after it was drawn stays unread.
    marked as (
      update inbound_emails set read_at = now()
      where lead_id = ${leadId} and read_at is null ${upTo ? sql`and date_trunc('milliseconds', received_at) <= ${upTo}::timestamptz` : sql``}
      returning 1)
    select (select count(*) from marked)::int as marked, exists (select 1 from lead) as found`,
    z.object({ marked: z.number(), found: z.boolean() }),
  );
  return row?.found ? row.marked : undefined;
}

/** The reply mailbox's last look (Settings → Email). */
export async function readerStatus(db: Db, mailbox: string): Promise<{ checked_at: string | null; error: string | null }> {
  const [row] = await queryRows(
    db,
    sql`select ${isoTimestamp(sql`checked_at`)} as checked_at, last_error as error from mail_readers where mailbox = ${mailbox}`,
    z.object({ checked_at: z.string().nullable(), error: z.string().nullable() }),
  );
  return row ?? { checked_at: null, error: null };
}

export const inboxColumns = sql`i.id, i.from_address as from, i.from_name, i.to_addresses as to, i.cc_addresses as cc, i.subject, i.erased_sender,
  left(i.body, 20000) as body, length(i.body) > 20000 as truncated, ${isoTimestamp(sql`i.sent_at`)} as sent_at,
  ${isoTimestamp(sql`i.received_at`)} as received_at, ${isoTimestamp(sql`i.dismissed_at`)} as dismissed_at,
  (select coalesce(json_agg(json_build_object('id', a.id, 'filename', a.filename, 'size', a.size) order by a.filename, a.id), '[]'::json)
     from inbound_attachments a where a.email_id = i.id) as attachments`;

/** Mail that joined no lead, newest first: waiting (or dismissed, kept 30 days); and how many wait. */
export async function listInbox(db: Db, view: 'open' | 'dismissed', limit: number): Promise<{ messages: InboxMessage[]; open: number }> {
  const messages = await queryRows(
    db,
    sql`select ${inboxColumns} from inbound_emails i
        where i.lead_id is null and i.dismissed_at is ${view === 'open' ? sql`null` : sql`not null`}
        order by i.received_at desc, i.id desc limit ${limit}`,
    inboxMessageSchema,
  );
  const [count] = await queryRows(
    db,
    sql`select count(*)::int as n from inbound_emails where lead_id is null and dismissed_at is null`,
    z.object({ n: z.number() }),
  );
  return { messages, open: count?.n ?? 0 };
}

/** Why a message of the Inbox could not be moved: gone, or already on a lead's page. */
export type InboxRefusal = 'not_found' | 'attached';

/** Puts a message of the Inbox on a lead's page (staff chose the lead). */
export async function attachInbound(db: Db, id: string, leadId: string): Promise<true | InboxRefusal | 'no_lead'> {
  const [row] = await queryRows(
    db,
    sql`
    with lead as (select id from leads where id = ${leadId}),
    moved as (
      update inbound_emails set lead_id = (select id from lead), matched_by = 'staff', sender_verified = true, read_at = now(), dismissed_at = null
      where id = ${id} and lead_id is null and exists (select 1 from lead)
      returning id)
    select exists (select 1 from moved) as moved, exists (select 1 from lead) as lead,
      (select lead_id is not null from inbound_emails where id = ${id}) as attached`,
    z.object({ moved: z.boolean(), lead: z.boolean(), attached: z.boolean().nullable() }),
  );
  if (row?.moved) return true;
  if (row?.attached === null || row?.attached === undefined) return 'not_found';
  if (row.attached) return 'attached';
  return 'no_lead';
}

/** Dismisses a message of the Inbox (deleted after 30 days) or brings it back. */
export async function dismissInbound(db: Db, id: string, dismissed: boolean): Promise<true | InboxRefusal> {
  const [row] = await queryRows(
    db,
    sql`
    with changed as (
      update inbound_emails set dismissed_at = ${dismissed ? sql`coalesce(dismissed_at, now())` : sql`null`}
      where id = ${id} and lead_id is null returning id)
    select exists (select 1 from changed) as changed, (select lead_id is not null from inbound_emails where id = ${id}) as attached`,
    z.object({ changed: z.boolean(), attached: z.boolean().nullable() }),
  );
  if (row?.changed) return true;
  return row?.attached ? 'attached' : 'not_found';
}

/** Locks a message of the Inbox for making a lead of it; false when it is gone or on a lead's page already. */
export async function lockInboxMessage(tx: Db, id: string): Promise<boolean> {
  const rows = await queryRows(
    tx,
    sql`select id from inbound_emails where id = ${id} and lead_id is null for update`,
    z.object({ id: z.uuid() }),
  );
  return rows.length > 0;
}

/** Dismissed Inbox mail older than 30 days, with its attachments: deleted (the clean-up job). */
export async function deleteDismissedInbox(db: Db): Promise<number> {
  return execute(db, sql`delete from inbound_emails where lead_id is null and dismissed_at < now() - interval '30 days'`);
}

/** Whether a message read from the mailbox is on a lead's page (undefined: no such message). */
export async function isOnALead(db: Db, id: string): Promise<boolean | undefined> {
  const [row] = await queryRows(
    db,
    sql`select lead_id is not null as attached from inbound_emails where id = ${id}`,
    z.object({ attached: z.boolean() }),
  );
  return row?.attached;
}

/** Staff say a reply does not ask to stop (the lead page's notice goes); false for no such reply of that lead. */
export async function dismissStopRequest(db: Db, leadId: string, id: string): Promise<boolean> {
  return (
    (await execute(db, sql`update inbound_emails set asks_to_stop = false where id = ${id} and lead_id = ${leadId} and asks_to_stop`)) > 0
  );
}
