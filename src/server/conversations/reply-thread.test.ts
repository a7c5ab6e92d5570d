import { describe, expect, it } from 'vitest';
import type { AnsweredMessage } from '../db/queries/inbound-replies-queries.ts';
import { answeredMessage } from './reply-thread.ts';

const message = (rank: number, verified: boolean, leadId = `lead-${rank}-${verified}`): AnsweredMessage => ({
  leadId,
  emailId: null,
  verified,
  thread: `thread-${leadId}`,
  at: '2026-11-27T10:00:00.000000Z',
  rank,
});

describe('answeredMessage', () => {
  it('is none when the reply names nothing we know', () => {
    expect(answeredMessage([])).toBeUndefined();
  });

  it('is the first it names (In-Reply-To, then References from the newest), whatever order they were read in', () => {
    expect(answeredMessage([message(3, true), message(1, false), message(2, true)])?.leadId).toBe('lead-1-false');
  });

  it('among copies of one message, a verified one; among equals, the first listed', () => {
    expect(answeredMessage([message(1, false), message(1, true)])?.leadId).toBe('lead-1-true');
    expect(answeredMessage([message(1, true, 'first'), message(1, true, 'second')])?.leadId).toBe('first');
  });
});
