import { describe, expect, it } from 'vitest';
import { EMPTY_LEAD_FORM, toFormErrors, toFormField, validateLeadForm } from './lead-form.ts';

describe('validateLeadForm', () => {
  it('maps the select to a one-item property_types array and drops an empty message', () => {
    const result = validateLeadForm({
      ...EMPTY_LEAD_FORM,
      full_name: ' Ann ',
      email: 'ANN@EXAMPLE.COM',
      phone: '555',
      property_type: 'land',
      message: '  ',
    });
    expect(result).toEqual({
      ok: true,
      lead: { full_name: 'Ann', email: 'ann@example.com', phone: '555', property_types: ['land'], message: undefined },
    });
  });

  it('reports the product messages keyed by form field', () => {
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
    expect(result).toEqual({ ok: false, errors: { property_type: 'Property type is required' } });
  });
});

describe('toFormErrors and toFormField', () => {
  it('rename property_types and ignore fields the form does not show', () => {
    expect(toFormErrors({ property_types: 'Property type is required', submission_id: 'x', email: 'Invalid email address' })).toEqual({
      property_type: 'Property type is required',
      email: 'Invalid email address',
    });
    expect(toFormField('property_types')).toBe('property_type');
    expect(toFormField('status')).toBeUndefined();
  });
});
