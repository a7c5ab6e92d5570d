import { readFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { build, type BuildOptions } from 'esbuild';
import { describe, expect, it } from 'vitest';
// @ts-expect-error -- a plain ES module script, without types
import { CLI_NAMES as cliNames, SERVER_BUILD as serverBuild } from './build-server.mjs';

/**
 * What the server needs at run time is what the built server imports: the package.json
 * `dependencies` are exactly the packages dist/server/ imports (the browser's libraries, which
 * Vite bundles, and the build and test tools are devDependencies), each at one exact version,
 * and the command-line tools run built, like `npm start`, so none needs tsx.
 */
type Manifest = { scripts: Record<string, string>; dependencies: Record<string, string>; devDependencies: Record<string, string> };
const manifest = JSON.parse(readFileSync('package.json', 'utf8')) as Manifest;
const CLI_NAMES = cliNames as string[];
const SERVER_BUILD = serverBuild as BuildOptions;

/** `drizzle-orm/pg-core` → `drizzle-orm`; `@hono/node-server/conninfo` → `@hono/node-server`. */
const packageOf = (specifier: string) =>
  specifier
    .split('/')
    .slice(0, specifier.startsWith('@') ? 2 : 1)
    .join('/');

describe('the runtime dependencies', () => {
  it('are exactly the packages the built server and its tools import', async () => {
    const result = await build({ ...SERVER_BUILD, write: false, metafile: true, logLevel: 'silent' });
    const imported = new Set<string>();
    for (const output of Object.values(result.metafile!.outputs)) {
      for (const { path, external } of output.imports) {
        if (external && !path.startsWith('node:') && !builtinModules.includes(path)) imported.add(packageOf(path));
      }
    }
    expect([...imported].sort()).toEqual(Object.keys(manifest.dependencies).sort());
    // The tools are built with the server.
    expect(Object.keys(result.metafile!.outputs).filter((f) => f.endsWith('.js'))).toEqual(
      expect.arrayContaining(['dist/server/main.js', ...CLI_NAMES.map((name) => `dist/server/cli/${name}.js`)]),
    );
  }, 60_000);

  it('and the development ones are pinned to one exact version', () => {
    const loose = Object.entries({ ...manifest.dependencies, ...manifest.devDependencies }).filter(
      ([, version]) => !/^\d+\.\d+\.\d+$/.test(version),
    );
    expect(loose).toEqual([]);
  });
});

describe('the command-line tools', () => {
  it('run built, after building when the sources changed, as npm start does', () => {
    const scripts = { 'seed:demo': 'seed-demo', admin: 'admin', backup: 'backup', restore: 'restore', 'db:move': 'db-move' };
    expect(Object.values(scripts).sort()).toEqual([...CLI_NAMES].sort());
    for (const [script, name] of Object.entries(scripts)) {
      expect(manifest.scripts[script]).toBe(`node scripts/build-if-stale.mjs --quiet && exec node dist/server/cli/${name}.js`);
    }
    // Nothing an operator runs goes through tsx.
    for (const script of ['start', 'serve', ...Object.keys(scripts)]) expect(manifest.scripts[script]).not.toContain('tsx');
  });
});
