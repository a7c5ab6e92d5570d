import { describe, expect, it } from 'vitest';
import { changedStageProbability, isOpenStatus, newStageProbability, NO_PROBABILITY } from './stage-probability.ts';

describe('a stage’s chance to win', () => {
  it('belongs to open stages (New, Contacted): 50 unless given', () => {
    expect([isOpenStatus('New'), isOpenStatus('Contacted'), isOpenStatus('Converted'), isOpenStatus('Dropped')]).toEqual([
      true,
      true,
      false,
      false,
    ]);
    expect(newStageProbability('New', undefined)).toBe(50);
    expect(newStageProbability('Contacted', null)).toBe(50);
    expect(newStageProbability('Contacted', 0)).toBe(0);
    expect(newStageProbability('Contacted', 80)).toBe(80);
  });

  it('is none for Won and Lost stages, and asking for one there is a 400 on `probability`', () => {
    expect(newStageProbability('Converted', undefined)).toBeNull();
    expect(newStageProbability('Dropped', null)).toBeNull();
    expect(() => newStageProbability('Converted', 10)).toThrow(
      expect.objectContaining({ status: 400, message: NO_PROBABILITY, fields: { probability: 'Only open stages have a win probability' } }),
    );
    expect(() => newStageProbability('Dropped', 0)).toThrow(NO_PROBABILITY);
  });

  it('stays as it was when a change does not send one; null sent to an open stage is 50 again', () => {
    expect(changedStageProbability('Contacted', 75, undefined)).toBe(75);
    expect(changedStageProbability('Converted', null, undefined)).toBeNull();
    expect(changedStageProbability('Contacted', 75, null)).toBe(50);
    expect(changedStageProbability('Contacted', 75, 30)).toBe(30);
    expect(changedStageProbability('Dropped', null, null)).toBeNull();
    expect(() => changedStageProbability('Dropped', null, 30)).toThrow(NO_PROBABILITY);
  });
});
