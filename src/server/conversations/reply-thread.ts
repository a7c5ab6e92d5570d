import type { AnsweredMessage } from '../db/queries/inbound-replies-queries.ts';

/**
 * Threads of incoming mail (docs/product-rules.md, "Timeline"): a reply joins the thread of the
 * message it answers, ours or theirs, and any other message starts its own. The message it
 * answers is the first of its In-Reply-To and References (newest first) that we know on a lead;
 * where one Message-ID is known twice (ours, and a copy of it read back from the mailbox), a
 * verified one first (ours always is), else the first the database listed. The reply is never placed before the message it answers: it is
 * stored at least a millisecond after it (db/queries/inbound-replies-queries.ts, insertReply, adds the
 * millisecond to `at`, kept to the microsecond, against the transaction's own clock). Our
 * **Reply** joins the thread of what it answers in db/queries/lead-messages-queries.ts (queueLeadMessage,
 * CTE `parent`), in the statement that queues it.
 */

/** The message a reply answers, of those it names that we know; undefined when it answers none. */
export function answeredMessage(known: readonly AnsweredMessage[]): AnsweredMessage | undefined {
  return [...known].sort((a, b) => a.rank - b.rank || Number(b.verified) - Number(a.verified))[0];
}
