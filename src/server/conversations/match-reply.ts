import type { ReplyCandidates, ReplyMatch } from '../db/queries/inbound-replies-queries.ts';
import type { InboundMessage } from '../lib/inbound-message.ts';
import { answeredMessage } from './reply-thread.ts';

/**
 * Which lead a message read from the reply mailbox belongs to (docs/product-rules.md,
 * "Timeline"), decided from what the database knows about it (db/queries/inbound-replies-queries.ts,
 * readReplyCandidates, in the storing transaction: conversations/store-reply.ts):
 * 1. the thread: it answers a message of ours to a lead, or one of theirs we stored
 *    (reply-thread.ts says which); as verified as that message;
 * 2. else the reply token: it was sent to a lead's reply address (`replies+token@…`); verified;
 * 3. else the sender: a lead has its From address (the newest such lead), unless that person's
 *    data was erased; verified only when the receiving server saw the domain pass (DMARC, or SPF
 *    and DKIM: inbound-mail.ts, senderPassed);
 * 4. else no lead: it waits in the Inbox.
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
  const answered = answeredMessage(candidates.answered);
  if (answered)
    return {
      leadId: answered.leadId,
      matchedBy: 'thread',
      senderVerified: answered.verified,
      answersEmailId: answered.emailId,
      threadId: answered.thread,
      answeredAt: answered.at,
      erasedSender,
    };
  const unthreaded = { answersEmailId: null, threadId: null, answeredAt: null, erasedSender };
  if (candidates.tokenLead !== null) return { leadId: candidates.tokenLead, matchedBy: 'token', senderVerified: true, ...unthreaded };
  if (message.from.address !== '' && !erasedSender && candidates.senderLead !== null)
    return { leadId: candidates.senderLead, matchedBy: 'sender', senderVerified: message.senderVerified, ...unthreaded };
  return { leadId: null, matchedBy: null, senderVerified: true, ...unthreaded };
}
