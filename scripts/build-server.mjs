// Bundles the server and its command-line tools into dist/server: main.js, and cli/<name>.js
// for each tool (`npm run admin` and the others run those, as `npm start` runs main.js), and
// the worker threads they start (calendars/ics-worker.js, see src/server/calendars/read-ics.ts). npm
// packages stay external: they are what the built code imports at run time, and exactly the
// package.json `dependencies` (scripts/build-server.test.ts); everything else is a devDependency.
import path from 'node:path';

/** The command-line tools: src/server/cli/<name>.ts → dist/server/cli/<name>.js. */
export const CLI_NAMES = ['admin', 'seed-demo', 'backup', 'restore', 'db-move'];

/** Worker threads' code, which the server loads by its place in the build: <name>.js. */
export const WORKER_ENTRIES = { 'calendars/ics-worker': 'src/server/calendars/ics-worker.ts' };

/** esbuild's options for the server build. */
export const SERVER_BUILD = {
  entryPoints: {
    main: 'src/server/main.ts',
    ...Object.fromEntries(CLI_NAMES.map((name) => [`cli/${name}`, `src/server/cli/${name}.ts`])),
    ...WORKER_ENTRIES,
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
