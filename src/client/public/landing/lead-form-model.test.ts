import { describe, expect, it } from 'vitest';
import { EMPTY_LEAD_FORM, buildLeadRequest, newSubmissionId, toFormErrors, validateLeadForm } from './lead-form-model.ts';

const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe('validateLeadForm', () => {
  it('maps the select to a one-item property_types array and drops an empty message', () => {
    const result = validateLeadForm({
      ...EMPTY_LEAD_FORM,
      full_name: ' Ann ',
      email: 'ANN@EXAMPLE.COM',
      phone: '555',
      property_type: 'land',
    });
    expect(result).toEqual({
      ok: true,
      lead: { full_name: 'Ann', email: 'ann@example.com', phone: '555', property_types: ['land'], message: undefined },
    });
  });

  it('reports the spec messages keyed by form field', () => {
    expect(validateLeadForm({ ...EMPTY_LEAD_FORM, full_name: '  ' })).toEqual({
      ok: false,
      errors: {
        full_name: 'Name is required',
        email: 'Email is required',
        phone: 'Phone number is required',
        property_type: 'Property type is required',
      },
    });
  });

  it('rejects a property type outside the five', () => {
    const result = validateLeadForm({ ...EMPTY_LEAD_FORM, full_name: 'A', email: 'a@b.co', phone: '1', property_type: 'castle' });
    expect(result.ok).toBe(false);
    expect(!result.ok && result.errors.property_type).toBe('Property type is required');
  });
});

describe('toFormErrors', () => {
  it('renames property_types and ignores fields the form does not show', () => {
    expect(toFormErrors({ property_types: 'Property type is required', submission_id: 'x', email: 'Invalid email address' })).toEqual({
      property_type: 'Property type is required',
      email: 'Invalid email address',
    });
  });
});

describe('buildLeadRequest', () => {
  it('adds the honeypot, the idempotency key and a whole, non-negative fill time', () => {
    const lead = { full_name: 'A', email: 'a@b.co', phone: '1', property_types: ['other' as const] };
    expect(buildLeadRequest(lead, { website: '', submissionId: 'id', fillMs: 1234.6 })).toEqual({
      ...lead,
      website: '',
      submission_id: 'id',
      fill_ms: 1235,
    });
    expect(buildLeadRequest(lead, { website: '', submissionId: 'id', fillMs: -3 }).fill_ms).toBe(0);
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
