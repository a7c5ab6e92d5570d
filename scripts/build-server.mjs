// Bundles the server and its command-line tools into dist/server: main.js, and cli/<name>.js
// for each tool (`npm run admin` and the others run those, as `npm start` runs main.js). npm
// packages stay external: they are what the built code imports at run time, and exactly the
// package.json `dependencies` (scripts/build-server.test.ts); everything else is a devDependency.
import path from 'node:path';

/** The command-line tools: src/server/cli/<name>.ts → dist/server/cli/<name>.js. */
export const CLI_NAMES = ['admin', 'seed-demo', 'backup', 'restore', 'db-move'];

/** esbuild's options for the server build. */
export const SERVER_BUILD = {
  entryPoints: {
    main: 'src/server/main.ts',
    ...Object.fromEntries(CLI_NAMES.map((name) => [`cli/${name}`, `src/server/cli/${name}.ts`])),
  },
  outdir: 'dist/server',
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'esm',
  packages: 'external',
  sourcemap: true,
  logLevel: 'warning',
};

if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(new URL(import.meta.url).pathname)) {
  // Imported here: build-if-stale.mjs reads CLI_NAMES where only the runtime dependencies may be installed.
  const { build } = await import('esbuild');
  await build(SERVER_BUILD);
}
