/**
 * `npm run db:check` (after the migrations' check): a database's functions and triggers against
 * their definitions in src/server/db/functions/ (src/server/db/definitions.ts). Fails on any
 * difference: a body edited in the database, a file edited but not yet applied, an object no
 * file defines, or one a file defines that the database lacks.
 *
 *   npm run db:check                               a fresh embedded database, migrated as a server starts
 *   npm run db:check -- --database-url <url>       that PostgreSQL database, left as it was (the check
 *                                                  runs in a transaction it rolls back)
 */
import pg from 'pg';
import { openPglite, pgConnection, pgliteConnection, type Database } from '../src/server/db/client.ts';
import { checkDefinitions } from '../src/server/db/definitions.ts';
import type { PGlite } from '@electric-sql/pglite';

const flag = process.argv.indexOf('--database-url');
const url = flag >= 0 ? process.argv[flag + 1] : undefined;
if (flag >= 0 && !url?.startsWith('postgres')) {
  console.error('db:check: --database-url needs a postgres:// URL');
  process.exit(2);
}

let problems: string[];
let where: string;
if (url) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    problems = await checkDefinitions(pgConnection(client));
  } finally {
    await client.end();
  }
  where = new URL(url).pathname.slice(1) || 'the database';
} else {
  const database: Database = await openPglite(undefined);
  try {
    await database.migrate();
    problems = await checkDefinitions(pgliteConnection((database.db as unknown as { $client: PGlite }).$client));
  } finally {
    await database.close();
  }
  where = 'a freshly migrated embedded database';
}
if (problems.length > 0) {
  console.error(`db:check FAILED: the functions and triggers of ${where} differ from src/server/db/functions/:`);
  for (const p of problems) console.error(`  ${p}`);
  process.exit(1);
}
console.log(`db:check OK: the functions and triggers of ${where} match src/server/db/functions/.`);
