import { defineConfig } from 'vitest/config';
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
  setupFiles: ['./src/server/test/remove-temp-dirs.ts'] as string[],
  testTimeout: 30_000,
  hookTimeout: 60_000,
} as const;

export default defineConfig({
  test: {
    // PGlite instances are heavy (~300 MiB each): two workers on a 2-core machine.
    maxWorkers: 2,
    // Longest files first (those that start processes, on a clean checkout): see the file.
    sequence: { sequencer: LongestFirst },
    // In CI a JSON report too: .ci/run prints its failures again at the very end (scripts/vitest-failures.mjs).
    reporters: process.env.CI ? ['default', ['json', { outputFile: 'artifacts/vitest-report.json' }]] : ['default'],
    globalSetup: ['./src/server/test/global-setup.ts'],
    projects: [
      {
        test: {
          ...shared,
          name: 'unit+api (pglite)',
          include: ['src/**/*.test.{ts,tsx}', 'bench/**/*.test.ts', 'scripts/**/*.test.ts'],
          env: { TEST_DB: 'pglite' },
        },
      },
      ...(postgresUrl
        ? [
            {
              test: {
                ...shared,
                name: 'api (postgresql)',
                include: ['src/server/**/*.api.test.ts'],
                env: { TEST_DB: 'postgres' },
              },
            },
          ]
        : []),
    ],
  },
});
