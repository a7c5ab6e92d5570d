import type { ReplyCandidates, ReplyMatch } from '../db/queries/inbound-replies-queries.ts';
import type { InboundMessage } from '../lib/inbound-message.ts';
import { answeredMessage } from './reply-thread.ts';

/**
 * Which lead a message read from the reply mailbox belongs to (docs/product-rules.md,
 * "Timeline"), decided from what the database knows about it (db/queries/inbound-replies-queries.ts,
 * readReplyCandidates, in the storing transaction: conversations/store-reply.ts):
 * 1. the thread: it answers a message of ours to a lead, or one of theirs we stored
 *    (reply-thread.ts says which);
 * 2. else the reply token: it was sent (To or Cc) to a lead's reply address (`replies+token@…`);
 * 3. else the sender: a lead has its From address (the newest such lead), unless that person's
 *    data was erased;
 * 4. else no lead: it waits in the Inbox.
 * Whichever way it joined, its verification comes from its own sender, never from the thread it
 * names (a lead's Message-IDs are known to everyone the lead ever wrote to):
 * - from another address than the lead's: "from someone else", not verified;
 * - from the lead's address: verified when it was sent to that lead's own reply address, or when
 *   the receiving server saw the sender's domain pass (DMARC, or SPF and DKIM: inbound-mail.ts,
 *   senderPassed, which believes only the firm's own mail host); else "sender not verified".
 * Mail from an erased person is marked so (the Inbox says it is theirs) however it matched. A
 * copy of mail erased with its sender's data, read again when the mailbox is read from its start,
 * is not stored at all: known by its Message-ID, or without one by its sender erased after it
 * arrived.
 */

/** The message's match, or 'read_before' for a copy of erased mail (stored as nothing). */
export function matchReply(
  candidates: ReplyCandidates,
  message: Pick<InboundMessage, 'messageId' | 'from' | 'senderVerified'>,
): ReplyMatch | 'read_before' {
  if (candidates.copyErased || (!message.messageId && candidates.senderErasedSinceArrival)) return 'read_before';
  const erasedSender = candidates.senderErased;
  /** Who sent it, to the lead it joins: the lead themselves (verified or not), or someone else. */
  const sender = (leadId: string) => {
    if (!candidates.senderLeads.includes(leadId)) return { senderVerified: false, fromSomeoneElse: true };
    return { senderVerified: candidates.tokenLead === leadId || message.senderVerified, fromSomeoneElse: false };
  };
  const answered = answeredMessage(candidates.answered);
  if (answered)
    return {
      leadId: answered.leadId,
      matchedBy: 'thread',
      ...sender(answered.leadId),
      answersEmailId: answered.emailId,
      threadId: answered.thread,
      answeredAt: answered.at,
      erasedSender,
    };
  const unthreaded = { answersEmailId: null, threadId: null, answeredAt: null, erasedSender };
  if (candidates.tokenLead !== null)
    return { leadId: candidates.tokenLead, matchedBy: 'token', ...sender(candidates.tokenLead), ...unthreaded };
  const senderLead = candidates.senderLeads[0];
  if (message.from.address !== '' && !erasedSender && senderLead !== undefined)
    return { leadId: senderLead, matchedBy: 'sender', ...sender(senderLead), ...unthreaded };
  return { leadId: null, matchedBy: null, senderVerified: true, fromSomeoneElse: false, ...unthreaded };
}
