import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import { afterEach, describe, expect, it } from 'vitest';
import { createPostgresDatabaseUrl, createTestDatabase, testEngine } from '../test/database.ts';
import { openPostgres, pgConnection, pgliteConnection } from './client.ts';
import { applyChangedDefinitions, checkDefinitions, functionsFolder, readDefinitions, type DefinitionsConnection } from './definitions.ts';

/**
 * The functions and triggers of src/server/db/functions/ against a migrated database, on the
 * engine of this run: the check finds a body edited in the database, a file edited and not yet
 * applied, an object no file defines and one the database lacks; a start applies only what
 * changed. On PostgreSQL, `npm run db:check -- --database-url` fails on an edited body.
 */
const open: { close: () => Promise<void> }[] = [];
afterEach(async () => {
  for (const o of open.splice(0)) await o.close();
});

/** A migrated database of its own, as one connection. */
async function migratedConnection(): Promise<{ conn: DefinitionsConnection; url?: string }> {
  if (testEngine === 'postgres') {
    const { url, drop } = await createPostgresDatabaseUrl();
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    open.push({ close: async () => (await client.end(), await drop()) });
    return { conn: pgConnection(client), url };
  }
  const database = await createTestDatabase();
  open.push(database);
  return { conn: pgliteConnection((database.db as unknown as { $client: PGlite }).$client) };
}

/** The definitions with one file's text changed as `edit` says. */
function editedDefinitions(name: string, edit: (sql: string) => string) {
  const dir = mkdtempSync(path.join(tmpdir(), 'definitions-'));
  open.push({ close: async () => rmSync(dir, { recursive: true, force: true }) });
  for (const file of readdirSync(functionsFolder())) {
    const text = readFileSync(path.join(functionsFolder(), file), 'utf8');
    writeFileSync(path.join(dir, file), file === `${name}.sql` ? edit(text) : text);
  }
  return readDefinitions(dir);
}

const hashes = async (conn: DefinitionsConnection) =>
  new Map((await conn.query('select name, sha256 from database_definitions')).map((r) => [r.name, r.sha256]));

describe('database definitions', () => {
  it('a migrated database holds every file, each applied once: the check finds nothing and a second start applies nothing', async () => {
    const { conn } = await migratedConnection();
    const definitions = readDefinitions();
    expect(definitions.length).toBeGreaterThan(20);
    expect(await hashes(conn)).toEqual(new Map(definitions.map((d) => [d.name, d.sha256])));
    expect(await checkDefinitions(conn)).toEqual([]);
    expect(await applyChangedDefinitions(conn)).toEqual([]);
  });

  it('finds a body edited in the database, and leaves the database as it was', async () => {
    const { conn } = await migratedConnection();
    await conn.exec(`CREATE OR REPLACE FUNCTION crm_public_mail_key(address text) RETURNS text LANGUAGE sql IMMUTABLE
      AS $$ SELECT encode(sha256(convert_to(address, 'UTF8')), 'hex') $$`);
    const problems = await checkDefinitions(conn);
    expect(problems).toEqual(["function crm_public_mail_key: the database's differs from src/server/db/functions/crm_public_mail_key.sql"]);
    const [row] = await conn.query(`select crm_public_mail_key(' Jane@X.com ') = crm_public_mail_key('jane@x.com') as same`);
    expect(row!.same).toBe(false); // the check rolled back what it applied
  });

  it('finds a file edited but not yet applied; the next start applies that file alone, and then they match', async () => {
    const { conn } = await migratedConnection();
    const edited = editedDefinitions('crm_email_without_link', (sql) =>
      sql.replace("- 'link' - 'manage_path'", "- 'link' - 'manage_path' - 'token'"),
    );
    expect(await checkDefinitions(conn, edited)).toEqual([
      "function crm_email_without_link: the database's differs from src/server/db/functions/crm_email_without_link.sql",
    ]);
    expect(await applyChangedDefinitions(conn, edited)).toEqual(['crm_email_without_link']);
    expect(await checkDefinitions(conn, edited)).toEqual([]);
    expect(await checkDefinitions(conn)).toHaveLength(1);
    expect((await hashes(conn)).get('crm_email_without_link')).toBe(edited.find((d) => d.name === 'crm_email_without_link')!.sha256);
  });

  it('finds a trigger the database lacks, and an object no file defines; a removed file leaves no record', async () => {
    const { conn } = await migratedConnection();
    await conn.exec('DROP TRIGGER leads_changed ON leads');
    await conn.exec('CREATE FUNCTION crm_stray() RETURNS int LANGUAGE sql AS $$ SELECT 1 $$');
    expect(await checkDefinitions(conn)).toEqual([
      'function crm_stray: no file in src/server/db/functions/ defines it (add one, or drop it in a migration)',
      'trigger leads.leads_changed: the database lacks it (src/server/db/functions/crm_notify_change.sql defines it)',
    ]);
    const fewer = readDefinitions().filter((d) => d.name !== 'crm_webhook_lead_fields');
    await applyChangedDefinitions(conn, fewer);
    expect((await hashes(conn)).has('crm_webhook_lead_fields')).toBe(false);
  });

  it.runIf(testEngine === 'postgres')('two processes starting together on a new database migrate and apply every file once', async () => {
    const { url, drop } = await createPostgresDatabaseUrl({ empty: true });
    const [a, b] = [openPostgres(url, 2), openPostgres(url, 2)];
    open.push({ close: async () => (await a.close(), await b.close(), await drop()) });
    await Promise.all([a.migrate(), b.migrate()]);
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      expect(await checkDefinitions(pgConnection(client))).toEqual([]);
      expect((await hashes(pgConnection(client))).size).toBe(readDefinitions().length);
    } finally {
      await client.end();
    }
  });

  it.runIf(testEngine === 'postgres')('npm run db:check -- --database-url fails on a body edited in that database', async () => {
    const { conn, url } = await migratedConnection();
    const check = () =>
      spawnSync('npx', ['tsx', 'scripts/check-definitions.ts', '--database-url', url!], { encoding: 'utf8', timeout: 60_000 });
    const clean = check();
    expect(clean.stdout).toContain('db:check OK');
    expect(clean.status).toBe(0);
    await conn.exec(`CREATE OR REPLACE FUNCTION crm_webhook_listened(p_type text) RETURNS boolean LANGUAGE plpgsql STABLE
      AS $function$ BEGIN RETURN true; END $function$`);
    const edited = check();
    expect(edited.status).toBe(1);
    expect(edited.stderr).toContain(
      "function crm_webhook_listened: the database's differs from src/server/db/functions/crm_webhook_listened.sql",
    );
  });
});
