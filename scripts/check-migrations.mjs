// `npm run db:check`: fails if the committed migrations in drizzle/ are out of date with
// the Drizzle schema (someone changed src/server/db/schema.ts and forgot `npm run db:generate`).
//
// It runs `drizzle-kit generate` into a temporary copy of drizzle/, so the working tree is
// never touched, and compares the copy with the original. drizzle-kit exits 0 even when it
// fails, so success is recognised only by its "No schema changes" line.
import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';

const root = process.cwd();
const configPath = path.join(root, 'drizzle.config.ts');
const migrationsDir = path.join(root, 'drizzle');

/** Every file under dir, as relative path → contents. */
function snapshot(dir) {
  const files = new Map();
  const walk = (rel) => {
    for (const name of readdirSync(path.join(dir, rel))) {
      const r = path.join(rel, name);
      if (statSync(path.join(dir, r)).isDirectory()) walk(r);
      else files.set(r, readFileSync(path.join(dir, r), 'utf8'));
    }
  };
  walk('');
  return files;
}

// Inside node_modules/.cache: ignored by git and linters; drizzle-kit wants `out` relative to cwd.
mkdirSync(path.join(root, 'node_modules/.cache'), { recursive: true });
const work = mkdtempSync(path.join(root, 'node_modules/.cache/db-check-'));
let exitCode = 1;
try {
  const out = path.join(work, 'drizzle');
  cpSync(migrationsDir, out, { recursive: true });
  // drizzle-kit loads this file with its TypeScript loader, so it can require the real config.
  const tempConfig = path.join(work, 'drizzle.config.ts');
  writeFileSync(
    tempConfig,
    `const base = require(${JSON.stringify(configPath)}).default;\n` +
      `export default { ...base, out: ${JSON.stringify(path.relative(root, out))} };\n`,
  );

  const result = spawnSync(path.join(root, 'node_modules/.bin/drizzle-kit'), ['generate', '--config', tempConfig], {
    cwd: root,
    encoding: 'utf8',
    // No terminal: a question (e.g. "is this column renamed?") must fail, not hang CI.
    stdio: ['ignore', 'pipe', 'pipe'],
    timeout: 120_000,
  });
  const output = `${result.stdout ?? ''}${result.stderr ?? ''}`;

  const before = snapshot(migrationsDir);
  const after = snapshot(out);
  const changed = [...after.keys()].filter((f) => before.get(f) !== after.get(f));

  if (changed.length > 0) {
    console.error('db:check FAILED: the migrations in drizzle/ are out of date with src/server/db/schema.ts.');
    console.error('Run `npm run db:generate` and commit the new files. drizzle-kit would write:');
    for (const f of changed) {
      console.error(`  drizzle/${f}`);
      if (f.endsWith('.sql')) console.error(after.get(f).replace(/^/gm, '    | '));
    }
  } else if (result.error || result.status !== 0 || !/No schema changes/i.test(output)) {
    console.error('db:check FAILED: drizzle-kit generate did not run cleanly:');
    console.error(result.error ? String(result.error) : output);
  } else {
    console.log(`db:check OK: drizzle/ matches the schema (${before.size} files checked).`);
    exitCode = 0;
  }
} finally {
  rmSync(work, { recursive: true, force: true });
}
process.exit(exitCode);
