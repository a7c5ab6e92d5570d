import { existsSync, mkdirSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { seedEvents } from '../../../bench/analytics.ts';
import { seedLeadsAtScale } from '../../../bench/leads-at-scale.ts';
import { pgClientConn, pgliteConn, userRelations, type Conn } from '../db/move.ts';
import { calendarSecretContext } from '../db/sealed-secrets.ts';
import { loadCredentialsVault } from '../lib/credentials.ts';
import { runNode, signInOverHttp, startServer, stopServer, tempDir, type ServerProcess } from '../test/process.ts';
import { createPostgresDatabaseUrl, withPgClient, withPgliteDir } from '../test/database.ts';
import { SEEDED_ADMIN, seededDataDir } from '../test/seeded-data-dir.ts';
import { allTableRows } from '../test/table-rows.ts';

/**
 * `npm run db:move` as the operator runs it: the embedded database into PostgreSQL and back,
 * every row compared, and each refusal leaving the target as it was. Needs a PostgreSQL
 * server (TEST_DATABASE_URL), which CI always has.
 */
const serverUrl = process.env.TEST_DATABASE_URL;
const NO_POSTGRES = { DATABASE_URL: '' };
const drops: (() => Promise<void>)[] = [];
const running: ServerProcess[] = [];

/** A new, empty PostgreSQL database on the test server (dropped after the file): its URL. */
async function emptyDatabase(): Promise<string> {
  const { url, drop } = await createPostgresDatabaseUrl({ empty: true });
  drops.push(drop);
  return url;
}

afterEach(async () => {
  await Promise.all(running.splice(0).map((p) => stopServer(p, 'SIGTERM')));
});
afterAll(async () => {
  for (const drop of drops) await drop();
});

async function move(env: Record<string, string>, args: string[]) {
  const proc = runNode('src/server/cli/db-move.ts', { ...NO_POSTGRES, ...env }, args);
  const code = await proc.exited;
  return { code, output: proc.output() };
}

const withPglite = <T>(dataDir: string, use: (conn: Conn) => Promise<T>) => withPgliteDir(dataDir, (client) => use(pgliteConn(client)));

/** A connected calendar in `dataDir`, its password sealed with DATA_DIR's key file (which stays behind in a move). */
async function connectCalendar(dataDir: string): Promise<void> {
  const vault = loadCredentialsVault({ credentialsKey: undefined, credentialsKeyPrevious: undefined, dataDir, databaseUrl: undefined });
  if (!vault.available) throw new Error(vault.reason);
  const id = crypto.randomUUID();
  const secret = vault.seal('https://calendar.example.com/private-abc/basic.ics', calendarSecretContext(id));
  await withPgliteDir(dataDir, (client) =>
    client.query(
      `insert into calendar_connections (id, user_id, kind, label, secret) select $1, id, 'ics', 'calendar.example.com', $2 from users order by email limit 1`,
      [id, secret],
    ),
  );
  // A booked call's copy as written into one of its calendars.
  await withPgliteDir(dataDir, (client) =>
    client.query(
      `insert into calendar_writes (appointment_id, connection_id, uid, event_url, version, written_version)
       select a.id, $1, a.id || '@keystone.test', 'https://calendar.example.com/work/' || a.id || '.ics', 1, 1 from appointments a order by a.id limit 1`,
      [id],
    ),
  );
}

/**
 * Every table (the app's and the migrations'), each with its row count and a digest of all its
 * rows' full text, sorted: equal digests mean the same rows, whatever order they are stored in.
 * Computed independently of db:move's own checksum.
 */
async function everyRow(conn: Conn): Promise<Record<string, string>> {
  await conn.query(`set time zone 'UTC'`);
  const tables = await conn.query<{ name: string }>(
    `select quote_ident(table_schema) || '.' || quote_ident(table_name) as name from information_schema.tables
     where table_type = 'BASE TABLE' and table_schema in ('public', 'drizzle') order by 1`,
  );
  const out: Record<string, string> = {};
  for (const { name } of tables) {
    const [row] = await conn.query<{ n: string; digest: string }>(
      `select count(*)::text as n, md5(coalesce(string_agg(h, '' order by h), '')) as digest from (select md5(t::text) as h from ${name} t) s`,
    );
    out[name] = `${row!.n} rows, ${row!.digest}`;
  }
  return out;
}

describe.skipIf(!serverUrl)('npm run db:move', () => {
  // 6,000 leads and 20,000 events page through the move's keyset batches (at most 5,000 rows
  // each): a batch boundary in both, and a last batch shorter than the rest. The benchmark
  // (`bench/run.ts move`) times a million events.
  it('moves a seeded embedded database (every table, 6,000 leads, 20,000 events) to PostgreSQL and back, every row the same', async () => {
    const dataDir = await seededDataDir(async (db) => {
      await seedLeadsAtScale(db, 6_000);
      await seedEvents(db, 20_000);
    });
    await connectCalendar(dataDir);
    const original = await withPglite(dataDir, everyRow);
    for (const [table, summary] of Object.entries(original)) expect(summary, `${table} has rows`).not.toMatch(/^0 rows/);
    expect(original['public.analytics_events']).toMatch(/^2\d{4} rows/);
    expect(Number(original['public.leads']!.split(' ')[0])).toBeGreaterThanOrEqual(6_000);

    const url = await emptyDatabase();
    const there = await move({ DATA_DIR: dataDir }, ['--to', url]);
    expect(there.output).toMatch(/every table's row count and checksum match the source/);
    expect(there.output).toMatch(/public\.analytics_events\s+2\d{4}\s+[0-9a-f]{16}/);
    expect(there.code).toBe(0);
    // The calendars' key stays in DATA_DIR: the move says how to hand it to the servers.
    const keyFile = path.join(dataDir, 'credentials.key');
    expect(there.output).toContain(
      `Start every server process with CREDENTIALS_KEY set to the key file's content, e.g. CREDENTIALS_KEY=$(cat ${keyFile}) npm start`,
    );
    expect(await withPgClient(url, (c) => everyRow(pgClientConn(c)))).toEqual(original);
    // The source was only read.
    expect(await withPglite(dataDir, everyRow)).toEqual(original);

    const backDir = path.join(tempDir('move-back'), 'data');
    const back = await move({}, ['--from', url, '--to-dir', backDir]);
    expect(back.output).toMatch(/every table's row count and checksum match the source/);
    expect(back.code).toBe(0);
    expect(back.output).toContain(`Start the server on ${backDir} with the same CREDENTIALS_KEY`);
    const returned = await withPglite(backDir, everyRow);
    expect(returned).toEqual(original);
    // And value by value, as JSON, for every table but the events.
    const valuesOf = (dir: string) => withPgliteDir(dir, (client) => allTableRows(client, { except: ['public.analytics_events'] }));
    const [before, after] = [await valuesOf(dataDir), await valuesOf(backDir)];
    expect([...after.keys()]).toEqual([...before.keys()]);
    for (const [table, rows] of before) expect(after.get(table), table).toEqual(rows);

    // Without the key the server refuses to start, saying which; with it, it runs on the moved
    // database: the same accounts sign in, new rows take new ids.
    const keyless = runNode('src/server/main.ts', { DATABASE_URL: url, CREDENTIALS_KEY: '', PORT: '0' });
    expect(await keyless.exited).toBe(1);
    expect(keyless.output()).toMatch(
      /2 connected calendars and 1 webhook signing secret, sealed with key [0-9a-f]{8}, and CREDENTIALS_KEY is not set/,
    );
    const server = await startServer({ DATABASE_URL: url, CREDENTIALS_KEY: readFileSync(keyFile, 'utf8').trim() });
    running.push(server);
    const cookie = await signInOverHttp(server.url, SEEDED_ADMIN);
    const leads = await fetch(`${server.url}/api/leads?limit=1`, { headers: { cookie } });
    expect(leads.status).toBe(200);
    await withPgClient(url, async (c) => {
      const { rows } = await c.query<{ next: string; max: string }>(
        `select nextval('analytics_events_id_seq')::text as next, max(id)::text as max from analytics_events`,
      );
      expect(BigInt(rows[0]!.next)).toBeGreaterThan(BigInt(rows[0]!.max));
    });
    await stopServer(running.pop()!, 'SIGTERM');
  }, 600_000);

  it('refuses a non-empty target, a DATA_DIR a server holds, and a non-empty directory, changing nothing', async () => {
    const dataDir = await seededDataDir();
    const url = await emptyDatabase();
    await withPgClient(url, (c) => c.query('create table keep_me (x int); insert into keep_me values (1)'));
    const notEmpty = await move({ DATA_DIR: dataDir }, ['--to', url]);
    expect(notEmpty.output).toContain('the target database is not empty (it has public.keep_me)');
    expect(notEmpty.output).toContain('Nothing was changed.');
    expect(notEmpty.code).toBe(1);
    expect(await withPgClient(url, (c) => userRelations(pgClientConn(c)))).toEqual(['public.keep_me']);

    const server = await startServer({ ...NO_POSTGRES, DATA_DIR: dataDir });
    running.push(server);
    const busy = await move({ DATA_DIR: dataDir }, ['--to', await emptyDatabase()]);
    expect(busy.output).toMatch(/is in use by another process \(server, pid \d+.*stop the server first/);
    expect(busy.code).toBe(1);
    await stopServer(running.pop()!, 'SIGTERM');

    const full = tempDir('move-full');
    mkdirSync(path.join(full, 'something'));
    const intoFull = await move({}, ['--from', url, '--to-dir', full]);
    expect(intoFull.output).toContain('is not empty: name a new or empty directory');
    expect(intoFull.code).toBe(1);
    expect(readdirSync(full)).toEqual(['something']);

    for (const args of [[], ['--to'], ['--to', 'mysql://x'], ['--from', url], ['--to', url, '--to-dir', full], ['--bogus', 'x']]) {
      const bad = await move({ DATA_DIR: dataDir }, args);
      expect(bad.output, args.join(' ')).toContain('Usage:');
      expect(bad.code, args.join(' ')).toBe(2);
    }
  }, 120_000);

  it('rolls the whole move back when a check fails: the target is left empty, and so is the directory', async () => {
    // A source with a table this version's schema does not make: found after the migrations ran in the move's transaction.
    const dataDir = await seededDataDir();
    await withPglite(dataDir, (c) => c.query('create table public.stray (id int primary key)'));
    const url = await emptyDatabase();
    const failed = await move({ DATA_DIR: dataDir }, ['--to', url]);
    expect(failed.output).toContain('the table public.stray differs between the source and the schema this version makes');
    expect(failed.code).toBe(1);
    expect(await withPgClient(url, (c) => userRelations(pgClientConn(c)))).toEqual([]);

    // The other way: a source one migration behind is refused, and no directory is left.
    const behind = await emptyDatabase();
    await withPgClient(behind, (c) =>
      c.query(
        'create schema drizzle; create table drizzle.__drizzle_migrations (id serial primary key, hash text not null, created_at bigint)',
      ),
    );
    const target = path.join(tempDir('move-fail'), 'data');
    const refused = await move({}, ['--from', behind, '--to-dir', target]);
    expect(refused.output).toContain('the source’s schema is older than this version of the app');
    expect(refused.code).toBe(1);
    expect(existsSync(target)).toBe(false);
  }, 120_000);
});
