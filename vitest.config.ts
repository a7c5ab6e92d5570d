import { defineConfig } from 'vitest/config';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * The files that start real servers and wait on them for a minute or more, longest first: on
 * two workers a long file that starts last is the run's tail. Vitest orders by the durations it
 * cached on earlier runs, but a fresh clone (CI) has none and would run them in any order.
 */
const SLOW_FIRST = [
  'src/server/mail/delivery.test.ts',
  'src/server/db/durability.test.ts',
  'src/server/cli/backup.test.ts',
  'src/server/main.test.ts',
  'src/server/multi-process.test.ts',
  'src/server/cli/db-move.test.ts',
];

class SlowFilesFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const projects = [...new Set(sorted.map((f) => f.project.name))];
    const rank = (f: TestSpecification) => {
      const i = SLOW_FIRST.findIndex((p) => f.moduleId.endsWith(p));
      return i < 0 ? SLOW_FIRST.length : i;
    };
    const key = sorted.map((f, i) => ({ f, i, project: projects.indexOf(f.project.name), rank: rank(f) }));
    return key.sort((a, b) => a.project - b.project || a.rank - b.rank || a.i - b.i).map((k) => k.f);
  }
}

// The API suite runs on in-memory PGlite, and again on a real PostgreSQL server when
// TEST_DATABASE_URL is set (CI sets it and must not skip that leg).
const postgresUrl = process.env.TEST_DATABASE_URL;
if (process.env.CI === 'true' && !postgresUrl) {
  throw new Error('CI=true needs TEST_DATABASE_URL: the PostgreSQL leg of the API tests must run.');
}

const shared = {
  environment: 'node',
  testTimeout: 30_000,
  hookTimeout: 60_000,
} as const;

export default defineConfig({
  test: {
    // PGlite instances are heavy (~300 MiB each): two workers on a 2-core machine.
    maxWorkers: 2,
    // In CI a JSON report too: .ci/run prints its failures again at the very end (scripts/vitest-failures.mjs).
    reporters: process.env.CI ? ['default', ['json', { outputFile: 'artifacts/vitest-report.json' }]] : ['default'],
    globalSetup: ['./src/server/test/global-setup.ts'],
    sequence: { sequencer: SlowFilesFirst },
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
