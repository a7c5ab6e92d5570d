import { readFileSync } from 'node:fs';
import path from 'node:path';
import { readMigrationFiles } from 'drizzle-orm/migrator';
import { createPglite, migrationsFolder } from '../db/client.ts';

/**
 * An in-memory database for testing one migration on data as it was just before it: `before()`
 * applies every migration older than the one whose tag ends with `tagSuffix`, `migrate()`
 * applies that one. Each runs in one transaction, as the app's migrator runs them (a migration
 * may turn a setting on for its transaction only).
 */
export function migrationBefore(tagSuffix: string) {
  const journal = JSON.parse(readFileSync(path.join(migrationsFolder(), 'meta/_journal.json'), 'utf8')) as {
    entries: { idx: number; tag: string }[];
  };
  const index = journal.entries.findIndex((e) => e.tag.endsWith(tagSuffix));
  if (index <= 0) throw new Error(`No migration ending with ${tagSuffix} after the first`);
  const migrations = readMigrationFiles({ migrationsFolder: migrationsFolder() });
  const client = createPglite();
  const apply = (migration: (typeof migrations)[number]) =>
    client.transaction(async (tx) => {
      for (const statement of migration.sql) if (statement.trim()) await tx.exec(statement);
    });
  return {
    client,
    query: async <T>(text: string, params: unknown[] = []) => (await client.query<T>(text, params)).rows,
    before: async () => {
      for (const migration of migrations.slice(0, index)) await apply(migration);
    },
    migrate: () => apply(migrations[index]!),
  };
}
