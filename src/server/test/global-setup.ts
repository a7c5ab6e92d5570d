import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import { openPglite, openPostgres } from '../db/client.ts';

/**
 * Prepares one migrated template database for the whole run: creating PGlite costs
 * 3-4 s and hundreds of MiB, copying a prepared one ~0.5 s. Test files then copy it.
 */
export const TEMPLATE_FILE = path.resolve('.test-data/pglite-template.tar');
export const PG_TEMPLATE_DB = 'crm_test_template';

export default async function setup() {
  mkdirSync(path.dirname(TEMPLATE_FILE), { recursive: true });
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
