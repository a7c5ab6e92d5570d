import { describe, expect, it } from 'vitest';
import { zonedInstant } from '#shared/zoned-time';
import { AppError } from '../lib/app-error.ts';
import { IN_THE_PAST, requireFuture } from './future-time.ts';

const NY = 'America/New_York';
const refusal = (f: () => void) => {
  try {
    f();
  } catch (error) {
    if (error instanceof AppError) return { status: error.status, message: error.message, fields: error.fields };
    throw error;
  }
};

describe('requireFuture', () => {
  const now = zonedInstant('2026-05-04', 10 * 60, NY)!;

  it('takes a time after now on the business clock, and refuses now or before', () => {
    expect(refusal(() => requireFuture(NY, '2026-05-04', '10:30', now))).toBeUndefined();
    expect(refusal(() => requireFuture(NY, '2026-05-04', '10:00', now))).toEqual({
      status: 400,
      message: IN_THE_PAST,
      fields: { time: IN_THE_PAST },
    });
    expect(refusal(() => requireFuture(NY, '2026-05-03', '23:00', now))?.status).toBe(400);
    // 10:30 in New York is 16:30 in Paris: the business clock decides.
    expect(refusal(() => requireFuture('Europe/Paris', '2026-05-04', '16:00', now))?.status).toBe(400);
  });

  it('refuses a clock time the day does not have (the clocks spring forward)', () => {
    expect(refusal(() => requireFuture(NY, '2027-03-14', '02:30', now))).toEqual({
      status: 400,
      message: 'That time does not exist on that day (the clocks change).',
      fields: { time: 'Invalid time' },
    });
  });
});
