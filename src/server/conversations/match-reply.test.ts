import { describe, expect, it } from 'vitest';
import type { AnsweredMessage, ReplyCandidates } from '../db/queries/inbound-replies-queries.ts';
import { matchReply } from './match-reply.ts';

const nothingKnown: ReplyCandidates = {
  answered: [],
  tokenLead: null,
  senderLead: null,
  senderErased: false,
  senderErasedSinceArrival: false,
  copyErased: false,
};
const known = (c: Partial<ReplyCandidates>): ReplyCandidates => ({ ...nothingKnown, ...c });
const message = { messageId: '<reply@example.org>', from: { name: 'Jane', address: 'jane@example.com' }, senderVerified: false };
const ours: AnsweredMessage = {
  leadId: 'lead-thread',
  emailId: 'email-1',
  verified: true,
  thread: 'thread-1',
  at: '2026-11-27T10:00:00.123456Z',
  rank: 1,
};
const theirs: AnsweredMessage = { ...ours, leadId: 'lead-theirs', emailId: null, verified: false, thread: 'thread-2', rank: 2 };
const unthreaded = { answersEmailId: null, threadId: null, answeredAt: null };

describe('matchReply', () => {
  it('joins the lead of the message it answers first: ours vouch for the sender, and the reply goes into its thread after it', () => {
    expect(matchReply(known({ answered: [ours], tokenLead: 'lead-token', senderLead: 'lead-sender' }), message)).toEqual({
      leadId: 'lead-thread',
      matchedBy: 'thread',
      senderVerified: true,
      answersEmailId: 'email-1',
      threadId: 'thread-1',
      answeredAt: '2026-11-27T10:00:00.123456Z',
      erasedSender: false,
    });
  });

  it('answering one of theirs passes on what it was believed to be, and answers no email of ours', () => {
    expect(matchReply(known({ answered: [theirs] }), { ...message, senderVerified: true })).toMatchObject({
      leadId: 'lead-theirs',
      matchedBy: 'thread',
      senderVerified: false,
      answersEmailId: null,
      threadId: 'thread-2',
    });
  });

  it('takes the first message it names (In-Reply-To, then References from the newest), a verified one first among copies of one', () => {
    expect(matchReply(known({ answered: [theirs, { ...ours, rank: 3 }] }), message)).toMatchObject({ leadId: 'lead-theirs' });
    const copy = { ...theirs, rank: 1, leadId: 'lead-copy' };
    expect(matchReply(known({ answered: [copy, ours] }), message)).toMatchObject({ leadId: 'lead-thread', senderVerified: true });
    expect(matchReply(known({ answered: [ours, copy] }), message)).toMatchObject({ leadId: 'lead-thread' });
  });

  it('else joins the lead of the reply address it was sent to, verified, in a thread of its own', () => {
    expect(matchReply(known({ tokenLead: 'lead-token', senderLead: 'lead-sender' }), message)).toEqual({
      leadId: 'lead-token',
      matchedBy: 'token',
      senderVerified: true,
      ...unthreaded,
      erasedSender: false,
    });
  });

  it('else joins the lead with its From address, verified only as far as the receiving server saw the domain pass', () => {
    expect(matchReply(known({ senderLead: 'lead-sender' }), message)).toEqual({
      leadId: 'lead-sender',
      matchedBy: 'sender',
      senderVerified: false,
      ...unthreaded,
      erasedSender: false,
    });
    expect(matchReply(known({ senderLead: 'lead-sender' }), { ...message, senderVerified: true })).toMatchObject({
      matchedBy: 'sender',
      senderVerified: true,
    });
  });

  it('never matches by an empty From address', () => {
    expect(matchReply(known({ senderLead: 'lead-sender' }), { ...message, from: { name: '', address: '' } })).toMatchObject({
      leadId: null,
      matchedBy: null,
    });
  });

  it('else joins no lead (the Inbox), with nothing to verify', () => {
    expect(matchReply(nothingKnown, message)).toEqual({
      leadId: null,
      matchedBy: null,
      senderVerified: true,
      ...unthreaded,
      erasedSender: false,
    });
  });

  it('never matches an erased person by their address, marks their mail as theirs however it matched', () => {
    const erased = { senderErased: true, senderLead: 'lead-sender' };
    expect(matchReply(known(erased), message)).toMatchObject({ leadId: null, matchedBy: null, senderVerified: true, erasedSender: true });
    expect(matchReply(known({ ...erased, tokenLead: 'lead-token' }), message)).toMatchObject({
      leadId: 'lead-token',
      matchedBy: 'token',
      erasedSender: true,
    });
    expect(matchReply(known({ ...erased, answered: [ours] }), message)).toMatchObject({
      leadId: 'lead-thread',
      matchedBy: 'thread',
      erasedSender: true,
    });
  });

  it('stores nothing of a copy of erased mail read again: known by its Message-ID, or without one by its sender erased since', () => {
    expect(matchReply(known({ copyErased: true, answered: [ours] }), message)).toBe('read_before');
    expect(matchReply(known({ senderErased: true, senderErasedSinceArrival: true }), { ...message, messageId: null })).toBe('read_before');
    expect(matchReply(known({ senderErased: true, senderErasedSinceArrival: true }), { ...message, messageId: '' })).toBe('read_before');
    // With a Message-ID, only that Message-ID says it was erased: mail sent after the erasure is kept, marked.
    expect(matchReply(known({ senderErased: true, senderErasedSinceArrival: true }), message)).toMatchObject({ erasedSender: true });
    expect(matchReply(known({ senderErased: true }), { ...message, messageId: null })).toMatchObject({ erasedSender: true, leadId: null });
  });
});
