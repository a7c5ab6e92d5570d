import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { PGlite } from '@electric-sql/pglite';
import { build } from 'esbuild';
import pg from 'pg';
// @ts-expect-error -- a plain ES module script, without types
import { SERVER_BUILD } from '../../../scripts/build-server.mjs';
import { openPglite, openPostgres } from '../db/client.ts';
import { PG_TEMPLATE_DB, TEMPLATE_FILE, TEST_SERVER_DIR } from './run-files.ts';

/**
 * Prepares what every API and process test file shares, once per run (the unit project needs
 * neither and has no global setup):
 * - one migrated template database: creating and migrating a PGlite is slow and takes much
 *   memory, copying a prepared one a fraction of that. Test files then copy it (and
 *   `seededDataDir` unpacks it for a server);
 * - the server and its command-line tools bundled from the current source, as `npm run build`
 *   bundles them: the tests' server processes start from it sooner than through tsx, which
 *   would compile the whole server again in every process.
 * The figures: docs/performance.md, "Measurements behind the code".
 */

export default function setup(): Promise<void> {
  // Each project that needs it names this file; the projects share one Vitest process, so
  // the first call does the work and the others wait for it.
  const shared = globalThis as { crmTestSetup?: Promise<void> };
  shared.crmTestSetup ??= prepare();
  return shared.crmTestSetup;
}

async function prepare() {
  mkdirSync(path.dirname(TEMPLATE_FILE), { recursive: true });
  await build({ ...SERVER_BUILD, outdir: TEST_SERVER_DIR });
  const database = await openPglite(undefined);
  await database.migrate();
  const client = (database.db as unknown as { $client: PGlite }).$client;
  const dump = await client.dumpDataDir('none');
  writeFileSync(TEMPLATE_FILE, Buffer.from(await dump.arrayBuffer()));
  await database.close();

  const url = process.env.TEST_DATABASE_URL;
  if (url) await preparePostgresTemplate(url);
}

async function preparePostgresTemplate(url: string) {
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  try {
    await admin.query(`drop database if exists ${PG_TEMPLATE_DB} with (force)`);
    await admin.query(`create database ${PG_TEMPLATE_DB}`);
  } finally {
    await admin.end();
  }
  const u = new URL(url);
  u.pathname = `/${PG_TEMPLATE_DB}`;
  const database = openPostgres(u.toString(), 2);
  await database.migrate();
  await database.close();
}
