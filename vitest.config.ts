import { configDefaults, defineConfig } from 'vitest/config';
import LongestFirst from './src/server/test/sequencer.ts';
// The API suite runs on in-memory PGlite, and again on a real PostgreSQL server when
// TEST_DATABASE_URL is set (CI sets it and must not skip that leg).
const postgresUrl = process.env.TEST_DATABASE_URL;
if (process.env.CI === 'true' && !postgresUrl) {
  throw new Error('CI=true needs TEST_DATABASE_URL: the PostgreSQL leg of the API tests must run.');
}

const shared = {
  environment: 'node',
  // Removes the temporary directories each test file made (src/server/test/process.ts, tempDir).
  // And fails a file that leaves the clock faked or a timer replaced (src/server/test/real-timers.ts).
  setupFiles: ['./src/server/test/remove-temp-dirs.ts', './src/server/test/real-timers.ts'] as string[],
  testTimeout: 30_000,
  hookTimeout: 60_000,
} as const;

/** Tests that need the migrated template database or the bundled server: global-setup.ts makes both. */
const API_TESTS = ['src/server/**/*.api.test.ts'];
const PROCESS_TESTS = ['src/**/*.process.test.ts', 'src/**/*.cross-process.test.ts', 'scripts/**/*.process.test.ts'];
const ALL_TESTS = ['src/**/*.test.{ts,tsx}', 'bench/**/*.test.ts', 'scripts/**/*.test.ts'];
const GLOBAL_SETUP = ['./src/server/test/global-setup.ts'];

/**
 * Four projects:
 * - `unit`: every test that needs no database and starts no process (`npm run test:unit`,
 *   seconds). It has no global setup: nothing to bundle or migrate first.
 * - `api (pglite)` and `api (postgresql)`: `*.api.test.ts`, each file on its own copy of a
 *   migrated database, on both engines. Like `unit`, they share one module cache per worker
 *   (`isolate: false`): importing the server once instead of once a file halves their time
 *   (343 s to 180 s for the PGlite leg on the 2-core machine). A file therefore mocks no
 *   module (`vi.mock` would reach only the files that import after it): it watches through a
 *   seam the code offers, as link-before-hash.api.test.ts counts hashes on a diagnostics channel.
 * - `process`: `*.process.test.ts` and `*.cross-process.test.ts`, which start servers,
 *   command-line tools or other real programs.
 * The global setup runs once per run however many of the last three are picked.
 */
export default defineConfig({
  test: {
    // PGlite instances are heavy (~300 MiB each): two workers on a 2-core machine.
    maxWorkers: 2,
    // Longest files first (those that start processes, on a clean checkout): see the file.
    sequence: { sequencer: LongestFirst },
    // In CI a JSON report too: .ci/run prints its failures again at the very end (scripts/vitest-failures.mjs).
    reporters: process.env.CI ? ['default', ['json', { outputFile: 'artifacts/vitest-report.json' }]] : ['default'],
    projects: [
      {
        test: {
          ...shared,
          name: 'unit',
          isolate: false,
          include: ALL_TESTS,
          exclude: [...configDefaults.exclude, ...API_TESTS, ...PROCESS_TESTS],
        },
      },
      {
        test: {
          ...shared,
          name: 'api (pglite)',
          isolate: false,
          include: API_TESTS,
          globalSetup: GLOBAL_SETUP,
          env: { TEST_DB: 'pglite' },
        },
      },
      {
        test: {
          ...shared,
          name: 'process',
          include: PROCESS_TESTS,
          globalSetup: GLOBAL_SETUP,
          env: { TEST_DB: 'pglite' },
        },
      },
      ...(postgresUrl
        ? [
            {
              test: {
                ...shared,
                name: 'api (postgresql)',
                isolate: false,
                include: API_TESTS,
                globalSetup: GLOBAL_SETUP,
                env: { TEST_DB: 'postgres' },
              },
            },
          ]
        : []),
    ],
  },
});
