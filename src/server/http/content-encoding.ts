import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

export type Encoding = 'br' | 'gzip';

/** A text body with its brotli and gzip forms, compressed once (at start-up or build). */
export type Compressed = { text: string; br: Buffer; gzip: Buffer };

/** Brotli at its best quality and gzip at level 9: done once per body, never per request. */
export function compressBytes(raw: Buffer): { br: Buffer; gzip: Buffer } {
  return {
    br: brotliCompressSync(raw, { params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: raw.length } }),
    gzip: gzipSync(raw, { level: 9 }),
  };
}

export function compressText(text: string): Compressed {
  return { text, ...compressBytes(Buffer.from(text, 'utf8')) };
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
