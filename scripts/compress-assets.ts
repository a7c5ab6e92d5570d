/**
 * Writes brotli (.br) and gzip (.gz) copies beside every compressible file in
 * dist/client/assets, after the client build, with the server's own settings
 * (compressBytes). The server sends them with Content-Encoding to browsers that accept it
 * (serveStatic `precompressed`), so nothing is compressed per request. A copy is kept only
 * when it is smaller than the file.
 */
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { compressBytes } from '../src/server/http/content-encoding.ts';

const dir = path.resolve(import.meta.dirname, '../dist/client/assets');
const COMPRESSIBLE = /\.(js|mjs|css|svg|json|txt|xml|map|webmanifest)$/;

let files = 0;
let before = 0;
let afterBr = 0;
for (const name of readdirSync(dir)) {
  const file = path.join(dir, name);
  if (!COMPRESSIBLE.test(name) || !statSync(file).isFile()) continue;
  const raw = readFileSync(file);
  const { br, gzip } = compressBytes(raw);
  if (br.length < raw.length) writeFileSync(`${file}.br`, br);
  if (gzip.length < raw.length) writeFileSync(`${file}.gz`, gzip);
  files++;
  before += raw.length;
  afterBr += Math.min(br.length, raw.length);
}
console.log(`compress-assets: ${files} files, ${(before / 1024).toFixed(0)} KB → ${(afterBr / 1024).toFixed(0)} KB with brotli`);
