import { existsSync, readdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import type { Config } from '../config.ts';
import { createPglite, fromPglite } from '../db/client.ts';
import { DataDirError } from '../db/embedded/data-dir-errors.ts';
import { acquireDataDirLock, DataDirLockedError, lockFilePath } from '../db/embedded/data-dir-lock.ts';
import { keepPgliteFilesPrivate, tightenDataDir } from '../db/embedded/data-dir-modes.ts';
import { checkSourceSchema, moveDatabase, MoveError, pgClientConn, pgliteConn, type Conn, type MoveResult } from '../db/move.ts';
import { movedSecretsReminder } from '../db/sealed-secrets.ts';
import { runCommand } from './run-cli.ts';

// npm run db:move -- --to postgres://…            the embedded database (DATA_DIR) → an empty PostgreSQL
// npm run db:move -- --from postgres://… --to-dir DIR   a PostgreSQL database → a new embedded data directory
// Exit codes: 0 moved and checked, 1 failed (nothing changed), 2 bad arguments.
const USAGE = `Usage:
  npm run db:move -- --to postgres://user:pass@host:5432/db           copy DATA_DIR's embedded database into an empty PostgreSQL database
  npm run db:move -- --from postgres://user:pass@host:5432/db --to-dir DIR   copy a PostgreSQL database into a new embedded data directory
Stop the server that uses DATA_DIR first. The source is only read; the target must be empty.`;

type Args = { to: string } | { from: string; toDir: string };

function parseArgs(argv: string[]): Args | undefined {
  const named = new Map<string, string>();
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    const eq = arg.indexOf('=');
    const [name, value] = eq > 0 ? [arg.slice(0, eq), arg.slice(eq + 1)] : [arg, argv[++i]];
    if (!['--to', '--from', '--to-dir'].includes(name) || !value || named.has(name)) return undefined;
    named.set(name, value);
  }
  const isUrl = (s: string | undefined) => s !== undefined && /^postgres(ql)?:\/\//.test(s);
  if (named.size === 1 && isUrl(named.get('--to'))) return { to: named.get('--to')! };
  if (named.size === 2 && isUrl(named.get('--from')) && named.get('--to-dir'))
    return { from: named.get('--from')!, toDir: path.resolve(named.get('--to-dir')!) };
  return undefined;
}

/** The URL without its password, for messages. */
function shown(url: string): string {
  try {
    const u = new URL(url);
    if (u.password) u.password = '***';
    return u.toString();
  } catch {
    return 'the PostgreSQL URL';
  }
}

async function connectPostgres(url: string): Promise<pg.Client> {
  const client = new pg.Client({ connectionString: url, application_name: 'due-diligence-crm db:move', connectionTimeoutMillis: 10_000 });
  client.on('error', () => {}); // a lost connection fails the query in progress, which is reported
  try {
    await client.connect();
  } catch (err) {
    await client.end().catch(() => {});
    throw new MoveError(`cannot connect to ${shown(url)}: ${err instanceof Error ? err.message : String(err)}`);
  }
  return client;
}

/** Opens DATA_DIR's embedded database for reading, holding its lock (so no server writes meanwhile). */
async function openDataDir(dataDir: string): Promise<{ conn: Conn; close: () => Promise<void> }> {
  if (!existsSync(path.join(dataDir, 'PG_VERSION'))) throw new MoveError(`DATA_DIR ${dataDir} holds no embedded database: nothing to move`);
  const release = await acquireDataDirLock(dataDir, 'db:move').catch((err: unknown) => {
    throw err instanceof DataDirLockedError ? new DataDirError(`${err.inUse}: stop the server first, then run db:move again.`) : err;
  });
  const client = createPglite({ dataDir });
  try {
    await client.waitReady;
    keepPgliteFilesPrivate(client);
    // Brought up to this version's schema, as npm start would, so source and target match.
    await fromPglite(client).migrate();
  } catch (err) {
    await client.close().catch(() => {});
    release();
    throw err;
  }
  return {
    conn: pgliteConn(client),
    close: async () => {
      await client.close();
      release();
    },
  };
}

/** Connected calendars moved: their passwords are sealed with a key that does not move with them. */
const calendarRows = (result: MoveResult) => result.tables.find((t) => t.table === 'public.calendar_connections')?.rows ?? 0;

function report(result: MoveResult, write: (s: string) => void) {
  const width = Math.max(...result.tables.map((t) => t.table.length), 5);
  write(`${'table'.padEnd(width)}  ${'rows'.padStart(10)}  checksum\n`);
  for (const t of result.tables) write(`${t.table.padEnd(width)}  ${String(t.rows).padStart(10)}  ${t.checksum}\n`);
  write(
    `Copied ${result.rows.toLocaleString('en-US')} rows in ${result.tables.length} tables in ${(result.ms / 1000).toFixed(1)} s; every table's row count and checksum match the source.\n`,
  );
}

async function main(config: Config): Promise<number> {
  const args = parseArgs(process.argv.slice(2));
  if (!args) {
    process.stderr.write(`${USAGE}\n`);
    return 2;
  }
  const write = (s: string) => process.stdout.write(s);
  const onTable = (table: string, rows: number, done: boolean) => {
    if (done) write(`  ${table}: ${rows.toLocaleString('en-US')} rows\n`);
  };

  if ('to' in args) {
    const source = await openDataDir(config.dataDir);
    try {
      const target = await connectPostgres(args.to);
      try {
        write(`Moving DATA_DIR ${config.dataDir} into ${shown(args.to)}…\n`);
        const result = await moveDatabase({ source: source.conn, target: pgClientConn(target), onTable });
        report(result, write);
        write(
          `Next: stop using DATA_DIR and start the server with DATABASE_URL=${shown(args.to)} (npm start).\n` +
            `DATA_DIR ${config.dataDir} was only read: keep it until you have checked the new database.\n`,
        );
        write(movedSecretsReminder({ to: 'postgres', dataDir: config.dataDir }, calendarRows(result), config) ?? '');
      } finally {
        await target.end().catch(() => {});
      }
    } finally {
      await source.close();
    }
    return 0;
  }

  const { from, toDir } = args;
  if (existsSync(toDir) && readdirSync(toDir).some((name) => name !== path.basename(lockFilePath(toDir)))) {
    throw new MoveError(`${toDir} is not empty: name a new or empty directory with --to-dir`);
  }
  const created = !existsSync(toDir);
  const source = await connectPostgres(from);
  let release: (() => void) | undefined;
  let moved = false;
  try {
    // One snapshot: rows written meanwhile by a running server are either all in or all out.
    await source.query('begin isolation level repeatable read read only');
    // A source this version cannot move is refused before a new database is made for it (seconds).
    await checkSourceSchema(pgClientConn(source));
    release = await acquireDataDirLock(toDir, 'db:move');
    const target = createPglite({ dataDir: toDir });
    try {
      await target.waitReady;
      keepPgliteFilesPrivate(target);
      write(`Moving ${shown(from)} into a new embedded database in ${toDir}…\n`);
      const result = await moveDatabase({ source: pgClientConn(source), target: pgliteConn(target), onTable });
      moved = true;
      report(result, write);
      write(`Next: start the server with DATA_DIR=${toDir} and no DATABASE_URL (npm start). ${shown(from)} was only read.\n`);
      write(movedSecretsReminder({ to: 'embedded', dataDir: toDir }, calendarRows(result), config) ?? '');
    } finally {
      await target.close().catch(() => {});
      tightenDataDir(toDir);
    }
  } finally {
    await source.query('rollback').catch(() => {});
    await source.end().catch(() => {});
    release?.();
    // Nothing half-made is left behind: the directory as it was (absent or empty).
    if (!moved && existsSync(toDir)) {
      if (created) rmSync(toDir, { recursive: true, force: true });
      else for (const name of readdirSync(toDir)) rmSync(path.join(toDir, name), { recursive: true, force: true });
    }
  }
  return 0;
}

await runCommand('db:move', main, 'Nothing was changed.');
