import { describe, expect, it } from 'vitest';
import { planRace, tallyBookings, tokensNeeded } from './booking.ts';
import type { LoadResult } from './lib/load.ts';

/** The race plan and the answer tally decide the booking verdicts ("one appointment per 201"). */
describe('the booking race', () => {
  it('gives each slot 2, 3 or 4 attempts side by side, and each token once', () => {
    const slots = ['s0', 's1', 's2', 's3', 's4'];
    const tokens = Array.from({ length: tokensNeeded(slots.length) }, (_, i) => `t${i}`);
    expect(tokens).toHaveLength(2 + 3 + 4 + 2 + 3);
    const plan = planRace(slots, tokens);
    expect(plan.map((a) => a.start)).toEqual(['s0', 's0', 's1', 's1', 's1', 's2', 's2', 's2', 's2', 's3', 's3', 's4', 's4', 's4']);
    expect(new Set(plan.map((a) => a.token)).size).toBe(plan.length);
    expect(() => planRace(slots, tokens.slice(1))).toThrow(/too few/);
  });

  it('counts 201 and 409 as answered, anything else apart', () => {
    const result = {
      ok2xx: 30,
      statuses: new Map([
        [409, 60],
        [500, 2],
      ]),
      errors: 1,
      elapsedMs: 2_000,
    } as LoadResult;
    const tally = tallyBookings(result);
    expect(tally).toMatchObject({ booked: 30, taken: 60, errors: 1, answeredPerSecond: 45 });
    expect([...tally.otherStatuses]).toEqual([[500, 2]]);
  });
});
