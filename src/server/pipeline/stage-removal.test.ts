import { describe, expect, it } from 'vitest';
import { checkStageRemoval, LAST_OF_STATUS } from './stage-removal.ts';

const stage = { status: 'Contacted' as const };

describe('checkStageRemoval', () => {
  it('sends the leads to another stage of the same status', () => {
    const target = { status: 'Contacted' as const, name: 'Engaged' };
    expect(checkStageRemoval(stage, target, 2)).toBe(target);
  });

  it('keeps each status’s last stage (409), whatever the target', () => {
    expect(() => checkStageRemoval(stage, { status: 'Contacted' }, 0)).toThrow(
      expect.objectContaining({ status: 409, message: LAST_OF_STATUS }),
    );
    expect(() => checkStageRemoval(stage, undefined, 0)).toThrow(LAST_OF_STATUS);
  });

  it('refuses no target (or the stage itself) and a stage of another status: 400 on `move_to`', () => {
    const moveTo = expect.objectContaining({ status: 400, fields: { move_to: 'Choose another stage of the same status' } });
    expect(() => checkStageRemoval(stage, undefined, 1)).toThrow(moveTo);
    expect(() => checkStageRemoval(stage, { status: 'Converted' }, 1)).toThrow(moveTo);
  });
});
