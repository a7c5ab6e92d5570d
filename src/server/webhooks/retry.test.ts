import { describe, expect, it } from 'vitest';
import { GIVE_UP_SECONDS, nextAttemptAt, retryDelaySeconds } from './retry.ts';

describe('retryDelaySeconds', () => {
  it('doubles from 30 s to 6 hours, the jitter on the upper half', () => {
    const low = (n: number) => retryDelaySeconds(n, () => 0);
    const high = (n: number) => retryDelaySeconds(n, () => 1);
    expect([1, 2, 3, 4].map(high)).toEqual([30, 60, 120, 240]);
    expect([1, 2, 3, 4].map(low)).toEqual([15, 30, 60, 120]);
    expect(high(10)).toBe(30 * 512);
    expect(high(11)).toBe(6 * 3600);
    expect(high(50)).toBe(6 * 3600);
    expect(low(50)).toBe(3 * 3600);
    expect(high(0)).toBe(30);
  });
});

describe('nextAttemptAt', () => {
  const created = '2026-03-01T12:00:00.000Z';
  const after = (seconds: number) => new Date(Date.parse(created) + seconds * 1000);

  it('is the backoff of the attempt just failed after now', () => {
    expect(nextAttemptAt({ created_at: created, attempts: 0 }, after(0), true, () => 1)).toEqual(after(30));
    expect(nextAttemptAt({ created_at: created, attempts: 3 }, after(600), true, () => 1)).toEqual(after(600 + 240));
  });

  it('is never, 3 days after the delivery was made, or for a Send test', () => {
    expect(nextAttemptAt({ created_at: created, attempts: 20 }, after(GIVE_UP_SECONDS - 1), true)).not.toBeNull();
    expect(nextAttemptAt({ created_at: created, attempts: 20 }, after(GIVE_UP_SECONDS), true)).toBeNull();
    expect(nextAttemptAt({ created_at: created, attempts: 0 }, after(0), false)).toBeNull();
  });
});
