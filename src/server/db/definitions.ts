import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { appRoot } from '../app-root.ts';

/**
 * The database's functions and triggers have one current definition each: a file in
 * src/server/db/functions/, named after its function, holding the function and the triggers
 * that call it. Migrations make tables; these files say what a write sets off
 * (docs/architecture.md lists every trigger). They are applied after the migrations, at each
 * start, in the migrations' transaction and under their lock (db/client.ts): a file whose text
 * changed since it was last applied (database_definitions keeps each file's SHA-256) is run
 * again, so several processes starting together apply it once. An unchanged file is left alone:
 * replacing a trigger locks its table against writes (a constraint trigger against reads too),
 * which a start beside serving processes must not do for nothing.
 * `npm run db:check` compares a database's definitions with the files (checkDefinitions).
 * Removing a file needs a migration that drops its objects.
 */
export type Definition = {
  /** The file's name without .sql: the function it defines. */
  name: string;
  sql: string;
  sha256: string;
  /** The triggers it creates, as `table.trigger`. */
  triggers: string[];
};

/** One connection, inside the caller's transaction: a parameterised query, and a script of several statements. */
export type DefinitionsConnection = {
  query: (text: string, params?: unknown[]) => Promise<Record<string, unknown>[]>;
  exec: (script: string) => Promise<void>;
};

export const functionsFolder = () => path.join(appRoot(), 'src/server/db/functions');

const TRIGGER = /^CREATE (?:OR REPLACE )?(?:CONSTRAINT )?TRIGGER (\w+)\b[\s\S]*?\bON (\w+)\b/gim;

export function readDefinitions(dir = functionsFolder()): Definition[] {
  return readdirSync(dir)
    .filter((file) => file.endsWith('.sql'))
    .sort()
    .map((file) => {
      const name = file.slice(0, -'.sql'.length);
      const sql = readFileSync(path.join(dir, file), 'utf8');
      if (!new RegExp(`^CREATE OR REPLACE FUNCTION ${name}\\(`, 'm').test(sql))
        throw new Error(`${file} must define the function ${name} (CREATE OR REPLACE FUNCTION ${name}(…))`);
      const triggers = [...sql.matchAll(TRIGGER)].map((m) => `${m[2]}.${m[1]}`);
      return { name, sql, sha256: createHash('sha256').update(sql).digest('hex'), triggers };
    });
}

/** Applies each definition whose text changed since it was last applied; returns their names. */
export async function applyChangedDefinitions(conn: DefinitionsConnection, definitions = readDefinitions()): Promise<string[]> {
  const rows = await conn.query('select name, sha256 from database_definitions');
  const applied = new Map(rows.map((r) => [String(r.name), String(r.sha256)]));
  const changed = definitions.filter((d) => applied.get(d.name) !== d.sha256);
  for (const d of changed) {
    await conn.exec(d.sql);
    await conn.query(
      `insert into database_definitions (name, sha256) values ($1, $2)
       on conflict (name) do update set sha256 = excluded.sha256, applied_at = now()`,
      [d.name, d.sha256],
    );
  }
  const names = new Set(definitions.map((d) => d.name));
  const gone = [...applied.keys()].filter((name) => !names.has(name));
  if (gone.length > 0) await conn.query('delete from database_definitions where name = any($1::text[])', [gone]);
  return changed.map((d) => d.name);
}

/** The database's own functions (not an extension's) and triggers, each with its definition as the database prints it. */
export async function inspectDefinitions(conn: DefinitionsConnection): Promise<Map<string, string>> {
  const rows = await conn.query(`
    select 'function ' || p.proname as object, pg_get_functiondef(p.oid) as definition
    from pg_proc p join pg_namespace n on n.oid = p.pronamespace
    where n.nspname = 'public'
      and not exists (select 1 from pg_depend d where d.objid = p.oid and d.deptype = 'e')
    union all
    select 'trigger ' || c.relname || '.' || t.tgname, pg_get_triggerdef(t.oid)
    from pg_trigger t join pg_class c on c.oid = t.tgrelid join pg_namespace n on n.oid = c.relnamespace
    where n.nspname = 'public' and not t.tgisinternal`);
  return new Map(rows.map((r) => [String(r.object), String(r.definition)]));
}

/**
 * What differs between a database's functions and triggers and the files: each file is run in
 * a transaction that is rolled back, and the definitions before and after compared, so the
 * database prints both sides alike (PostgreSQL 15 or PGlite). Also an object no file defines.
 * Empty when they match. Replacing triggers locks their tables until the rollback (a moment).
 */
export async function checkDefinitions(conn: DefinitionsConnection, definitions = readDefinitions()): Promise<string[]> {
  await conn.exec('begin');
  try {
    const before = await inspectDefinitions(conn);
    const problems: string[] = [];
    for (const d of definitions) {
      await conn.exec('savepoint definition');
      try {
        await conn.exec(d.sql);
        await conn.exec('release savepoint definition');
      } catch (err) {
        await conn.exec('rollback to savepoint definition');
        problems.push(`src/server/db/functions/${d.name}.sql does not apply: ${err instanceof Error ? err.message : String(err)}`);
      }
    }
    const after = await inspectDefinitions(conn);
    const defined = new Set(definitions.flatMap((d) => [`function ${d.name}`, ...d.triggers.map((t) => `trigger ${t}`)]));
    const fileOf = (object: string) => {
      const d = definitions.find((x) => `function ${x.name}` === object || x.triggers.some((t) => `trigger ${t}` === object));
      return `src/server/db/functions/${d?.name}.sql`;
    };
    for (const object of defined) {
      if (!before.has(object)) problems.push(`${object}: the database lacks it (${fileOf(object)} defines it)`);
      else if (before.get(object) !== after.get(object)) problems.push(`${object}: the database's differs from ${fileOf(object)}`);
    }
    for (const object of before.keys())
      if (!defined.has(object))
        problems.push(`${object}: no file in src/server/db/functions/ defines it (add one, or drop it in a migration)`);
    return problems.sort();
  } finally {
    await conn.exec('rollback');
  }
}
