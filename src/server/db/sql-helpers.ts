import { sql, type SQL } from 'drizzle-orm';

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
