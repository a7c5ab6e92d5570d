import { describe, expect, it } from 'vitest';
import { RequestRate } from './request-rate.ts';

describe('RequestRate', () => {
  const clock = () => {
    let t = 0;
    return { now: () => t, advance: (ms: number) => (t += ms) };
  };

  it('reports the rate over the previous window and the current one', () => {
    const c = clock();
    const rate = new RequestRate(250, c.now);
    expect(rate.perSecond()).toBe(0);
    for (let i = 0; i < 25; i++) rate.hit();
    c.advance(250);
    for (let i = 0; i < 25; i++) rate.hit();
    c.advance(100);
    // 50 requests over 350 ms
    expect(rate.perSecond()).toBeCloseTo((50 / 350) * 1000, 5);
  });

  it('forgets requests two windows old, so the rate falls to 0 once they stop', () => {
    const c = clock();
    const rate = new RequestRate(250, c.now);
    for (let i = 0; i < 100; i++) rate.hit();
    c.advance(300);
    expect(rate.perSecond()).toBeGreaterThan(0);
    c.advance(250);
    expect(rate.perSecond()).toBe(0);
    c.advance(10_000);
    expect(rate.perSecond()).toBe(0);
    rate.hit();
    // 1 request, 50 ms into the current window: over it and the empty one before
    expect(rate.perSecond()).toBeCloseTo((1 / 300) * 1000, 5);
  });
});
