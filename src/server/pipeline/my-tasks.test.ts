import { describe, expect, it } from 'vitest';
import { decodeTaskCursor, encodeTaskCursor, whoseTasks } from './my-tasks.ts';

const someone = 'a1b2c3d4-e5f6-4a7b-8c9d-0e1f2a3b4c5d';
const staff = { id: 'f0e1d2c3-b4a5-4968-8776-655443322110', role: 'staff' };
const owner = { ...staff, role: 'owner' };

describe('whoseTasks', () => {
  it('lets everyone see their own', () => {
    expect(whoseTasks('me', staff)).toBe(staff.id);
    expect(whoseTasks(staff.id, staff)).toBe(staff.id);
  });

  it('lets owners and staff alike see anyone’s (undefined), nobody’s (null) or a person’s: staff work every lead', () => {
    for (const user of [owner, staff]) {
      expect(whoseTasks('anyone', user)).toBeUndefined();
      expect(whoseTasks('unassigned', user)).toBeNull();
      expect(whoseTasks(someone, user)).toBe(someone);
    }
  });
});

describe('the cursor of My tasks', () => {
  it('reads back as handed out, and is none when not sent', () => {
    const at = { at: '2026-11-27T10:00:00.123456Z', id: someone };
    expect(decodeTaskCursor(encodeTaskCursor(at))).toEqual(at);
    expect(decodeTaskCursor(undefined)).toBeUndefined();
  });

  it('refuses one it did not hand out: 400 on `cursor`', () => {
    const invalid = expect.objectContaining({ status: 400, fields: { cursor: 'Invalid cursor' } });
    expect(() => decodeTaskCursor('abc')).toThrow(invalid);
    expect(() => decodeTaskCursor(Buffer.from(`not a time|${someone}`).toString('base64url'))).toThrow(invalid);
    expect(() => decodeTaskCursor(Buffer.from('2026-11-27T10:00:00Z|nope').toString('base64url'))).toThrow(invalid);
  });
});
