import { readFileSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

/**
 * The README is a user's start, not a manual: at most 400 lines, the rest in docs/guide/ and
 * docs/operations.md. Its configuration table is the one list of settings: a row for every
 * environment variable src/server/config.ts reads, and none for a variable it does not.
 */
const ROOT = path.resolve(import.meta.dirname, '..');
const README = readFileSync(path.join(ROOT, 'README.md'), 'utf8');
const CONFIG_FILE = 'src/server/config.ts';

const MAX_README_LINES = 400;

/**
 * Every environment variable the configuration reads: the keys of the object literal given to
 * `z.object(...)` as `envSchema`, and any `process.env.NAME` (or `process.env['NAME']`) in the file.
 */
function settingsReadBy(source: string): string[] {
  const file = ts.createSourceFile(CONFIG_FILE, source, ts.ScriptTarget.Latest, true);
  const names = new Set<string>();
  const visit = (node: ts.Node) => {
    if (ts.isVariableDeclaration(node) && node.name.getText(file) === 'envSchema' && node.initializer) {
      const literal = schemaObject(node.initializer);
      if (!literal) throw new Error(`${CONFIG_FILE}: envSchema is not z.object({ ... })`);
      for (const property of literal.properties) {
        const name = property.name && propertyName(property.name);
        if (name) names.add(name);
      }
    }
    if (ts.isPropertyAccessExpression(node) && isProcessEnv(node.expression)) names.add(node.name.text);
    if (ts.isElementAccessExpression(node) && isProcessEnv(node.expression) && ts.isStringLiteralLike(node.argumentExpression))
      names.add(node.argumentExpression.text);
    ts.forEachChild(node, visit);
  };
  visit(file);
  return [...names].sort();
}

/** The `{ ... }` of `z.object({ ... })`, through any `.strict()` or other call chained after it. */
function schemaObject(expression: ts.Expression): ts.ObjectLiteralExpression | undefined {
  if (!ts.isCallExpression(expression)) return undefined;
  const callee = expression.expression;
  if (ts.isPropertyAccessExpression(callee) && callee.name.text === 'object') {
    const [first] = expression.arguments;
    return first && ts.isObjectLiteralExpression(first) ? first : undefined;
  }
  return ts.isPropertyAccessExpression(callee) ? schemaObject(callee.expression) : undefined;
}

function propertyName(name: ts.PropertyName): string | undefined {
  if (ts.isIdentifier(name) || ts.isStringLiteralLike(name)) return name.text;
  return undefined;
}

const isProcessEnv = (expression: ts.Expression) =>
  ts.isPropertyAccessExpression(expression) &&
  expression.name.text === 'env' &&
  ts.isIdentifier(expression.expression) &&
  expression.expression.text === 'process';

/** The lines of the README's "## Configuration" section, up to the next "## " heading. */
function configurationSection(readme: string): string[] {
  const lines = readme.split('\n');
  const start = lines.findIndex((line) => /^## Configuration\s*$/.test(line));
  if (start < 0) throw new Error('README.md has no "## Configuration" section');
  const end = lines.findIndex((line, i) => i > start && /^## /.test(line));
  return lines.slice(start + 1, end < 0 ? undefined : end);
}

/**
 * The settings the configuration table lists: the first cell of each of its rows, which holds
 * one setting's name in backticks (one setting a line). Header and separator rows hold none.
 */
function settingsInTable(readme: string): string[] {
  return configurationSection(readme)
    .filter((line) => line.startsWith('|'))
    .map((line) => /^\|\s*`([A-Z][A-Z0-9_]*)`\s*\|/.exec(line)?.[1])
    .filter((name): name is string => name !== undefined);
}

describe('README.md', () => {
  it(`is at most ${MAX_README_LINES} lines`, () => {
    const lines = README.endsWith('\n') ? README.slice(0, -1).split('\n').length : README.split('\n').length;
    expect(lines, `README.md has ${lines} lines: move the detail to docs/guide/ or docs/operations.md`).toBeLessThanOrEqual(
      MAX_README_LINES,
    );
  });

  const read = settingsReadBy(readFileSync(path.join(ROOT, CONFIG_FILE), 'utf8'));
  const listed = settingsInTable(README);

  it('finds the settings src/server/config.ts reads', () => {
    // A parser that found nothing would make the next test pass whatever the table says.
    expect(read).toContain('PORT');
    expect(read).toContain('SITE_NAME');
    expect(read.length).toBeGreaterThan(30);
  });

  it('lists every setting src/server/config.ts reads in its configuration table, one row each', () => {
    const missing = read.filter((name) => !listed.includes(name));
    expect(missing, `settings missing from README.md's configuration table: ${missing.join(', ')}`).toEqual([]);
  });

  it('lists no setting twice and none that src/server/config.ts does not read', () => {
    const unknown = listed.filter((name) => !read.includes(name));
    const twice = listed.filter((name, i) => listed.indexOf(name) !== i);
    expect({ unknown, twice }).toEqual({ unknown: [], twice: [] });
  });

  it('links each setting to the page that explains it', () => {
    const unlinked = configurationSection(README)
      .filter((line) => /^\|\s*`[A-Z][A-Z0-9_]*`\s*\|/.test(line))
      .filter((line) => !/\]\([^)\s]+\)\s*\|\s*$/.test(line));
    expect(unlinked).toEqual([]);
  });
});

describe('settingsReadBy', () => {
  it('reads the keys of envSchema and process.env, and nothing else', () => {
    const source = `
      const other = z.object({ NOT_A_SETTING: z.string() });
      const envSchema = z.object({
        PORT: intInRange(0, 65535, 3000),
        'QUOTED_NAME': optionalString,
        NESTED: z.object({ INNER: z.string() }).optional(),
      });
      const debug = process.env.DEBUG_FLAG ?? process.env['OTHER_FLAG'];
    `;
    expect(settingsReadBy(source)).toEqual(['DEBUG_FLAG', 'NESTED', 'OTHER_FLAG', 'PORT', 'QUOTED_NAME']);
  });
});

describe('settingsInTable', () => {
  it('takes the first cell of each row of the configuration section only', () => {
    const readme = [
      '## Run it',
      '| `NOT_HERE` | x |',
      '## Configuration',
      '| name | what it does | default | explained in |',
      '|---|---|---|---|',
      '| `PORT` | HTTP port | `3000` | [ops](docs/operations.md) |',
      '| `MAIL_FROM` | the sender | `"<SITE_NAME>" <SITE_EMAIL>` | [email](docs/guide/email.md) |',
      '## Next',
      '| `AFTER` | x |',
    ].join('\n');
    expect(settingsInTable(readme)).toEqual(['PORT', 'MAIL_FROM']);
  });
});
