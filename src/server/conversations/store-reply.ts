import type { Db } from '../db/client.ts';
import type { QueueMail } from '../db/queries/emails-queries.ts';
import { advanceMailbox } from '../db/queries/inbound-emails-queries.ts';
import { insertReply, insertReplyAttachments, readReplyCandidates, type MailboxPlace } from '../db/queries/inbound-replies-queries.ts';
import { transaction } from '../db/sql.ts';
import type { InboundMessage } from '../lib/inbound-message.ts';
import { matchReply } from './match-reply.ts';
import { replyExcerpt } from './reply-excerpt.ts';

export type StoredReply = { id: string; lead_id: string | null } | 'duplicate' | 'not_ours';

/**
 * Stores one message read from the reply mailbox (reply-reader.ts) with its match to a lead
 * (match-reply.ts: by its thread, else the reply address's token in `tokens`, else its sender),
 * tells the lead's owner, and moves the reader past its UID: one transaction, so a process killed
 * at any point leaves all of it or none. Three guards hold across processes, each in the
 * database:
 * - the mailbox's lease: the first statement moves the reader only while this process holds the
 *   mailbox (advanceMailbox, `locked_by`), and keeps that row locked until the commit; a process
 *   whose lease ran out stores nothing ('not_ours': another took the mailbox over);
 * - stored once: inbound_emails' unique UID and Message-ID per mailbox; the insert (insertReply)
 *   does nothing for a message stored already, by whoever ('duplicate');
 * - told once: the owner's notification and email are written by the statement that stored the
 *   message (the owner; everyone when the lead has none or its owner can no longer sign in).
 * The candidates are read one statement before the insert: a lead erased in between fails the
 * insert on its foreign key, as it did when the two were one statement, and the reader keeps a
 * note of the message instead (reply-reader.ts, store). A copy of erased mail is stored as
 * nothing ('duplicate').
 */
export async function storeReply(
  db: Db,
  at: MailboxPlace,
  message: InboundMessage,
  tokens: readonly string[],
  erasedKey: Buffer,
  mail: QueueMail,
): Promise<StoredReply> {
  return transaction(db, async (tx) => {
    if ((await advanceMailbox(tx, at.mailbox, at.me, at.uid)) === 0) return 'not_ours';
    const match = matchReply(await readReplyCandidates(tx, at.mailbox, message, tokens, erasedKey), message);
    if (match === 'read_before') return 'duplicate';
    const row = await insertReply(tx, at, message, match, replyExcerpt(message.body), mail);
    if (!row) return 'duplicate';
    await insertReplyAttachments(tx, row.id, message.attachments);
    return row;
  });
}
