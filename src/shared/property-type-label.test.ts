import { describe, expect, it } from 'vitest';
import { PROPERTY_TYPE_CHOICES, propertyTypeLabel, propertyTypesLabel } from './property-type-label.ts';

describe('property type labels', () => {
  it('names each type one way, as the leads table shows the first: "Single family" (the hyphen a space), never "Single-family"', () => {
    expect(['single-family', 'multifamily', 'commercial', 'land', 'other'].map(propertyTypeLabel)).toEqual([
      'Single family',
      'Multifamily',
      'Commercial',
      'Land',
      'Other',
    ]);
    expect(propertyTypesLabel(['single-family', 'land'])).toBe('Single family, Land');
    expect(propertyTypesLabel([])).toBe('');
    expect(PROPERTY_TYPE_CHOICES).toBe('Single family, Multifamily, Commercial, Land or Other');
  });

  it('shows a value it does not know as stored (not a label of the prototype chain)', () => {
    expect(propertyTypeLabel('castle')).toBe('castle');
    expect(propertyTypeLabel('toString')).toBe('toString');
  });
});
