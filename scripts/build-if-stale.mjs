// `npm start` and the command-line tools (`npm run admin`, `backup`, `restore`, `seed:demo`,
// `db:move`): builds only when the sources changed since the last build, then they run the
// built files. The stamp (dist/.build-stamp) is a SHA-256 over every file the build reads —
// the client and server sources (tests left out), the build scripts and configs, package.json
// and the lockfile — so a second start skips the ~10 s build, and a fresh clone (no stamp) or
// any edit builds. `--quiet` (the tools): nothing on stdout, which is the tool's alone (`npm
// run admin -- list` may be read by a script); a build's own output goes to stderr, and it
// reads no stdin (`echo "$PW" | npm run admin -- create …` is the tool's).
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { CLI_NAMES, WORKER_ENTRIES } from './build-server.mjs';

export const STAMP = 'dist/.build-stamp';
const INPUT_DIRS = ['src', 'scripts'];
const INPUT_FILES = ['package.json', 'package-lock.json', 'tsconfig.json', 'vite.public.config.ts', 'vite.admin.config.ts'];
const OUTPUTS = [
  'dist/server/main.js',
  ...CLI_NAMES.map((name) => `dist/server/cli/${name}.js`),
  ...Object.keys(WORKER_ENTRIES).map((name) => `dist/server/${name}.js`),
  'dist/client/app.html',
  'dist/client/index.html',
];
const isTest = (file) => /\.test\.[cm]?[jt]sx?$/.test(file) || file.includes(`${path.sep}test${path.sep}`);

function filesUnder(dir) {
  const out = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) out.push(...filesUnder(full));
    else if (entry.isFile() && !isTest(full)) out.push(full);
  }
  return out;
}

/** The hash of everything the build reads, in a fixed order (names and contents). */
export function sourcesHash(root = process.cwd()) {
  const files = [
    ...INPUT_DIRS.flatMap((d) => filesUnder(path.join(root, d))),
    ...INPUT_FILES.map((f) => path.join(root, f)).filter(existsSync),
  ].sort();
  const hash = createHash('sha256');
  for (const file of files) hash.update(path.relative(root, file)).update('\0').update(readFileSync(file)).update('\0');
  return hash.digest('hex');
}

const current = () => OUTPUTS.every((f) => existsSync(f)) && existsSync(STAMP) && readFileSync(STAMP, 'utf8').trim() === sourcesHash();

if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(new URL(import.meta.url).pathname)) {
  const quiet = process.argv[2] === '--quiet';
  if (process.argv[2] === '--stamp') {
    // The last step of `npm run build`: what was just built.
    writeFileSync(STAMP, `${sourcesHash()}\n`);
  } else if (current()) {
    if (!quiet) console.log('build: up to date (sources unchanged since the last build), starting');
  } else {
    if (quiet) console.error('build: the sources changed since the last build (or none was made): building first');
    const result = spawnSync('npm', ['run', 'build'], { stdio: quiet ? ['ignore', 2, 2] : 'inherit' });
    if (result.status !== 0) process.exit(result.status ?? 1);
  }
}
