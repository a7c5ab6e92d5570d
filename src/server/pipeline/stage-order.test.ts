import { describe, expect, it } from 'vitest';
import { placeStage } from './stage-order.ts';

describe('placeStage', () => {
  it('puts the stage at its new place, the others moving along in their order', () => {
    expect(placeStage(['a', 'b', 'c'], 'x', 1)).toEqual(['x', 'a', 'b', 'c']);
    expect(placeStage(['a', 'b', 'c'], 'x', 2)).toEqual(['a', 'x', 'b', 'c']);
    expect(placeStage(['a', 'b', 'c'], 'x', 4)).toEqual(['a', 'b', 'c', 'x']);
  });

  it('takes a place past the end as the end, and a status of one stage as that stage alone', () => {
    expect(placeStage(['a', 'b'], 'x', 100)).toEqual(['a', 'b', 'x']);
    expect(placeStage([], 'x', 3)).toEqual(['x']);
  });

  it('leaves the list it was given as it was', () => {
    const others = ['a', 'b'];
    placeStage(others, 'x', 1);
    expect(others).toEqual(['a', 'b']);
  });
});
