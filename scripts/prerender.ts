/**
 * Prerenders the public pages into dist/client (run after `vite build --config
 * vite.public.config.ts`, see package.json `build:client`):
 *   1. builds an SSR bundle of src/client/public/prerender.tsx (React's server renderer);
 *   2. renders each page with placeholder site values (%%SITE_NAME%% ...) that the
 *      server replaces when serving, since SITE_NAME etc. are known only at run time;
 *   3. writes index.html, careers/ privacy/ terms/ cookies/index.html, 404.html and
 *      robots.txt, then removes the shell and the SSR bundle.
 */
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build } from 'vite';
import type * as Prerender from '../src/client/public/prerender.tsx';
import { HEAD_PLACEHOLDER, PUBLIC_PAGE_ATTRIBUTE, PUBLIC_ROOT_ID, ROOT_PLACEHOLDER } from '../src/client/public/shell.ts';
import { PLACEHOLDER_SITE_CONFIG, SITE_CONFIG_SCRIPT } from '../src/client/lib/site-config.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const clientDir = path.join(root, 'dist/client');
const ssrDir = path.join(root, 'dist/.prerender');
const shellFile = path.join(clientDir, 'public.html');

export const ROBOTS_TXT = [
  'User-agent: *',
  'Allow: /',
  'Disallow: /dashboard',
  'Disallow: /login',
  'Disallow: /api',
  'Disallow: /booking',
  '',
].join('\n');

function escapeHtml(value: string): string {
  return value.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;').replaceAll('"', '&quot;');
}

function headTags(meta: { title: string; description: string }, noindex: boolean): string {
  const title = escapeHtml(meta.title);
  const description = escapeHtml(meta.description);
  return [
    `<title>${title}</title>`,
    `<meta name="description" content="${description}" />`,
    `<meta property="og:title" content="${title}" />`,
    `<meta property="og:description" content="${description}" />`,
    `<meta property="og:type" content="website" />`,
    `<meta property="og:site_name" content="${escapeHtml(PLACEHOLDER_SITE_CONFIG.name)}" />`,
    `<meta name="twitter:card" content="summary" />`,
    ...(noindex ? ['<meta name="robots" content="noindex" />'] : []),
  ].join('\n    ');
}

function count(haystack: string, needle: string): number {
  return haystack.split(needle).length - 1;
}

async function buildServerBundle(): Promise<typeof Prerender> {
  await build({
    configFile: path.join(root, 'vite.public.config.ts'),
    logLevel: 'warn',
    // React and react-dom stay packages Node loads (their server builds are CommonJS); our
    // code, its CSS imports and `import.meta.env` go through Vite.
    build: {
      ssr: path.join(root, 'src/client/public/prerender.tsx'),
      outDir: ssrDir,
      emptyOutDir: true,
      minify: false,
      copyPublicDir: false,
    },
  });
  return (await import(pathToFileURL(path.join(ssrDir, 'prerender.js')).href)) as typeof Prerender;
}

async function main() {
  const shell = await readFile(shellFile, 'utf8');
  for (const placeholder of [HEAD_PLACEHOLDER, ROOT_PLACEHOLDER]) {
    if (count(shell, placeholder) !== 1) throw new Error(`${shellFile} must contain ${placeholder} once`);
  }
  const server = await buildServerBundle();
  const pages = Object.entries(server.PUBLIC_PAGES) as [Prerender.PublicPageKey, { file: string }][];

  for (const [page, { file }] of pages) {
    const { html, meta } = await server.renderPublicPage(page, PLACEHOLDER_SITE_CONFIG);
    const document = shell
      .replace(HEAD_PLACEHOLDER, () => headTags(meta, page === 'not-found' || page === 'booking'))
      .replace(
        ROOT_PLACEHOLDER,
        () => `<div id="${PUBLIC_ROOT_ID}" ${PUBLIC_PAGE_ATTRIBUTE}="${page}">${html}</div>\n    ${SITE_CONFIG_SCRIPT}`,
      );
    if (count(document, '<h1') !== 1) throw new Error(`${file}: expected exactly one <h1>`);
    if (count(document, SITE_CONFIG_SCRIPT) !== 1) throw new Error(`${file}: expected the site-config block once`);
    const target = path.join(clientDir, file);
    await mkdir(path.dirname(target), { recursive: true });
    await writeFile(target, document);
    console.log(`prerendered ${path.relative(root, target)}`);
  }

  await writeFile(path.join(clientDir, 'robots.txt'), ROBOTS_TXT);
  // The bare shell would be an empty page if served; the SSR bundle is build-only.
  await rm(shellFile);
  await rm(ssrDir, { recursive: true, force: true });
}

await main();
