import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { constants, gzipSync } from 'node:zlib';

/**
 * What a first visit to a page downloads: the HTML, the scripts and stylesheets it names
 * (`<script src>`, `<link rel=stylesheet|modulepreload>`), and every module those scripts
 * import statically, recursively. Dynamic `import()` chunks load later, on demand, so
 * they are not counted. Sizes are raw and gzipped (level 9), whatever the server sends.
 */
export type Asset = { url: string; kind: 'html' | 'js' | 'css'; raw: number; gzip: number };
export type PageWeight = { assets: Asset[]; skipped: string[]; totals: Record<Asset['kind'], { raw: number; gzip: number }> };

const MAX_ASSETS = 500;

/**
 * The budgets of gzipped JavaScript a first visit may download, checked by `npm run bench`
 * (through the running server) and by `npm run check:weight` in CI (from the build). The
 * admin app's first load is its sign-in page, after which the Overview needs no more code.
 */
export const WEIGHT_BUDGETS = [
  { name: 'JS a first visit to / downloads before any interaction', path: '/', budgetBytes: 80 * 1024 },
  { name: "JS of the admin app's first load (sign-in page, then the Overview)", path: '/login', budgetBytes: 130 * 1024 },
] as const;

/** How a page and its assets are read: over HTTP, or from the build output. */
export type Fetcher = (url: string) => Promise<Buffer>;

/** Attributes of every `<tag ...>` in the HTML. */
function tags(html: string, tag: string): Record<string, string>[] {
  const out: Record<string, string>[] = [];
  for (const m of html.matchAll(new RegExp(`<${tag}\\b([^>]*)>`, 'gi'))) {
    const attrs: Record<string, string> = {};
    for (const a of (m[1] ?? '').matchAll(/([^\s=/]+)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'>]+)))?/g)) {
      attrs[(a[1] ?? '').toLowerCase()] = a[2] ?? a[3] ?? a[4] ?? '';
    }
    out.push(attrs);
  }
  return out;
}

/** URLs a page's HTML makes the browser fetch as JS or CSS right away. */
export function htmlReferences(html: string): { js: string[]; css: string[] } {
  const js: string[] = [];
  const css: string[] = [];
  for (const s of tags(html, 'script')) if (s.src) js.push(s.src);
  for (const l of tags(html, 'link')) {
    const rel = (l.rel ?? '').toLowerCase().split(/\s+/);
    if (!l.href) continue;
    if (rel.includes('stylesheet')) css.push(l.href);
    else if (rel.includes('modulepreload')) js.push(l.href);
  }
  return { js, css };
}

/**
 * Specifiers of static imports and re-exports in (minified) ES module code:
 * `import"./a.js"`, `import{x}from"./b.js"`, `export*from"./c.js"`. Not `import("./d.js")`.
 */
export function staticImports(code: string): string[] {
  const found = new Set<string>();
  for (const m of code.matchAll(/\bimport\s*(["'])([^"'\n]+)\1/g)) found.add(m[2] ?? '');
  for (const m of code.matchAll(/\bfrom\s*(["'])([^"'\n]+)\1/g)) found.add(m[2] ?? '');
  return [...found].filter((s) => s.startsWith('./') || s.startsWith('../') || s.startsWith('/'));
}

/**
 * Specifiers of dynamic imports with a literal path in (minified) ES module code — `import("./x.js")`,
 * or with backticks as Rolldown writes them — the chunks a page loads on demand.
 */
export function dynamicImports(code: string): string[] {
  const found = new Set<string>();
  for (const m of code.matchAll(/\bimport\(\s*(["'`])([^"'`\n$]+)\1\s*\)/g)) found.add(m[2] ?? '');
  return [...found].filter((s) => s.startsWith('./') || s.startsWith('../') || s.startsWith('/'));
}

const gzipSize = (buf: Buffer) => gzipSync(buf, { level: constants.Z_BEST_COMPRESSION }).length;

/** Over HTTP, from a running server. */
export const download: Fetcher = async (url) => {
  const res = await fetch(url, { signal: AbortSignal.timeout(10_000) });
  if (!res.ok) throw new Error(`GET ${url} answered ${res.status}`);
  return Buffer.from(await res.arrayBuffer());
};

/**
 * From the build (`dist/client`), as the server would answer: `/` is index.html, the admin
 * app's paths are app.html, anything else the file of that path. Any origin will do.
 */
export function fromBuild(clientDir: string): Fetcher {
  return (url) => {
    const pathname = new URL(url).pathname;
    const file =
      pathname === '/' ? 'index.html' : pathname === '/login' || pathname.startsWith('/dashboard') ? 'app.html' : pathname.slice(1);
    return readFile(path.join(clientDir, file));
  };
}

export async function measurePageWeight(pageUrl: string, read: Fetcher = download): Promise<PageWeight> {
  const origin = new URL(pageUrl).origin;
  const assets: Asset[] = [];
  const skipped: string[] = [];
  const seen = new Set<string>();

  const html = await read(pageUrl);
  assets.push({ url: pageUrl, kind: 'html', raw: html.length, gzip: gzipSize(html) });
  seen.add(pageUrl);

  const queue: { url: string; kind: 'js' | 'css' }[] = [];
  const enqueue = (ref: string, base: string, kind: 'js' | 'css') => {
    if (ref.startsWith('data:')) return;
    const url = new URL(ref, base).toString();
    if (new URL(url).origin !== origin) return void skipped.push(`${url} (other origin, not measured)`);
    if (!seen.has(url)) {
      seen.add(url);
      queue.push({ url, kind });
    }
  };
  const refs = htmlReferences(html.toString('utf8'));
  for (const js of refs.js) enqueue(js, pageUrl, 'js');
  for (const css of refs.css) enqueue(css, pageUrl, 'css');

  while (queue.length > 0 && assets.length < MAX_ASSETS) {
    const next = queue.shift()!;
    const body = await read(next.url);
    assets.push({ ...next, raw: body.length, gzip: gzipSize(body) });
    if (next.kind === 'js') for (const spec of staticImports(body.toString('utf8'))) enqueue(spec, next.url, 'js');
  }
  if (queue.length > 0) throw new Error(`more than ${MAX_ASSETS} assets: is the import scan looping?`);

  const totals = { html: { raw: 0, gzip: 0 }, js: { raw: 0, gzip: 0 }, css: { raw: 0, gzip: 0 } };
  for (const a of assets) {
    totals[a.kind].raw += a.raw;
    totals[a.kind].gzip += a.gzip;
  }
  return { assets, skipped, totals };
}

const kb = (n: number) => `${(n / 1024).toFixed(1)} KB`;

export function describePageWeight(w: PageWeight): string[] {
  const origin = new URL(w.assets[0]?.url ?? 'http://x').origin;
  const lines = ['  file                                                raw        gzip -9'];
  for (const a of w.assets) {
    const name = a.url.startsWith(origin) ? a.url.slice(origin.length) : a.url;
    lines.push(`  ${`${a.kind.padEnd(4)} ${name}`.padEnd(48)} ${kb(a.raw).padStart(10)} ${kb(a.gzip).padStart(10)}`);
  }
  for (const kind of ['html', 'js', 'css'] as const) {
    const t = w.totals[kind];
    lines.push(
      `  ${`total ${kind.toUpperCase()}`.padEnd(48)} ${kb(t.raw).padStart(10)} ${kb(t.gzip).padStart(10)}   (${t.gzip.toLocaleString('en-US')} bytes gzipped)`,
    );
  }
  for (const s of w.skipped) lines.push(`  skipped: ${s}`);
  return lines;
}

/** Each route's own JavaScript (gzipped) may be at most this: what opening a page adds to the first load. */
export const ROUTE_CHUNK_BUDGET_BYTES = 40 * 1024;

export type ChunkWeight = { url: string; gzip: number; files: string[] };

/**
 * What each on-demand chunk of a page adds when it is first opened: the chunk and every module
 * it imports statically that the first load did not already download, gzipped. The chunks are
 * the dynamic imports found in the first load's scripts (the admin app's lazy routes and dialogs).
 */
export async function measureChunkWeights(first: PageWeight, read: Fetcher): Promise<ChunkWeight[]> {
  const loaded = new Set(first.assets.map((a) => a.url));
  const entries = new Set<string>();
  for (const a of first.assets) {
    if (a.kind !== 'js') continue;
    for (const spec of dynamicImports((await read(a.url)).toString('utf8'))) entries.add(new URL(spec, a.url).toString());
  }
  const out: ChunkWeight[] = [];
  for (const entry of entries) {
    if (loaded.has(entry)) continue;
    const seen = new Set<string>([entry]);
    const queue = [entry];
    let gzip = 0;
    while (queue.length > 0 && seen.size < MAX_ASSETS) {
      const url = queue.shift()!;
      const body = await read(url);
      gzip += gzipSize(body);
      for (const spec of staticImports(body.toString('utf8'))) {
        const next = new URL(spec, url).toString();
        if (!seen.has(next) && !loaded.has(next)) {
          seen.add(next);
          queue.push(next);
        }
      }
    }
    out.push({ url: entry, gzip, files: [...seen] });
  }
  return out.sort((a, b) => b.gzip - a.gzip);
}

/**
 * Which UI runtime a built JavaScript file carries, by fingerprints minifiers keep (property
 * names and registry symbols, not identifiers): React DOM's client names the keys it puts on
 * DOM nodes `__reactFiber$…` and `__reactContainer$…`; Preact's virtual nodes are object
 * literals `{…,__k:null,__:null,__b:0,…}`, and Preact 11 marks them with `Symbol.for("pv")`.
 */
export function runtimesIn(code: string): { reactDom: boolean; preact: boolean } {
  return {
    reactDom: code.includes('__reactFiber$') && code.includes('__reactContainer$'),
    preact: /__k:null,__:null,__b:0/.test(code) || code.includes('Symbol.for("pv")'),
  };
}

/** Every JavaScript file a page may run: its first load's, and every chunk those load on demand, and theirs. */
export async function scriptsOfPage(first: PageWeight, read: Fetcher): Promise<string[]> {
  const seen = new Set(first.assets.filter((a) => a.kind === 'js').map((a) => a.url));
  const queue = [...seen];
  while (queue.length > 0 && seen.size < MAX_ASSETS) {
    const url = queue.shift()!;
    const code = (await read(url)).toString('utf8');
    for (const spec of [...staticImports(code), ...dynamicImports(code)]) {
      const next = new URL(spec, url).toString();
      if (!seen.has(next)) {
        seen.add(next);
        queue.push(next);
      }
    }
  }
  return [...seen];
}
