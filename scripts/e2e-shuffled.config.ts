/**
 * The browser tests in a shuffled order, to show that no spec needs another to have run first:
 * playwright.config.ts with each spec file a project of its own, in a random order (the https
 * project, which runs specs of several folders, stays one). Workers take the files in that
 * order. The seed is printed; E2E_SHUFFLE_SEED runs the same order again.
 *
 *   npx playwright test -c scripts/e2e-shuffled.config.ts
 */
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { defineConfig, type PlaywrightTestConfig } from '@playwright/test';
import base from '../playwright.config.ts';

const ROOT = path.resolve(import.meta.dirname, '..');
// The workers evaluate this file again: the env var keeps one seed, and so one order, per run.
process.env.E2E_SHUFFLE_SEED ??= String(Date.now() % 1_000_000);
const seed = Number(process.env.E2E_SHUFFLE_SEED);
if (!process.env.TEST_WORKER_INDEX) console.log(`e2e-shuffled: E2E_SHUFFLE_SEED=${seed}`);

/** A small seeded generator (mulberry32), so a seed gives one order. */
function random(state: number): () => number {
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

function shuffle<T>(items: T[]): T[] {
  const next = random(seed);
  const out = [...items];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(next() * (i + 1));
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}

type Project = NonNullable<PlaywrightTestConfig['projects']>[number];

/** One project per spec file of a folder's project; a project with its own testMatch stays whole. */
function perFile(project: Project): Project[] {
  if (!project.testDir || project.testMatch) return [{ ...project, testDir: path.resolve(ROOT, project.testDir ?? base.testDir!) }];
  const dir = path.resolve(ROOT, project.testDir);
  return readdirSync(dir)
    .filter((file) => file.endsWith('.spec.ts'))
    .map((file) => ({ ...project, name: `${project.name}/${file}`, testDir: dir, testMatch: file }));
}

export default defineConfig({
  ...base,
  testDir: path.resolve(ROOT, base.testDir!),
  outputDir: path.resolve(ROOT, 'test-results'),
  reporter: [['list'], ['html', { open: 'never', outputFolder: path.resolve(ROOT, 'playwright-report') }]],
  globalSetup: path.resolve(ROOT, 'tests/e2e/global-setup.ts'),
  // The same servers, started from the repository's root as playwright.config.ts starts them.
  webServer: [base.webServer ?? []].flat().map((server) => ({ ...server, cwd: ROOT })),
  projects: shuffle((base.projects ?? []).flatMap(perFile)),
});
