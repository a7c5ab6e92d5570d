import { describe, expect, it } from 'vitest';
import { replyExcerpt } from './reply-excerpt.ts';

describe('replyExcerpt', () => {
  it('gives a short reply whole, on one line', () => {
    expect(replyExcerpt('  Thursday works.\n\nThanks,\n  Jane ')).toBe('Thursday works. Thanks, Jane');
  });

  it('cuts a long one after its last whole word within 500 characters', () => {
    const words = Array.from({ length: 200 }, (_, i) => `word${i}`).join(' ');
    const excerpt = replyExcerpt(words);
    expect(excerpt.endsWith('…')).toBe(true);
    expect(excerpt.length).toBeLessThanOrEqual(501);
    expect(words.startsWith(excerpt.slice(0, -1))).toBe(true);
    expect(words[excerpt.length - 1]).toBe(' ');
  });

  it('cuts at 500 characters when no word ends past the 300th', () => {
    const excerpt = replyExcerpt(`${'a'.repeat(250)} ${'b'.repeat(400)}`);
    expect(excerpt).toBe(`${'a'.repeat(250)} ${'b'.repeat(249)}…`);
    expect(replyExcerpt('x'.repeat(600))).toBe(`${'x'.repeat(500)}…`);
  });
});
