import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { appRoot } from '../app-root.ts';

/**
 * Every statement the product runs reads the time from crm_now() (db/functions/crm_now.sql), the
 * clock a test can set, never from now() or the other clocks of PostgreSQL, which it cannot. This
 * reads the server's code and its SQL functions, comments left out; tests and their helpers
 * (src/server/test/) may read the real clock.
 */
const ALLOWED: Record<string, string> = {
  'src/server/db/functions/crm_now.sql': 'its own body: now(), while no test clock is set',
  'src/server/db/definitions.ts': 'database_definitions.applied_at: the real time a schema change was applied',
  'src/server/db/queries/website-queries.ts':
    'clock_timestamp() stamps each save of the website apart, so the other processes notice it: a version, not a time of the product',
  'src/server/lib/request-rate.ts': 'a JavaScript function named now (performance.now), not SQL',
};

const CLOCK =
  /(?<![\w.])now\(\)|\bcurrent_(?:date|time|timestamp)\b|\blocaltime(?:stamp)?\b|\b(?:transaction|statement|clock)_timestamp\(/gi;

function serverFiles(dir = path.join(appRoot(), 'src/server')): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'test' ? [] : serverFiles(full);
    return /\.(ts|sql)$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) ? [full] : [];
  });
}

const withoutComments = (file: string, text: string) =>
  file.endsWith('.sql') ? text.replace(/--.*$/gm, '') : text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|[^:'"`\\])\/\/.*$/gm, '$1');

const clocksIn = (file: string) => withoutComments(file, readFileSync(file, 'utf8')).match(CLOCK) ?? [];

describe('the product reads the time from crm_now()', () => {
  const files = serverFiles();
  const relative = (file: string) => path.relative(appRoot(), file).split(path.sep).join('/');

  it('in every statement of the server and every database function', () => {
    const found = files.filter((f) => !(relative(f) in ALLOWED)).flatMap((f) => clocksIn(f).map((clock) => `${relative(f)}: ${clock}`));
    expect(found).toEqual([]);
  });

  it('the exceptions are still there and still the only ones (an exception that went leaves the list)', () => {
    for (const file of Object.keys(ALLOWED)) expect(clocksIn(path.join(appRoot(), file)), file).not.toEqual([]);
    expect(files.length).toBeGreaterThan(100);
  });
});
