import { SQL, sql, StringChunk } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import * as z from 'zod';
import type { Db } from './client.ts';
import { namedRunnerOf } from './embedded/pglite-prepared.ts';
import type { PreparedName } from './prepared-statements.ts';

/**
 * Running our SQL. Queries are written as SQL through drizzle's `sql` tag (parameters are
 * always bound, never spliced into the text); docs/decisions/006-raw-sql-and-checked-rows.md
 * says why, and why every row is checked against a schema in development and tests.
 */

let checkRows = true;

/**
 * Whether queryRows checks each row against its schema. On by default (tests); the server
 * turns it off in production, where the check would only cost time (config.rowChecks).
 */
export function setRowChecks(on: boolean): void {
  checkRows = on;
}

/** A row whose columns do not match the schema the query promised: a bug, never the client's fault. */
export class RowShapeError extends Error {}

function checkRow(schema: z.ZodType, row: unknown, query: SQL): void {
  const result = schema.safeParse(row);
  const where = () => dialect.sqlToQuery(query).sql.replace(/\s+/g, ' ').trim().slice(0, 120);
  if (!result.success) {
    const issue = result.error.issues[0]!;
    throw new RowShapeError(`a row of "${where()}" does not match its schema: ${issue.path.join('.') || '(row)'}: ${issue.message}`);
  }
  if (schema instanceof z.ZodObject && row && typeof row === 'object') {
    const extra = Object.keys(row).filter((column) => !(column in schema.shape));
    if (extra.length > 0) throw new RowShapeError(`a row of "${where()}" has columns its schema does not name: ${extra.join(', ')}`);
  }
}

/**
 * How a statement runs. `prepared`: as a named prepared statement, which PostgreSQL (and
 * PGlite) parses and plans once per connection instead of at every call. For hot statements
 * whose text never changes, only their parameters; the name comes from the one list of them
 * (db/prepared-statements.ts) and stands for that text.
 */
export type RunOptions = { prepared?: PreparedName };

/** What either driver answers a statement: its rows, and how many it touched (node-postgres and PGlite name it apart). */
type Result = { rows: unknown[]; rowCount?: number | null; affectedRows?: number };

function run(db: Db, query: SQL, prepared: PreparedName | undefined): Promise<Result> {
  return prepared === undefined ? (db.execute(query) as unknown as Promise<Result>) : runPrepared(db, prepared, query);
}

/**
 * Runs a query on either driver and returns its rows, typed by `schema` (one of the shared
 * response schemas, or a small one for internal reads). In development and tests each row is
 * checked against it: a renamed, missing or mistyped column, or one the schema does not
 * name, throws RowShapeError naming the query, instead of reaching the browser as undefined.
 * The rows are returned as the database sent them either way.
 */
export async function queryRows<S extends z.ZodType>(db: Db, query: SQL, schema: S, { prepared }: RunOptions = {}): Promise<z.infer<S>[]> {
  const { rows } = await run(db, query, prepared);
  if (checkRows) for (const row of rows) checkRow(schema, row, query);
  return rows as z.infer<S>[];
}

/** Runs a statement and returns how many rows it touched. */
export async function execute(db: Db, query: SQL, { prepared }: RunOptions = {}): Promise<number> {
  const result = await run(db, query, prepared);
  return result.rowCount ?? result.affectedRows ?? 0;
}

const dialect = new PgDialect();

/**
 * The text and parameters of a statement run prepared as `name`. Its text is the same at every
 * call (the name stands for it), so it is written once per process and kept; each call only
 * gathers the parameters, in drizzle's order: walking drizzle's own serializer each time (an
 * object per piece of text, class checks on each) showed in the booking statement's profile.
 * Statements holding more than text, nested `sql` and plain values (strings, numbers, booleans,
 * null), or inlining their values, are left to drizzle. Where rows are checked (development
 * and tests), every call is compared with drizzle's own.
 */
function preparedQuery(name: string, query: SQL): { sql: string; params: unknown[] } {
  const params: unknown[] = [];
  if (!plainValues(query, params)) return dialect.sqlToQuery(query);
  let kept = preparedTexts.get(name);
  if (kept === undefined || checkRows) {
    const built = dialect.sqlToQuery(query);
    if (kept !== undefined && kept.sql !== built.sql) throw new Error(`the prepared statement "${name}" changed its text`);
    if (checkRows && JSON.stringify(built.params) !== JSON.stringify(params))
      throw new Error(`the parameters gathered for "${name}" differ from drizzle's`);
    kept = { sql: built.sql, params: built.params.length };
    preparedTexts.set(name, kept);
  }
  if (params.length !== kept.params) throw new Error(`the prepared statement "${name}" changed its parameters`);
  return { sql: kept.sql, params };
}

/** Each prepared statement's text, and how many parameters it takes. */
const preparedTexts = new Map<string, { sql: string; params: number }>();

/** Gathers the values of `query` into `params`, as drizzle binds them; false if it holds anything but text, `sql` and plain values. */
function plainValues(query: SQL, params: unknown[]): boolean {
  if ((query as unknown as { shouldInlineParams: boolean }).shouldInlineParams) return false;
  for (const chunk of query.queryChunks) {
    if (chunk instanceof StringChunk || chunk === undefined) continue;
    if (chunk instanceof SQL) {
      if (!plainValues(chunk, params)) return false;
    } else if (chunk === null || typeof chunk === 'string' || typeof chunk === 'number' || typeof chunk === 'boolean') params.push(chunk);
    else return false;
  }
  return true;
}

/** node-postgres names the statement itself; on PGlite, embedded/pglite-prepared.ts does. */
async function runPrepared(db: Db, name: string, query: SQL): Promise<Result> {
  const { sql: text, params } = preparedQuery(name, query);
  const session = db._.session as unknown as { client: unknown };
  const runNamed = namedRunnerOf(session.client);
  if (runNamed) return runNamed(name, text, params);
  return (await db._.session.prepareQuery({ sql: text, params }, undefined, name, false).execute()) as Result;
}

/**
 * Runs `fn` in one transaction (committed when it resolves, rolled back when it throws),
 * handing it the transaction as a `Db`, so every query function runs inside it unchanged.
 * Drizzle types a transaction apart from the database it came from; they run the same queries.
 */
export function transaction<T>(db: Db, fn: (tx: Db) => Promise<T>): Promise<T> {
  return db.transaction((tx) => fn(tx as unknown as Db));
}

/**
 * A select-list item that keeps the live announcements of the rest of its transaction (the
 * triggers' NOTIFY) for after the commit: the caller then hands what it changed to
 * `NotificationHub.announce` (realtime/after-commit.ts says why).
 */
export const LIVE_AFTER_COMMIT = sql`set_config('crm.live', 'after_commit', true)`;

/** A timestamptz column as ISO 8601 in UTC (what the API returns for every timestamp). */
export const isoTimestamp = (column: SQL) => sql`to_char(${column} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

/**
 * A PostgreSQL array literal, passed as text and cast by the query (`${pgArray(x)}::text[]`):
 * the two drivers disagree on binding JS arrays, a literal works for both.
 */
export function pgArray(values: readonly (string | number | null)[]): string {
  const items = values.map((v) => (v === null ? 'NULL' : typeof v === 'number' ? String(v) : `"${v.replace(/["\\]/g, (m) => `\\${m}`)}"`));
  return `{${items.join(',')}}`;
}
