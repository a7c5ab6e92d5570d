import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { compressText, preferredEncoding } from './content-encoding.ts';

describe('preferredEncoding', () => {
  it.each([
    [undefined, undefined],
    ['', undefined],
    ['identity', undefined],
    ['gzip, deflate, br, zstd', 'br'],
    ['gzip, deflate', 'gzip'],
    ['GZIP', 'gzip'],
    ['x-gzip', 'gzip'],
    ['br;q=0, gzip', 'gzip'],
    ['br;q=0.5, gzip;q=0.8', 'gzip'],
    ['gzip;q=0, br;q=0', undefined],
    ['*', 'br'],
    ['*;q=0', undefined],
    ['br;q=0, *', 'gzip'],
    ['deflate', undefined],
    ['br;q=nonsense, gzip', 'gzip'],
  ])('%j → %j', (header, expected) => {
    expect(preferredEncoding(header)).toBe(expected);
  });
});

describe('compressText', () => {
  it('keeps the text and gives brotli and gzip forms that decompress to it, smaller', () => {
    const text = `<!doctype html><p>Due diligence — “quoted” ${'<li>row</li>'.repeat(500)}`;
    const c = compressText(text);
    expect(c.text).toBe(text);
    expect(brotliDecompressSync(c.br).toString('utf8')).toBe(text);
    expect(gunzipSync(c.gzip).toString('utf8')).toBe(text);
    expect(c.br.length).toBeLessThan(Buffer.byteLength(text) / 10);
    expect(c.gzip.length).toBeLessThan(Buffer.byteLength(text) / 10);
  });
});
