import { describe, expect, it } from 'vitest';
import { SessionPaths } from './session-paths.ts';

describe('SessionPaths', () => {
  it("keeps a session's first paths, folds its new ones past the cap, and leaves other sessions alone", () => {
    const paths = new SessionPaths(3, 100, '/(other)');
    expect(['/a', '/b', '/c', '/d', '/a', '/e', '/c'].map((p) => paths.pathFor('s1', p))).toEqual([
      '/a',
      '/b',
      '/c',
      '/(other)',
      '/a',
      '/(other)',
      '/c',
    ]);
    expect(paths.pathFor('s2', '/d')).toBe('/d');
  });

  it('remembers the most recent sessions only, so its memory is bounded', () => {
    const paths = new SessionPaths(1, 2, '/(other)');
    paths.pathFor('s1', '/a');
    paths.pathFor('s2', '/a');
    paths.pathFor('s1', '/a'); // s1 used again: s2 is now the least recent
    paths.pathFor('s3', '/a'); // forgets s2
    expect(paths.pathFor('s1', '/b')).toBe('/(other)');
    expect(paths.pathFor('s2', '/b')).toBe('/b');
  });
});
