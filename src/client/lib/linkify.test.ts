import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { linkify, type TextPart } from './linkify.ts';

const links = (text: string) => linkify(text).filter((p): p is Extract<TextPart, { kind: 'link' }> => p.kind === 'link');

describe('linkify', () => {
  it('makes http and https addresses links and leaves the rest as text', () => {
    expect(linkify('See https://example.com/report?id=1 and http://a.test.')).toEqual([
      { kind: 'text', text: 'See ' },
      { kind: 'link', text: 'https://example.com/report?id=1', href: 'https://example.com/report?id=1' },
      { kind: 'text', text: ' and ' },
      { kind: 'link', text: 'http://a.test', href: 'http://a.test/' },
      { kind: 'text', text: '.' },
    ]);
    expect(linkify('no links here')).toEqual([{ kind: 'text', text: 'no links here' }]);
    expect(linkify('')).toEqual([]);
  });

  it('keeps sentence punctuation and an unopened bracket out of the link, and a balanced one in', () => {
    expect(links('(see https://example.com/a)').map((l) => l.text)).toEqual(['https://example.com/a']);
    expect(links('https://en.wikipedia.org/wiki/Lot_(real_estate), then').map((l) => l.text)).toEqual([
      'https://en.wikipedia.org/wiki/Lot_(real_estate)',
    ]);
    expect(links('Done: https://example.com/x?!').map((l) => l.text)).toEqual(['https://example.com/x']);
  });

  it('never links a script, data or other scheme, whatever its case or disguise', () => {
    for (const hostile of [
      'javascript:alert(1)',
      'JaVaScRiPt:alert(document.cookie)',
      ' javascript://example.com/%0aalert(1)',
      'data:text/html,<script>alert(1)</script>',
      'vbscript:msgbox(1)',
      'file:///etc/passwd',
      'java\tscript:alert(1)',
      '&#106;avascript:alert(1)',
      'xhttps://example.com',
      'http://',
      'https://',
      'https:// example.com',
    ]) {
      expect(links(hostile), hostile).toEqual([]);
      expect(
        linkify(hostile)
          .map((p) => p.text)
          .join(''),
      ).toBe(hostile);
    }
  });

  it('stops an address at quotes and angle brackets, so markup cannot ride along', () => {
    const parts = linkify('<a href="https://evil.test/" onclick="x">https://evil.test/"onmouseover="alert(1)</a>');
    for (const link of parts.filter((p) => p.kind === 'link')) {
      expect(link.text).not.toMatch(/["<>]/);
      expect(link.href.startsWith('https://')).toBe(true);
    }
  });

  it('takes only the http part of "javascript:https://…" as a link (an http URL, harmless)', () => {
    expect(links('javascript:https://example.com')).toEqual([{ kind: 'link', text: 'https://example.com', href: 'https://example.com/' }]);
  });

  it('gives back exactly the input when the parts are joined, and only http(s) hrefs, for any text', () => {
    fc.assert(
      fc.property(
        fc.string({ unit: 'grapheme', maxLength: 200 }),
        fc.array(fc.constantFrom('https://a.test/x', 'http://b.test', ' ', '\n', 'javascript:', '(', ')', '.', '"'), { maxLength: 8 }),
        (text, bits) => {
          const input = bits.join('') + text + bits.reverse().join('');
          const parts = linkify(input);
          expect(parts.map((p) => p.text).join('')).toBe(input);
          for (const part of parts) if (part.kind === 'link') expect(new URL(part.href).protocol).toMatch(/^https?:$/);
        },
      ),
    );
  });

  it('handles a long text quickly (no catastrophic backtracking)', () => {
    const text = `${'https://example.com/'.repeat(1000)} ${'a'.repeat(20_000)} ${'(('.repeat(5000)}`;
    const started = performance.now();
    linkify(text);
    expect(performance.now() - started).toBeLessThan(500);
  });
});
