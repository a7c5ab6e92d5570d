import { describe, expect, it } from 'vitest';
import type { AnsweredMessage, ReplyCandidates } from '../db/queries/inbound-replies-queries.ts';
import { matchReply } from './match-reply.ts';

const nothingKnown: ReplyCandidates = {
  answered: [],
  tokenLead: null,
  senderLeads: [],
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
const fromTheLead = { senderVerified: true, fromSomeoneElse: false };
const notShown = { senderVerified: false, fromSomeoneElse: false };
const someoneElse = { senderVerified: false, fromSomeoneElse: true };

describe('matchReply', () => {
  it('joins the lead of the message it answers first, into its thread after it', () => {
    expect(matchReply(known({ answered: [ours], tokenLead: 'lead-thread', senderLeads: ['lead-thread', 'lead-sender'] }), message)).toEqual(
      {
        leadId: 'lead-thread',
        matchedBy: 'thread',
        ...fromTheLead,
        answersEmailId: 'email-1',
        threadId: 'thread-1',
        answeredAt: '2026-11-27T10:00:00.123456Z',
        erasedSender: false,
      },
    );
  });

  it('takes its verification from its own sender, never from the thread it names', () => {
    // The lead's address, sent to their reply address: verified.
    expect(matchReply(known({ answered: [ours], tokenLead: 'lead-thread', senderLeads: ['lead-thread'] }), message)).toMatchObject(
      fromTheLead,
    );
    // The lead's address, and the firm's mail host saw the domain pass: verified.
    expect(matchReply(known({ answered: [ours], senderLeads: ['lead-thread'] }), { ...message, senderVerified: true })).toMatchObject(
      fromTheLead,
    );
    // The lead's address, nothing shown: not verified, however verified the message it answers.
    expect(matchReply(known({ answered: [ours], senderLeads: ['lead-thread'] }), message)).toMatchObject(notShown);
    // Another lead's reply address is no proof for this one.
    expect(matchReply(known({ answered: [ours], tokenLead: 'lead-other', senderLeads: ['lead-thread'] }), message)).toMatchObject(notShown);
    // Another address than the lead's, even one whose own domain passed: from someone else.
    expect(matchReply(known({ answered: [ours] }), { ...message, senderVerified: true })).toMatchObject({
      leadId: 'lead-thread',
      matchedBy: 'thread',
      ...someoneElse,
    });
    expect(matchReply(known({ answered: [ours], senderLeads: ['lead-other'] }), message)).toMatchObject(someoneElse);
  });

  it('answering one of theirs answers no email of ours', () => {
    expect(matchReply(known({ answered: [theirs], senderLeads: ['lead-theirs'] }), { ...message, senderVerified: true })).toMatchObject({
      leadId: 'lead-theirs',
      matchedBy: 'thread',
      ...fromTheLead,
      answersEmailId: null,
      threadId: 'thread-2',
    });
  });

  it('takes the first message it names (In-Reply-To, then References from the newest), a verified one first among copies of one', () => {
    expect(matchReply(known({ answered: [theirs, { ...ours, rank: 3 }] }), message)).toMatchObject({ leadId: 'lead-theirs' });
    const copy = { ...theirs, rank: 1, leadId: 'lead-copy' };
    expect(matchReply(known({ answered: [copy, ours] }), message)).toMatchObject({ leadId: 'lead-thread' });
    expect(matchReply(known({ answered: [ours, copy] }), message)).toMatchObject({ leadId: 'lead-thread' });
  });

  it('else joins the lead of the reply address it was sent to, in a thread of its own: verified from the lead’s address', () => {
    expect(matchReply(known({ tokenLead: 'lead-token', senderLeads: ['lead-token'] }), message)).toEqual({
      leadId: 'lead-token',
      matchedBy: 'token',
      ...fromTheLead,
      ...unthreaded,
      erasedSender: false,
    });
    expect(matchReply(known({ tokenLead: 'lead-token', senderLeads: ['lead-sender'] }), message)).toEqual({
      leadId: 'lead-token',
      matchedBy: 'token',
      ...someoneElse,
      ...unthreaded,
      erasedSender: false,
    });
  });

  it('else joins the newest lead with its From address, verified only as far as the firm’s mail host saw the domain pass', () => {
    expect(matchReply(known({ senderLeads: ['lead-newest', 'lead-older'] }), message)).toEqual({
      leadId: 'lead-newest',
      matchedBy: 'sender',
      ...notShown,
      ...unthreaded,
      erasedSender: false,
    });
    expect(matchReply(known({ senderLeads: ['lead-sender'] }), { ...message, senderVerified: true })).toMatchObject({
      matchedBy: 'sender',
      ...fromTheLead,
    });
  });

  it('never matches by an empty From address', () => {
    expect(matchReply(known({ senderLeads: ['lead-sender'] }), { ...message, from: { name: '', address: '' } })).toMatchObject({
      leadId: null,
      matchedBy: null,
    });
  });

  it('else joins no lead (the Inbox), with nothing to verify', () => {
    expect(matchReply(nothingKnown, message)).toEqual({
      leadId: null,
      matchedBy: null,
      senderVerified: true,
      fromSomeoneElse: false,
      ...unthreaded,
      erasedSender: false,
    });
  });

  it('never matches an erased person by their address, marks their mail as theirs however it matched', () => {
    const erased = { senderErased: true, senderLeads: ['lead-sender'] };
    expect(matchReply(known(erased), message)).toMatchObject({ leadId: null, matchedBy: null, senderVerified: true, erasedSender: true });
    expect(matchReply(known({ ...erased, tokenLead: 'lead-token' }), message)).toMatchObject({
      leadId: 'lead-token',
      matchedBy: 'token',
      erasedSender: true,
      ...someoneElse,
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
