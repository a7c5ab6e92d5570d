import { describe, expect, it } from 'vitest';
import { centsToInput, formatCents, parseDollars } from './money.ts';

describe('money', () => {
  it('shows cents as dollars, with cents only when there are some', () => {
    expect(formatCents(1_250_000)).toBe('$12,500');
    expect(formatCents(1_250_050)).toBe('$12,500.50');
    expect(formatCents(0)).toBe('$0');
    expect(formatCents(100_000_000_000)).toBe('$1,000,000,000');
  });

  it('reads typed dollars as cents, exactly', () => {
    expect(parseDollars('12500')).toBe(1_250_000);
    expect(parseDollars(' $12,500 ')).toBe(1_250_000);
    expect(parseDollars('12,500.5')).toBe(1_250_050);
    expect(parseDollars('0.29')).toBe(29); // 0.29 * 100 is 28.999… in floating point
    expect(parseDollars('')).toBeNull();
    for (const bad of ['abc', '-5', '1.234', '12,50', '1e5', '$', '12 500']) expect(parseDollars(bad), bad).toBeUndefined();
  });

  it('puts cents back into the input as dollars', () => {
    expect(centsToInput(null)).toBe('');
    expect(centsToInput(1_250_000)).toBe('12500');
    expect(centsToInput(1_250_005)).toBe('12500.05');
    expect(parseDollars(centsToInput(987_654_321))).toBe(987_654_321);
  });
});
