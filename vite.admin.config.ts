import { fileURLToPath } from 'node:url';
import tailwindcss from '@tailwindcss/vite';
import { defineConfig, type Plugin } from 'vite';
import { failOnViteWarnings, failOnWarning } from './scripts/build-warnings.ts';

/** In dev, page requests for the admin app's paths get its shell (the server does this in production). */
function adminDevShell(): Plugin {
  return {
    name: 'admin-dev-shell',
    apply: 'serve',
    configureServer(server) {
      server.middlewares.use((req, _res, next) => {
        const path = (req.url ?? '/').split('?')[0] ?? '/';
        const isPage = req.method === 'GET' && (req.headers.accept ?? '').includes('text/html');
        if (isPage && (path === '/login' || path === '/dashboard' || path.startsWith('/dashboard/'))) req.url = '/app.html';
        next();
      });
    },
    // No server substitution in dev: the defaults of src/client/lib/site-config.ts apply.
    transformIndexHtml: (html) => html.replace('%%SITE_NAME%%', 'Keystone Due Diligence').replace('%%SITE_CONFIG_JSON%%', '{}'),
  };
}

/**
 * The admin app (/login, /dashboard/*): a React single-page app served as app.html
 * (docs/decisions/011-react-on-every-page.md). Built after the public pages into the same dist/client (so
 * emptyOutDir is off).
 */
export default defineConfig({
  root: fileURLToPath(new URL('./src/client', import.meta.url)),
  publicDir: false,
  plugins: [tailwindcss(), adminDevShell(), failOnViteWarnings()],
  server: {
    port: 5174,
    proxy: { '/api': { target: 'http://127.0.0.1:3000', changeOrigin: false } },
  },
  build: {
    outDir: fileURLToPath(new URL('./dist/client', import.meta.url)),
    emptyOutDir: false,
    assetsDir: 'assets',
    rolldownOptions: {
      input: { app: fileURLToPath(new URL('./src/client/app.html', import.meta.url)) },
      onwarn: failOnWarning,
    },
  },
});
