import { describe, expect, it } from 'vitest';
import { buildLeadPatch, type EditLeadFields, type EditLeadFormValues } from './lead-form-model.ts';

const initial: EditLeadFormValues = {
  full_name: 'Ada Lovelace',
  email: 'ada@example.com',
  phone: '555-0101',
  property_type: 'land',
  message: 'Two acres',
  contacted: 'no',
  status: 'New',
};
const unchanged: EditLeadFields = {
  full_name: 'Ada Lovelace',
  email: 'ada@example.com',
  phone: '555-0101',
  property_types: ['land'],
  message: 'Two acres',
  contacted: false,
  status: 'New',
};

describe('buildLeadPatch', () => {
  it('is empty when nothing changed', () => {
    expect(buildLeadPatch(initial, unchanged)).toEqual({});
  });

  it('carries only the changed fields, in the contract shape', () => {
    expect(buildLeadPatch(initial, { ...unchanged, property_types: ['commercial'], contacted: true })).toEqual({
      property_types: ['commercial'],
      contacted: true,
    });
    expect(buildLeadPatch(initial, { ...unchanged, status: 'Dropped' })).toEqual({ status: 'Dropped' });
  });

  it('sends an emptied message as an empty string (the server stores null)', () => {
    expect(buildLeadPatch(initial, { ...unchanged, message: '' })).toEqual({ message: '' });
    expect(buildLeadPatch({ ...initial, message: '' }, { ...unchanged, message: '' })).toEqual({});
  });

  it('does not count an email stored in other letter case as a change', () => {
    expect(buildLeadPatch({ ...initial, email: 'Ada@Example.com' }, unchanged)).toEqual({});
  });
});
