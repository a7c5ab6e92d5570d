#!/usr/bin/env node
/**
 * Writes brotli (.br, quality 11) and gzip (.gz, level 9) copies beside every compressible
 * file in dist/client/assets, after the client build. The server sends them with
 * Content-Encoding to browsers that accept it (serveStatic `precompressed`), so nothing is
 * compressed per request. A copy is kept only when it is smaller than the file.
 */
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

const dir = path.resolve(import.meta.dirname, '../dist/client/assets');
const COMPRESSIBLE = /\.(js|mjs|css|svg|json|txt|xml|map|webmanifest)$/;

let files = 0;
let before = 0;
let afterBr = 0;
for (const name of readdirSync(dir)) {
  const file = path.join(dir, name);
  if (!COMPRESSIBLE.test(name) || !statSync(file).isFile()) continue;
  const raw = readFileSync(file);
  const br = brotliCompressSync(raw, { params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: raw.length } });
  const gz = gzipSync(raw, { level: 9 });
  if (br.length < raw.length) writeFileSync(`${file}.br`, br);
  if (gz.length < raw.length) writeFileSync(`${file}.gz`, gz);
  files++;
  before += raw.length;
  afterBr += Math.min(br.length, raw.length);
}
console.log(`compress-assets: ${files} files, ${(before / 1024).toFixed(0)} KB → ${(afterBr / 1024).toFixed(0)} KB with brotli`);
