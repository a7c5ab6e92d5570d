import { createHmac } from 'node:crypto';
import { sql } from 'drizzle-orm';
import * as z from 'zod';
import { inboxMessageSchema, type InboxMessage } from '#shared/schemas/inbox';
import type { Db } from '../client.ts';
import { execute, isoTimestamp, queryRows } from '../sql.ts';

/**
 * The reply mailbox's reader (conversations/reply-reader.ts) and what it stores. One process at a time reads
 * a mailbox (a lease in mail_readers); each message is stored in one transaction with the UID
 * it came with, its match to a lead, the owner's notification and the reader's progress
 * (conversations/store-reply.ts, with inbound-replies.ts's statements), and the unique UID (and Message-ID) of inbound_emails keeps
 * any message from being stored twice, whatever process stored it first and however the last
 * one stopped.
 */

/**
 * An address as erased_senders keeps it: HMAC-SHA256 under the app secret 'erased_senders', so
 * the table names nobody to whoever reads it without that secret.
 */
export const senderHash = (key: Buffer, address: string) => createHmac('sha256', key).update(address.trim().toLowerCase()).digest('hex');

/** A Message-ID as erased_messages keeps it: HMAC-SHA256 under the same secret. */
export const messageHash = (key: Buffer, messageId: string) => createHmac('sha256', key).update(`message:${messageId}`).digest('hex');

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
    insert into mail_readers (mailbox, locked_until, locked_by) values (${mailbox}, crm_now() + make_interval(secs => ${leaseSeconds}), ${me})
    on conflict (mailbox) do update set locked_until = excluded.locked_until, locked_by = excluded.locked_by
      where mail_readers.locked_until is null or mail_readers.locked_until < crm_now() or mail_readers.locked_by = ${me}
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
    update mail_readers set locked_until = null, locked_by = null, checked_at = crm_now(), last_error = ${error === null ? null : error.slice(0, 500)}
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

/**
 * Moves the reader past `uid` while this process holds the mailbox (`me`): answers 0 when it no
 * longer does. In a transaction, the row stays locked until the commit, so another process
 * cannot take the mailbox over meanwhile.
 */
export async function advanceMailbox(db: Db, mailbox: string, me: string, uid: number): Promise<number> {
  return execute(db, sql`update mail_readers set last_uid = greatest(last_uid, ${uid}) where mailbox = ${mailbox} and locked_by = ${me}`);
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
      update inbound_emails set read_at = crm_now()
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
      update inbound_emails set lead_id = (select id from lead), matched_by = 'staff', sender_verified = true, read_at = crm_now(), dismissed_at = null
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
      update inbound_emails set dismissed_at = ${dismissed ? sql`coalesce(dismissed_at, crm_now())` : sql`null`}
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
  return execute(db, sql`delete from inbound_emails where lead_id is null and dismissed_at < crm_now() - interval '30 days'`);
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
