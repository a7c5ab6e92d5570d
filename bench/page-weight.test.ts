import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { dynamicImports, fromBuild, measureChunkWeights, measurePageWeight, runtimesIn, scriptsOfPage } from './page-weight.ts';

/** A build of three modules: the page's entry imports a shared chunk statically and a page lazily. */
function fakeBuild(): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'weight-'));
  mkdirSync(path.join(dir, 'assets'));
  const files: Record<string, string> = {
    'index.html': '<!doctype html><script type="module" src="/assets/entry.js"></script><link rel="stylesheet" href="/assets/site.css">',
    'app.html': '<!doctype html><script type="module" src="/assets/admin.js"></script>',
    'assets/entry.js': `import{a}from"./shared.js";const later=()=>import("./lazy.js");console.log(a,later,"${'e'.repeat(300)}");`,
    'assets/shared.js': `export const a="${'s'.repeat(500)}";`,
    'assets/lazy.js': `import{a}from"./shared.js";import{c}from"./lazy-only.js";export const b=a+c+"${'l'.repeat(5000)}";`,
    'assets/lazy-only.js': `export const c="${'o'.repeat(700)}";`,
    'assets/admin.js': 'console.log("admin")',
    'assets/site.css': 'body{color:red}',
  };
  for (const [name, text] of Object.entries(files)) writeFileSync(path.join(dir, name), text);
  return dir;
}

const gz = (text: string) => gzipSync(Buffer.from(text), { level: 9 }).length;

describe('measurePageWeight from a build', () => {
  it('counts the scripts a page names and what they import statically, not what they import later', async () => {
    const dir = fakeBuild();
    const weight = await measurePageWeight('http://build/', fromBuild(dir));
    expect(weight.assets.map((a) => a.url)).toEqual([
      'http://build/',
      'http://build/assets/entry.js',
      'http://build/assets/site.css',
      'http://build/assets/shared.js',
    ]);
    const [entry, shared] = ['assets/entry.js', 'assets/shared.js'].map((f) => gz(readFileSync(path.join(dir, f), 'utf8')));
    expect(weight.totals.js.gzip).toBe(entry! + shared!);
  });

  it('reads the admin app shell for /login, as the server answers it', async () => {
    const weight = await measurePageWeight('http://build/login', fromBuild(fakeBuild()));
    expect(weight.assets.map((a) => a.url)).toEqual(['http://build/login', 'http://build/assets/admin.js']);
  });
});

describe('measureChunkWeights', () => {
  it('finds dynamic imports in any quotes, not computed ones', () => {
    expect(
      dynamicImports('a=()=>import("./a.js");b=()=>import(\'./b.js\');c=()=>import(`./c.js`);d=import(`./${x}.js`);e=import(m)'),
    ).toEqual(['./a.js', './b.js', './c.js']);
  });

  it('weighs each on-demand chunk with what it imports that the first load did not download', async () => {
    const dir = fakeBuild();
    const read = fromBuild(dir);
    const first = await measurePageWeight('http://build/', read);
    const [chunk] = await measureChunkWeights(first, read);
    expect(chunk!.url).toBe('http://build/assets/lazy.js');
    // shared.js came with the first load: only the chunk and its own import count.
    expect(chunk!.files).toEqual(['http://build/assets/lazy.js', 'http://build/assets/lazy-only.js']);
    const [lazy, only] = ['assets/lazy.js', 'assets/lazy-only.js'].map((f) => gz(readFileSync(path.join(dir, f), 'utf8')));
    expect(chunk!.gzip).toBe(lazy! + only!);
  });
});

describe('scriptsOfPage', () => {
  it('follows static and on-demand imports, and theirs, from the first load', async () => {
    const dir = fakeBuild();
    const read = fromBuild(dir);
    const scripts = await scriptsOfPage(await measurePageWeight('http://build/', read), read);
    expect(scripts.sort()).toEqual(['entry.js', 'shared.js', 'lazy.js', 'lazy-only.js'].map((f) => `http://build/assets/${f}`).sort());
  });
});

describe('runtimesIn', () => {
  it('finds React DOM in the react-dom client build the admin and public bundles take', () => {
    const code = readFileSync(path.resolve('node_modules/react-dom/cjs/react-dom-client.production.js'), 'utf8');
    expect(runtimesIn(code)).toEqual({ reactDom: true, preact: false });
  });

  it('finds Preact by its virtual nodes, as Preact 10 and 11 build them minified', () => {
    // Cut from preact@11.2.0 dist/preact.mjs and preact@10.29.8 dist/preact.module.js.
    const preact11 =
      'h=Symbol.for("pv");function m(r,u,i,f,o){var e={type:r,props:u,key:i,ref:f,__k:null,__:null,__b:0,__e:null,__c:null,constructor:h,__v:o||++t,__i:-1,__u:0};return e}';
    const preact10 =
      'var e={type:n,props:t,key:i,ref:r,__k:null,__:null,__b:0,__e:null,__c:null,constructor:void 0,__v:null==o?++u:o,__i:-1,__u:0}';
    expect(runtimesIn(preact11)).toEqual({ reactDom: false, preact: true });
    expect(runtimesIn(preact10)).toEqual({ reactDom: false, preact: true });
    expect(runtimesIn('export const a = { __k: 1 };')).toEqual({ reactDom: false, preact: false });
  });
});
