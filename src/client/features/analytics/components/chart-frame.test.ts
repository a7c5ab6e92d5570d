import { describe, expect, it } from 'vitest';
import { CHART_HEIGHT, labelStep, MARGIN, niceTicks, plotFor } from './chart-frame.tsx';

describe('niceTicks', () => {
  it('covers the largest value in whole steps of 1, 2 or 5 × 10ⁿ from 0', () => {
    expect(niceTicks(12)).toEqual([0, 5, 10, 15]);
    expect(niceTicks(100)).toEqual([0, 50, 100]);
    expect(niceTicks(101)).toEqual([0, 50, 100, 150]);
    expect(niceTicks(7)).toEqual([0, 2, 4, 6, 8]);
    expect(niceTicks(3)).toEqual([0, 1, 2, 3]);
    expect(niceTicks(1)).toEqual([0, 1]);
    expect(niceTicks(23_456)).toEqual([0, 10_000, 20_000, 30_000]);
  });

  it('never steps by a fraction, and draws an axis for an empty period', () => {
    expect(niceTicks(2)).toEqual([0, 1, 2]);
    expect(niceTicks(0)).toEqual([0, 1, 2, 3, 4]);
    expect(niceTicks(Number.NaN)).toEqual([0, 1, 2, 3, 4]);
  });

  it('always ends at or above the largest value', () => {
    for (let max = 1; max < 5000; max += 37) expect(niceTicks(max).at(-1)).toBeGreaterThanOrEqual(max);
  });
});

describe('labelStep', () => {
  it('prints every label when they fit, and every n-th when they would overlap', () => {
    expect(labelStep(24, 900, 36)).toBe(1);
    expect(labelStep(24, 300, 36)).toBe(3);
    expect(labelStep(90, 280, 56)).toBe(18);
    expect(labelStep(1, 100, 56)).toBe(1);
  });
});

describe('plotFor', () => {
  it('maps 0 to the bottom of the plot and the top tick to its top', () => {
    const plot = plotFor(400, 12);
    expect(plot.width).toBe(400 - MARGIN.left - MARGIN.right);
    expect(plot.y(0)).toBe(CHART_HEIGHT - MARGIN.bottom);
    expect(plot.y(plot.ticks.at(-1)!)).toBe(MARGIN.top);
  });
});
