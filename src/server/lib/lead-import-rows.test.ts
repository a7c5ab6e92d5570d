import { describe, expect, it } from 'vitest';
import { checkImportRow, importDate, importFeeCents, importInstant } from './lead-import-rows.ts';

describe('importFeeCents', () => {
  it.each([
    ['$12,500.00', 1_250_000],
    ['12500', 1_250_000],
    [' $ 1,234.5 ', 123_450],
    ['0', 0],
    ['.99', 99],
    [12_500.25, 1_250_025],
    [0.1 + 0.2, 30],
    ['$1,000,000,000', 100_000_000_000],
  ])('reads %j as %d cents', (input, cents) => {
    expect(importFeeCents(input)).toBe(cents);
  });

  it.each([
    ['12,50', 'Estimated fee must be an amount in dollars'],
    ['1000,000', 'Estimated fee must be an amount in dollars'],
    ['12.345', 'Estimated fee must be an amount in dollars'],
    ['$', 'Estimated fee must be an amount in dollars'],
    ['twelve', 'Estimated fee must be an amount in dollars'],
    ['--5', 'Estimated fee must be an amount in dollars'],
    [12.345, 'Estimated fee must be an amount in dollars'],
    [Number.NaN, 'Estimated fee must be an amount in dollars'],
    ['-$5', 'Estimated fee cannot be negative'],
    ['$-5', 'Estimated fee cannot be negative'],
    [-1, 'Estimated fee cannot be negative'],
    ['$1,000,000,000.01', 'Estimated fee must be at most $1,000,000,000'],
    ['9'.repeat(30), 'Estimated fee must be at most $1,000,000,000'],
  ])('refuses %j: %s', (input, message) => {
    expect(importFeeCents(input)).toBe(message);
  });
});

describe('importDate and importInstant', () => {
  it('reads ISO and U.S. dates, and refuses days that do not exist', () => {
    expect(importDate('2026-12-31')).toBe('2026-12-31');
    expect(importDate(' 1/5/2027 ')).toBe('2027-01-05');
    expect(importDate('2026-02-29')).toBeUndefined();
    expect(importDate('31/12/2026')).toBeUndefined();
    expect(importDate('Dec 31, 2026')).toBeUndefined();
  });

  it('reads a date as midnight in the business time zone, a time with an offset as that instant, and one without on the business clock', () => {
    const ny = 'America/New_York';
    expect(new Date(importInstant('2025-07-04', ny)!).toISOString()).toBe('2025-07-04T04:00:00.000Z');
    expect(new Date(importInstant('2025-07-04T10:15:30.250Z', ny)!).toISOString()).toBe('2025-07-04T10:15:30.250Z');
    expect(new Date(importInstant('2025-07-04T10:15:30+0200', ny)!).toISOString()).toBe('2025-07-04T08:15:30.000Z');
    expect(new Date(importInstant('2025-01-04 10:15', ny)!).toISOString()).toBe('2025-01-04T15:15:00.000Z');
    expect(importInstant('2025-07-04T25:00:00Z', ny)).toBeUndefined();
    expect(importInstant('yesterday', ny)).toBeUndefined();
  });
});

describe('checkImportRow', () => {
  const options = { timeZone: 'America/New_York', now: Date.parse('2026-01-01T00:00:00Z') };
  const valid = { full_name: 'Ada', email: 'Ada@Example.com', phone: '1', property_type: 'single family' };

  it('keeps blank optional cells out of the lead (not given), and trims and lower-cases as the forms do', () => {
    expect(checkImportRow({ ...valid, status: ' ', message: '', property_address: null, estimated_fee: '' }, 7, options)).toEqual({
      row: 7,
      errors: [],
      lead: { full_name: 'Ada', email: 'ada@example.com', phone: '1', property_type: 'single-family' },
    });
  });

  it.each(['Single family', 'Single-family', 'Single Family', 'single-family', 'SINGLE_FAMILY', 'singlefamily'])(
    'reads %j as single-family',
    (label) => {
      expect(checkImportRow({ ...valid, property_type: label }, 1, options).lead?.property_type).toBe('single-family');
    },
  );

  it('gives no message that repeats what the cell said', () => {
    const { errors } = checkImportRow({ ...valid, property_type: 'node_modules/x.ts:1', status: 'at x (y)' }, 1, options);
    for (const e of errors) expect(e.message).not.toMatch(/node_modules|x\.ts|at x/);
  });
});
