import { fileURLToPath } from 'node:url';
import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

/**
 * The admin app (/login, /dashboard/*): React 19, a single-page app served as app.html.
 * Built after the public pages into the same dist/client (so emptyOutDir is off).
 */
export default defineConfig({
  root: fileURLToPath(new URL('./src/client', import.meta.url)),
  publicDir: false,
  plugins: [react(), tailwindcss()],
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
      onwarn(warning, warn) {
        if (warning.code === 'MODULE_LEVEL_DIRECTIVE') return; // "use client" in libraries
        warn(warning);
      },
    },
  },
});
