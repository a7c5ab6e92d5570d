import type { PGlite } from '@electric-sql/pglite';

/** Every row of every table (the app's and the migrations'), each table ordered by its primary key, as JSON text. */
export async function allTableRows(client: PGlite, { except = [] }: { except?: string[] } = {}): Promise<Map<string, string[]>> {
  const { rows: tables } = await client.query<{ name: string }>(`
    select quote_ident(table_schema) || '.' || quote_ident(table_name) as name from information_schema.tables
    where table_type = 'BASE TABLE' and table_schema not in ('pg_catalog', 'information_schema') order by 1`);
  const result = new Map<string, string[]>();
  for (const { name } of tables) {
    if (except.includes(name)) continue;
    const { rows: keys } = await client.query<{ column: string }>(
      `select quote_ident(a.attname) as column from pg_index i
       join pg_attribute a on a.attrelid = i.indrelid and a.attnum = any(i.indkey)
       where i.indrelid = $1::regclass and i.indisprimary order by array_position(i.indkey::int2[], a.attnum)`,
      [name],
    );
    if (keys.length === 0) throw new Error(`${name} has no primary key`);
    const { rows } = await client.query<{ row: string }>(
      `select row_to_json(t)::text as row from ${name} t order by ${keys.map((k) => `t.${k.column}`).join(', ')}`,
    );
    result.set(
      name,
      rows.map((r) => r.row),
    );
  }
  return result;
}
