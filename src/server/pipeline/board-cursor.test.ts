import { describe, expect, it } from 'vitest';
import { decodeCursor, encodeCursor } from './board-cursor.ts';

const id = '3f1c2a9e-7b4d-4c1e-9a8b-2d6f0e5c7a11';

describe('the board’s cursor', () => {
  it('names the last card shown, to the microsecond, and reads back as it was handed out', () => {
    const cursor = encodeCursor({ at: '2026-11-27T10:00:00.123456Z', id });
    expect(cursor).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(decodeCursor(cursor)).toEqual({ at: '2026-11-27T10:00:00.123456Z', id });
  });

  it('refuses anything the board did not hand out', () => {
    const made = (text: string) => Buffer.from(text).toString('base64url');
    expect(decodeCursor('not-a-cursor')).toBeUndefined();
    expect(decodeCursor(made(`2026-11-27T10:00:00.123Z|${id}`))).toBeUndefined();
    expect(decodeCursor(made('2026-11-27T10:00:00.123456Z|not-an-id'))).toBeUndefined();
    expect(decodeCursor(made(`2026-11-27T10:00:00.123456Z|${id}|more`))).toBeUndefined();
    // A day the calendar does not have, which Date.parse would roll over to March.
    expect(decodeCursor(made(`2026-02-30T10:00:00.000000Z|${id}`))).toBeUndefined();
  });
});
