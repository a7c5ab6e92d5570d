import { describe, expect, it } from 'vitest';
import { MemoryRateLimit } from './memory-rate-limit.ts';

describe('MemoryRateLimit', () => {
  it('allows the limit per key per window, then refuses until the next window', () => {
    let now = 60_000;
    const limit = new MemoryRateLimit(3, 60_000, () => now);
    expect([1, 2, 3, 4].map(() => limit.hit('a'))).toEqual([true, true, true, false]);
    expect(limit.hit('b')).toBe(true);
    now += 60_000;
    expect(limit.hit('a')).toBe(true);
  });
});
