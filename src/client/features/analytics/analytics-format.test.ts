import { describe, expect, it } from 'vitest';
import { formatChange, formatHour, formatMinutesSeconds } from './analytics-format.ts';

describe('analytics formats', () => {
  it('shows times as minutes and zero-padded seconds', () => {
    expect(formatMinutesSeconds(125)).toBe('2m 05s');
    expect(formatMinutesSeconds(45)).toBe('0m 45s');
    expect(formatMinutesSeconds(200.4)).toBe('3m 20s');
    expect(formatMinutesSeconds(0)).toBe('0m 00s');
    expect(formatMinutesSeconds(Number.NaN)).toBe('0m 00s');
  });

  it('labels the 24 hours from 12am to 11pm', () => {
    expect([0, 1, 11, 12, 13, 23].map(formatHour)).toEqual(['12am', '1am', '11am', '12pm', '1pm', '11pm']);
  });

  it('signs the percent change', () => {
    expect(formatChange(12.5)).toBe('+12.5%');
    expect(formatChange(-40)).toBe('-40%');
    expect(formatChange(0)).toBe('0%');
    expect(formatChange(1250)).toBe('+1,250%');
  });
});
