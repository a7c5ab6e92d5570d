import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { PGlite } from '@electric-sql/pglite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pgliteConnection, type Database } from '../src/server/db/client.ts';
import { inspectDefinitions } from '../src/server/db/definitions.ts';
import { createTestDatabase } from '../src/server/test/database.ts';

/**
 * docs/architecture.md lists every trigger under "What a write sets off": its table, when it
 * fires, its name, its function and what it sets off. The list must name exactly the triggers a migrated database has, each on its table
 * and calling its function, so a new trigger is not left out of what a maintainer reads.
 */
const DOC = path.resolve(import.meta.dirname, '../docs/architecture.md');

function documentedTriggers(): string[] {
  const text = readFileSync(DOC, 'utf8');
  const start = text.indexOf('### What a write sets off');
  expect(start, 'docs/architecture.md has the section "What a write sets off"').toBeGreaterThan(0);
  const section = text.slice(start, text.indexOf('\n## ', start));
  return section
    .split('\n')
    .filter((line) => /^\| `/.test(line))
    .map((line) => {
      const [table, , trigger, fn] = line
        .slice(1)
        .split(' | ')
        .map((cell) => cell.trim().replaceAll('`', ''));
      return `${table}.${trigger} → ${fn}`;
    })
    .sort();
}

let database: Database;
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(async () => {
  await database.close();
});

describe('docs/architecture.md, "What a write sets off"', () => {
  it('names every trigger of a migrated database, on its table, with the function it calls', async () => {
    const client = (database.db as unknown as { $client: PGlite }).$client;
    const triggers = [...(await inspectDefinitions(pgliteConnection(client))).entries()]
      .filter(([object]) => object.startsWith('trigger '))
      .map(([object, definition]) => `${object.slice('trigger '.length)} → ${/EXECUTE FUNCTION (\w+)\(/.exec(definition)?.[1]}`)
      .sort();
    expect(triggers.length).toBeGreaterThan(30);
    expect(documentedTriggers()).toEqual(triggers);
  });
});
