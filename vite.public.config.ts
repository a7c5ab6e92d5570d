import { fileURLToPath } from 'node:url';
import tailwindcss from '@tailwindcss/vite';
import { defineConfig, type Plugin } from 'vite';
import { failOnViteWarnings, failOnWarning } from './scripts/build-warnings.ts';
import { HEAD_PLACEHOLDER } from './src/client/public/shell.ts';

/**
 * The public pages (/, /careers, /privacy, /terms, /cookies, /booking, 404): React components,
 * prerendered to HTML by scripts/prerender.ts (React's own server renderer) and hydrated island
 * by island in the browser (src/client/public/main.tsx).
 * Why: docs/decisions/011-react-on-every-page.md.
 */

const clientRoot = fileURLToPath(new URL('./src/client', import.meta.url));
const outDir = fileURLToPath(new URL('./dist/client', import.meta.url));

/** The HTML shell every public page is prerendered into (see scripts/prerender.ts). */
export const PUBLIC_TEMPLATE = 'public.html';

/**
 * In dev there is no prerender and no server substitution: send every page request to
 * the shell, which renders client-side with the default site config. API calls are proxied.
 */
function publicDevPages(): Plugin {
  return {
    name: 'public-dev-pages',
    apply: 'serve',
    configureServer(server) {
      server.middlewares.use((req, _res, next) => {
        const url = req.url ?? '/';
        const accept = req.headers.accept ?? '';
        const pathOnly = url.split('?')[0] ?? '/';
        const isPage =
          req.method === 'GET' &&
          accept.includes('text/html') &&
          !pathOnly.startsWith('/api/') &&
          !pathOnly.startsWith('/@') &&
          !/\.[a-z0-9]+$/i.test(pathOnly);
        if (isPage) req.url = `/${PUBLIC_TEMPLATE}`;
        next();
      });
    },
    transformIndexHtml: (html) => html.replace(HEAD_PLACEHOLDER, '<title>Public pages (dev)</title>'),
  };
}

export default defineConfig({
  root: clientRoot,
  publicDir: false,
  plugins: [tailwindcss(), publicDevPages(), failOnViteWarnings()],
  server: {
    proxy: { '/api': { target: 'http://127.0.0.1:3000', changeOrigin: false } },
  },
  build: {
    outDir,
    emptyOutDir: true,
    assetsDir: 'assets',
    rolldownOptions: {
      input: { public: fileURLToPath(new URL(`./src/client/${PUBLIC_TEMPLATE}`, import.meta.url)) },
      onwarn: failOnWarning,
    },
  },
});
