import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

export type Encoding = 'br' | 'gzip';

/** A text body with its brotli and gzip forms, each made once, when first asked for. */
export type Compressed = { readonly text: string; readonly br: Buffer; readonly gzip: Buffer };

/** Brotli at its best quality and gzip at level 9: done once per body, never per request. */
export function compressBytes(raw: Buffer): { br: Buffer; gzip: Buffer } {
  return { br: brotli(raw), gzip: gzip(raw) };
}

const brotli = (raw: Buffer) =>
  brotliCompressSync(raw, { params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: raw.length } });
const gzip = (raw: Buffer) => gzipSync(raw, { level: 9 });

/**
 * The text with its compressed forms made on first use and kept: brotli at quality 11 costs
 * tens of milliseconds a page, which a server start (and every refill of the pages) would
 * otherwise spend on pages nobody may ask for before the next refill.
 */
export function compressText(text: string): Compressed {
  let br: Buffer | undefined;
  let gz: Buffer | undefined;
  return {
    text,
    get br() {
      return (br ??= brotli(Buffer.from(text, 'utf8')));
    },
    get gzip() {
      return (gz ??= gzip(Buffer.from(text, 'utf8')));
    },
  };
}

/**
 * The encoding to answer with for an Accept-Encoding header: brotli, else gzip, else none
 * (identity). Honours q-values, so `br;q=0` or `gzip;q=0` refuse that encoding and `*`
 * stands for any encoding not named (RFC 9110 12.5.3).
 */
export function preferredEncoding(acceptEncoding: string | undefined): Encoding | undefined {
  if (!acceptEncoding) return undefined;
  const weights = new Map<string, number>();
  for (const part of acceptEncoding.split(',')) {
    const [name, ...params] = part.split(';').map((s) => s.trim().toLowerCase());
    if (!name) continue;
    const q = params.find((p) => p.startsWith('q='));
    const weight = q === undefined ? 1 : Number(q.slice(2));
    weights.set(name, Number.isFinite(weight) ? weight : 0);
  }
  const weightOf = (encoding: Encoding) =>
    weights.get(encoding) ?? (encoding === 'gzip' ? weights.get('x-gzip') : undefined) ?? weights.get('*') ?? 0;
  const br = weightOf('br');
  const gzip = weightOf('gzip');
  if (br > 0 && br >= gzip) return 'br';
  if (gzip > 0) return 'gzip';
  return undefined;
}
