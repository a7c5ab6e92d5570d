import { describe, expect, it } from 'vitest';
import { buildLeadRequest, newSubmissionId } from './lead-request.ts';

const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe('buildLeadRequest', () => {
  it('adds the honeypot, the idempotency key and the form token', () => {
    const lead = { full_name: 'A', email: 'a@b.co', phone: '1', property_types: ['other' as const] };
    expect(buildLeadRequest(lead, { website: '', submissionId: 'id', formToken: 'token' })).toEqual({
      ...lead,
      website: '',
      submission_id: 'id',
      form_token: 'token',
    });
  });
});

describe('newSubmissionId', () => {
  it('makes a v4 UUID, also where crypto.randomUUID is missing (plain http)', () => {
    expect(newSubmissionId()).toMatch(UUID_V4);
    const original = crypto.randomUUID;
    Object.defineProperty(crypto, 'randomUUID', { value: undefined, configurable: true });
    try {
      const id = newSubmissionId();
      expect(id).toMatch(UUID_V4);
      expect(newSubmissionId()).not.toBe(id);
    } finally {
      Object.defineProperty(crypto, 'randomUUID', { value: original, configurable: true });
    }
  });
});
