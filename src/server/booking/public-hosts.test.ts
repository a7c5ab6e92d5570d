import { describe, expect, it } from 'vitest';
import { initialsOf } from './public-hosts.ts';

describe('initialsOf', () => {
  it('takes the first letters of the first two words, capitalised', () => {
    expect(initialsOf("Dana O'Neil")).toBe('DO');
    expect(initialsOf('sam  staff')).toBe('SS');
    expect(initialsOf('Mary Ann Lee')).toBe('MA');
    expect(initialsOf('  Cher ')).toBe('C');
    expect(initialsOf('')).toBe('');
  });
});
