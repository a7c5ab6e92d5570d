import { describe, expect, it } from 'vitest';
import { blockedRanges } from './busy-times.ts';

const MINUTE = 60_000;

describe('blockedRanges', () => {
  it('widens each busy time by the buffer on both sides', () => {
    expect(blockedRanges([{ start: 60 * MINUTE, end: 90 * MINUTE }], 15)).toEqual([{ start: 45 * MINUTE, end: 105 * MINUTE }]);
  });

  it('merges times that overlap or touch once widened, and sorts them', () => {
    const busy = [
      { start: 200 * MINUTE, end: 230 * MINUTE },
      { start: 0, end: 30 * MINUTE },
      { start: 40 * MINUTE, end: 50 * MINUTE },
    ];
    expect(blockedRanges(busy, 5)).toEqual([
      { start: -5 * MINUTE, end: 55 * MINUTE },
      { start: 195 * MINUTE, end: 235 * MINUTE },
    ]);
    expect(blockedRanges(busy, 0)).toEqual([
      { start: 0, end: 30 * MINUTE },
      { start: 40 * MINUTE, end: 50 * MINUTE },
      { start: 200 * MINUTE, end: 230 * MINUTE },
    ]);
  });

  it('leaves the times it was given as they were', () => {
    const busy = [
      { start: 0, end: 30 * MINUTE },
      { start: 10 * MINUTE, end: 60 * MINUTE },
    ];
    blockedRanges(busy, 10);
    expect(busy).toEqual([
      { start: 0, end: 30 * MINUTE },
      { start: 10 * MINUTE, end: 60 * MINUTE },
    ]);
  });
});
