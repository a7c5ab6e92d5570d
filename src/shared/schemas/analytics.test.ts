import { describe, expect, it } from 'vitest';
import { analyticsEventRequestSchema, percentChange } from './analytics.ts';

describe('percentChange', () => {
  it.each([
    [150, 100, 50],
    [50, 100, -50],
    [100, 100, 0],
    [1, 3, -66.7],
    [7, 0, 100], // 100% when the previous count is zero (docs/product-rules.md, "Analytics")
  ])('%i vs %i is %d%%', (current, previous, expected) => {
    expect(percentChange(current, previous)).toBe(expected);
  });

  it('is null when both periods are empty: no change to compute', () => {
    expect(percentChange(0, 0)).toBeNull();
  });
});

describe('analyticsEventRequestSchema', () => {
  const base = { session_id: 'AbCdEfGhIjKlMnOpQrSt', page_path: '/' };
  it('needs seconds for heartbeat and time_spent, not for pageview', () => {
    expect(analyticsEventRequestSchema.safeParse({ ...base, event_type: 'pageview' }).success).toBe(true);
    expect(analyticsEventRequestSchema.safeParse({ ...base, event_type: 'heartbeat' }).success).toBe(false);
    expect(analyticsEventRequestSchema.safeParse({ ...base, event_type: 'time_spent', time_spent: 5 }).success).toBe(true);
  });
});

describe('a UTM sources row as a leads filter', () => {
  it('fits the longest UTM values the tracker may send, however JSON escapes them', async () => {
    const { utmValue, ORIGIN_VALUE_MAX } = await import('./analytics-report.ts');
    const { leadListQuerySchema } = await import('./lead.ts');
    const widest = '\u0001'.repeat(200); // each becomes \u0001 in JSON
    const value = utmValue(widest, '"'.repeat(200), '\\'.repeat(200));
    expect(value.length).toBeLessThanOrEqual(ORIGIN_VALUE_MAX);
    expect(leadListQuerySchema.safeParse({ origin: 'utm', origin_value: value }).success).toBe(true);
  });
});
