import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { download, measurePageWeight, runtimesIn, scriptsOfPage } from '../../../bench/page-weight.ts';
import { expect, test } from '../fixtures.ts';

/*
 * What ships runs React 19 and react-dom on every page (docs/decisions/011-react-on-every-page.md):
 * no built script carries Preact, and both the admin app's first load and everything `/` may
 * load (its first load and every chunk it loads on demand) carry React DOM. Read from the build
 * this suite runs and, for the pages, through the server as a browser gets them.
 */
const ASSETS = path.resolve('dist/client/assets');

test('no built JavaScript file carries Preact', () => {
  const scripts = readdirSync(ASSETS).filter((f) => f.endsWith('.js'));
  expect(scripts.length).toBeGreaterThan(10);
  const withPreact = scripts.filter((f) => runtimesIn(readFileSync(path.join(ASSETS, f), 'utf8')).preact);
  expect(withPreact).toEqual([]);
});

for (const [page, what] of [
  ['/', 'everything / loads, on demand included,'],
  ['/login', "the admin app's first load"],
] as const) {
  test(`${what} carries React DOM`, async ({ baseURL }) => {
    const first = await measurePageWeight(`${baseURL}${page}`, download);
    const scripts = first.assets.filter((a) => a.kind === 'js').map((a) => a.url);
    const checked = page === '/' ? await scriptsOfPage(first, download) : scripts;
    const codes = await Promise.all(checked.map(async (url) => (await download(url)).toString('utf8')));
    expect(codes.some((code) => runtimesIn(code).reactDom)).toBe(true);
    expect(codes.filter((code) => runtimesIn(code).preact)).toHaveLength(0);
  });
}
