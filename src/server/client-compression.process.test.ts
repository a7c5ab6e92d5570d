import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { createTestApp } from './test/test-app.ts';
import { tempDir } from './test/process.ts';

/** A built client in miniature: two pages and assets with and without compressed copies. */
function appWithClient() {
  const dir = tempDir('client');
  mkdirSync(path.join(dir, 'assets'));
  writeFileSync(path.join(dir, 'index.html'), `<!doctype html><title>%%SITE_NAME%%</title>${'<p>Due diligence</p>'.repeat(200)}`);
  writeFileSync(path.join(dir, '404.html'), `<!doctype html><h1>Page Not Found</h1>${'<p>x</p>'.repeat(200)}`);
  const script = `console.log(${JSON.stringify('x'.repeat(3000))});`;
  writeFileSync(path.join(dir, 'assets/app-1234.js'), script);
  writeFileSync(path.join(dir, 'assets/app-1234.js.br'), brotliCompressSync(script));
  writeFileSync(path.join(dir, 'assets/app-1234.js.gz'), gzipSync(script));
  writeFileSync(path.join(dir, 'assets/tiny-1234.js'), 'x();');
  const { app } = createTestApp(undefined, { SITE_NAME: 'Compressed & Co' }, { clientDir: dir });
  const get = (p: string, acceptEncoding?: string) =>
    app.request(p, { headers: acceptEncoding ? { 'accept-encoding': acceptEncoding } : {} });
  return { get, script };
}

const body = async (res: Response) => Buffer.from(await res.arrayBuffer());

describe('compressed responses', () => {
  it('sends pages brotli- or gzip-compressed as the browser prefers, and plain to others', async () => {
    const { get } = appWithClient();
    const br = await get('/', 'gzip, deflate, br, zstd');
    expect(br.status).toBe(200);
    expect(br.headers.get('content-encoding')).toBe('br');
    expect(br.headers.get('vary')).toMatch(/accept-encoding/i);
    expect(br.headers.get('content-type')).toMatch(/^text\/html/);
    const html = brotliDecompressSync(await body(br)).toString('utf8');
    expect(html).toContain('<title>Compressed &amp; Co</title>');

    const gzip = await get('/', 'gzip');
    expect(gzip.headers.get('content-encoding')).toBe('gzip');
    expect(gunzipSync(await body(gzip)).toString('utf8')).toBe(html);

    const plain = await get('/', 'br;q=0, gzip;q=0');
    expect(plain.headers.get('content-encoding')).toBeNull();
    expect(await plain.text()).toBe(html);
    expect((await get('/')).headers.get('content-encoding')).toBeNull();
  });

  it('sends the 404 page compressed with its 404 status', async () => {
    const { get } = appWithClient();
    const res = await get('/no-such-page', 'br');
    expect(res.status).toBe(404);
    expect(res.headers.get('content-encoding')).toBe('br');
    expect(brotliDecompressSync(await body(res)).toString('utf8')).toContain('Page Not Found');
  });

  it("sends an asset's precompressed copy when there is one, and the file itself otherwise", async () => {
    const { get, script } = appWithClient();
    const br = await get('/assets/app-1234.js', 'gzip, br');
    expect(br.status).toBe(200);
    expect(br.headers.get('content-encoding')).toBe('br');
    expect(br.headers.get('vary')).toMatch(/accept-encoding/i);
    expect(br.headers.get('content-type')).toMatch(/javascript/);
    expect(brotliDecompressSync(await body(br)).toString('utf8')).toBe(script);

    const gzip = await get('/assets/app-1234.js', 'gzip');
    expect(gzip.headers.get('content-encoding')).toBe('gzip');
    expect(gunzipSync(await body(gzip)).toString('utf8')).toBe(script);

    const plain = await get('/assets/app-1234.js');
    expect(plain.headers.get('content-encoding')).toBeNull();
    expect(await plain.text()).toBe(script);

    const tiny = await get('/assets/tiny-1234.js', 'br');
    expect(tiny.headers.get('content-encoding')).toBeNull();
    expect(await tiny.text()).toBe('x();');
  });
});
