import { createHash } from 'node:crypto';
import type { PGlite } from '@electric-sql/pglite';
import { readMigrationFiles } from 'drizzle-orm/migrator';
import type pg from 'pg';
import { migrationsFolder } from './client.ts';

/**
 * Copies the whole database from one engine to the other (`npm run db:move`): the embedded
 * database to an empty PostgreSQL, or PostgreSQL to a new embedded data directory.
 *
 * The target gets its schema from our migrations, then every table's rows (the migrations
 * table included, so the target knows its schema's version), in foreign-key order, then every
 * sequence's position, and finally a row count and checksum per table compared with the
 * source's. All of it in one transaction on the target: a failure, or a mismatch, rolls back
 * and leaves the target as it was. The source is only read, from one snapshot.
 *
 * Rows travel as text (each column's own text form, cast back by the target), so no value
 * goes through a JavaScript type on the way: timestamps keep their microseconds, numbers
 * their digits. The target's own triggers are off while rows arrive (what they would add,
 * timeline entries and live-change notices, is already among the copied rows).
 */

/** One connection, in one session: the source's snapshot and the target's transaction need that. */
export type Conn = {
  query: <T = Record<string, string | null>>(text: string, params?: readonly unknown[]) => Promise<T[]>;
};

export const pgliteConn = (client: PGlite): Conn => ({
  query: async <T>(text: string, params?: readonly unknown[]) => (await client.query<T>(text, params ? [...params] : undefined)).rows,
});

export const pgClientConn = (client: pg.Client | pg.PoolClient): Conn => ({
  query: async <T>(text: string, params?: readonly unknown[]) => (await client.query(text, params ? [...params] : undefined)).rows as T[],
});

/** A refusal or a failed check: one sentence for the operator, nothing was changed. */
export class MoveError extends Error {}

type Column = { name: string; type: string; identity: boolean };
type Table = { name: string; columns: Column[]; key: string[] };
export type TableCheck = { table: string; rows: number; checksum: string };
export type MoveResult = { tables: TableCheck[]; rows: number; ms: number };

const SCHEMAS = ['public', 'drizzle'];
const q = (ident: string) => `"${ident.replaceAll('"', '""')}"`;

async function listTables(conn: Conn): Promise<Table[]> {
  const rows = await conn.query<{ name: string; column: string; type: string; identity: boolean; key: number | null }>(
    `select quote_ident(n.nspname) || '.' || quote_ident(c.relname) as name, a.attname as column,
            format_type(a.atttypid, a.atttypmod) as type, a.attidentity = 'a' as identity,
            array_position(i.indkey::int2[], a.attnum) as key
     from pg_class c
     join pg_namespace n on n.oid = c.relnamespace
     join pg_attribute a on a.attrelid = c.oid and a.attnum > 0 and not a.attisdropped and a.attgenerated = ''
     left join pg_index i on i.indrelid = c.oid and i.indisprimary
     where c.relkind in ('r', 'p') and n.nspname = any($1::text[])
     order by 1, a.attnum`,
    [`{${SCHEMAS.join(',')}}`],
  );
  const tables = new Map<string, Table & { keyOrder: [number, string][] }>();
  for (const row of rows) {
    let table = tables.get(row.name);
    if (!table) tables.set(row.name, (table = { name: row.name, columns: [], key: [], keyOrder: [] }));
    table.columns.push({ name: row.column, type: row.type, identity: row.identity });
    if (row.key !== null) table.keyOrder.push([Number(row.key), row.column]);
  }
  return [...tables.values()].map(({ keyOrder, ...table }) => ({
    ...table,
    key: keyOrder.sort((a, b) => a[0] - b[0]).map(([, column]) => column),
  }));
}

/** Tables ordered so that each comes after every table its foreign keys point to. */
async function dependencyOrder(conn: Conn, tables: Table[]): Promise<Table[]> {
  const edges = await conn.query<{ child: string; parent: string }>(
    `select quote_ident(cn.nspname) || '.' || quote_ident(c.relname) as child, quote_ident(pn.nspname) || '.' || quote_ident(p.relname) as parent
     from pg_constraint k
     join pg_class c on c.oid = k.conrelid join pg_namespace cn on cn.oid = c.relnamespace
     join pg_class p on p.oid = k.confrelid join pg_namespace pn on pn.oid = p.relnamespace
     where k.contype = 'f' and k.conrelid <> k.confrelid`,
  );
  const byName = new Map(tables.map((t) => [t.name, t]));
  const parents = new Map(tables.map((t) => [t.name, new Set<string>()]));
  for (const { child, parent } of edges) if (byName.has(child) && byName.has(parent)) parents.get(child)!.add(parent);
  const ordered: Table[] = [];
  const placed = new Set<string>();
  while (ordered.length < tables.length) {
    const ready = tables.filter((t) => !placed.has(t.name) && [...parents.get(t.name)!].every((p) => placed.has(p)));
    if (ready.length === 0) throw new MoveError('the tables’ foreign keys form a cycle: they cannot be copied one table after another');
    for (const t of ready) {
      placed.add(t.name);
      ordered.push(t);
    }
  }
  return ordered;
}

/** Row count and an order-free checksum of every row's text form (the sum of 60 bits of each row's MD5). */
async function checkTable(conn: Conn, table: string): Promise<TableCheck> {
  const [row] = await conn.query<{ rows: string; sum: string }>(
    `select count(*)::text as rows, coalesce(sum(('x' || substr(md5(t::text), 1, 15))::bit(60)::bigint::numeric), 0)::text as sum from ${table} t`,
  );
  return { table, rows: Number(row!.rows), checksum: createHash('sha256').update(row!.sum).digest('hex').slice(0, 16) };
}

/** The migrations this version of the app has, and whether the source has applied exactly them. */
export async function checkSourceSchema(source: Conn) {
  const migrations = readMigrationFiles({ migrationsFolder: migrationsFolder() });
  const [found] = await source.query<{ table: string | null }>(`select to_regclass('drizzle.__drizzle_migrations')::text as "table"`);
  if (!found?.table) throw new MoveError("the source is not this app's database (it has no migrations table)");
  const applied = new Set((await source.query<{ hash: string }>('select hash from drizzle.__drizzle_migrations')).map((r) => r.hash));
  const known = new Set(migrations.map((m) => m.hash));
  if ([...applied].some((h) => !known.has(h)))
    throw new MoveError('the source was migrated by a newer version of this app: update the app first');
  if (migrations.some((m) => !applied.has(m.hash))) {
    throw new MoveError(
      'the source’s schema is older than this version of the app: start this version against it once (it migrates at start), then move',
    );
  }
  return migrations;
}

/** Whether a database has any table, view or sequence of its own (an empty one has none). */
export async function userRelations(conn: Conn): Promise<string[]> {
  const rows = await conn.query<{ name: string }>(
    `select n.nspname || '.' || c.relname as name from pg_class c join pg_namespace n on n.oid = c.relnamespace
     where c.relkind in ('r', 'p', 'v', 'm', 'S', 'f')
       and n.nspname not in ('pg_catalog', 'information_schema') and n.nspname not like 'pg\\_toast%' and n.nspname not like 'pg\\_temp%'
     order by 1 limit 5`,
  );
  return rows.map((r) => r.name);
}

async function copyTable(source: Conn, target: Conn, table: Table, onProgress?: (rows: number) => void): Promise<number> {
  const columns = table.columns.map((c) => q(c.name)).join(', ');
  const overriding = table.columns.some((c) => c.identity) ? ' overriding system value' : '';
  // Each page travels as one JSON text: an array of rows, each an array of its columns' text
  // forms (or null). One value per statement on either side, instead of a bound parameter per
  // column and row, which PostgreSQL and PGlite parse and plan far more slowly.
  const cells = `array[${table.columns.map((c) => `t.${q(c.name)}::text`).join(', ')}]`;
  const fields = table.columns.map((c, i) => `(r->>${i})::${c.type}`).join(', ');
  const insert = `insert into ${table.name} (${columns})${overriding} select ${fields} from jsonb_array_elements($1::jsonb) r`;
  const batch = 5000;
  const keyTypes = table.key.map((k) => table.columns.find((c) => c.name === k)!.type);
  const keyIndexes = table.key.map((k) => table.columns.findIndex((c) => c.name === k));
  // Qualified: the table's own columns, in their own types.
  const keyList = table.key.map((k) => `t.${q(k)}`).join(', ');
  let copied = 0;
  let after: (string | null)[] | undefined;
  for (;;) {
    // Keyset pages in primary-key order; a table without a primary key is read whole.
    const where = after ? ` where (${keyList}) > (${table.key.map((_, i) => `$${i + 1}::${keyTypes[i]}`).join(', ')})` : '';
    const page = table.key.length > 0 ? `${where} order by ${keyList} limit ${batch}` : '';
    const ordered = table.key.length > 0 ? ` order by ${keyList}` : '';
    const [found] = await source.query<{ rows: string }>(
      `select coalesce(json_agg(${cells}${ordered}), '[]')::text as rows from (select * from ${table.name} t${page}) t`,
      after,
    );
    const rows = JSON.parse(found!.rows) as (string | null)[][];
    if (rows.length === 0) break;
    await target.query(insert, [found!.rows]);
    copied += rows.length;
    onProgress?.(copied);
    if (table.key.length === 0 || rows.length < batch) break;
    const last = rows[rows.length - 1]!;
    after = keyIndexes.map((i) => last[i] ?? null);
  }
  return copied;
}

async function copySequences(source: Conn, target: Conn) {
  const sequences = await source.query<{ name: string; last: string | null }>(
    `select quote_ident(schemaname) || '.' || quote_ident(sequencename) as name, last_value::text as last from pg_sequences where schemaname = any($1::text[])`,
    [`{${SCHEMAS.join(',')}}`],
  );
  for (const { name, last } of sequences) {
    if (last !== null) await target.query('select setval($1::regclass, $2::bigint, true)', [name, last]);
  }
}

export type MoveOptions = {
  source: Conn;
  target: Conn;
  /** Called as each table is done (and during long ones) with its rows so far. */
  onTable?: (table: string, rows: number, done: boolean) => void;
};

/**
 * Copies everything from `source` to `target`; the target must be empty. The source should be
 * read inside one snapshot (the caller opens it); the target's work is one transaction here.
 */
export async function moveDatabase({ source, target, onTable }: MoveOptions): Promise<MoveResult> {
  const started = performance.now();
  for (const conn of [source, target]) await conn.query(`set time zone 'UTC'`);
  const migrations = await checkSourceSchema(source);
  const existing = await userRelations(target);
  if (existing.length > 0)
    throw new MoveError(
      `the target database is not empty (it has ${existing.join(', ')}${existing.length === 5 ? ', …' : ''}): move into a new, empty database`,
    );

  await target.query('begin');
  try {
    // The schema, as the server's migrator would make it, in this transaction.
    await target.query('create schema if not exists drizzle');
    await target.query(
      'create table if not exists drizzle.__drizzle_migrations (id serial primary key, hash text not null, created_at bigint)',
    );
    for (const migration of migrations) for (const statement of migration.sql) if (statement.trim()) await target.query(statement);

    const sourceTables = await listTables(source);
    const targetTables = new Map((await listTables(target)).map((t) => [t.name, t]));
    for (const t of sourceTables) {
      const there = targetTables.get(t.name);
      const shape = (x: Table) => x.columns.map((c) => `${c.name} ${c.type}`).join(', ');
      if (!there || shape(there) !== shape(t))
        throw new MoveError(`the table ${t.name} differs between the source and the schema this version makes`);
    }
    const ordered = await dependencyOrder(source, sourceTables);
    // Triggers off first: a truncate trigger would write a row of its own (availability_versions').
    for (const t of ordered) await target.query(`alter table ${t.name} disable trigger user`);
    // What the migrations put in (default settings rows) is replaced by the source's rows.
    await target.query(`truncate ${ordered.map((t) => t.name).join(', ')}`);

    let rows = 0;
    for (const t of ordered) {
      const copied = await copyTable(source, target, t, (n) => onTable?.(t.name, n, false));
      rows += copied;
      onTable?.(t.name, copied, true);
    }
    await copySequences(source, target);
    for (const t of ordered) await target.query(`alter table ${t.name} enable trigger user`);

    const tables: TableCheck[] = [];
    for (const t of ordered) {
      const [from, to] = [await checkTable(source, t.name), await checkTable(target, t.name)];
      if (from.rows !== to.rows || from.checksum !== to.checksum) {
        throw new MoveError(
          `${t.name} does not match after the copy (source ${from.rows} rows, checksum ${from.checksum}; target ${to.rows} rows, checksum ${to.checksum})`,
        );
      }
      tables.push(from);
    }
    await target.query('commit');
    return { tables, rows, ms: performance.now() - started };
  } catch (err) {
    await target.query('rollback').catch(() => {});
    throw err;
  }
}
