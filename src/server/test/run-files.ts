import path from 'node:path';

/**
 * What the test run's global set-up (global-setup.ts) prepares once, under .test-data/, for
 * every test file: paths only, so a helper can name them without loading the set-up itself.
 */
const ROOT = path.resolve(import.meta.dirname, '../../..');

/** A migrated PGlite database, as a data-directory archive (`dumpDataDir`). */
export const TEMPLATE_FILE = path.join(ROOT, '.test-data/pglite-template.tar');

/** The same migrated database on the PostgreSQL server of TEST_DATABASE_URL, to copy with `create database … template`. */
export const PG_TEMPLATE_DB = 'crm_test_template';

/**
 * The server and its tools bundled from the current source (main.js, cli/<name>.js), like
 * `npm run build` does but written afresh by every Vitest run, so never stale.
 */
export const TEST_SERVER_DIR = path.join(ROOT, '.test-data/server');
