import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { launch } from 'chrome-launcher';
import lighthouse from 'lighthouse';
import { startServer } from '../src/server/test/process.ts';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../tests/chromium.ts';

/**
 * Lighthouse (mobile emulation, its default config) on the built server's `/`, with the
 * system Chromium (CHROME_PATH, default /usr/bin/chromium) and no network beyond loopback.
 */
export const LIGHTHOUSE_CATEGORIES = ['performance', 'accessibility', 'best-practices', 'seo'] as const;
export type LighthouseScores = Record<(typeof LIGHTHOUSE_CATEGORIES)[number], number>;
/**
 * The least each score may be. Performance 98, not 100: React DOM's ~60 KB gzipped is parsed on
 * a throttled phone (docs/decisions/011-react-on-every-page.md); nothing excuses less than 100 on
 * the others.
 */
export const LIGHTHOUSE_TARGETS: LighthouseScores = { performance: 98, accessibility: 100, 'best-practices': 100, seo: 100 };
export const describeTargets = () => LIGHTHOUSE_CATEGORIES.map((c) => `${c} ≥ ${LIGHTHOUSE_TARGETS[c]}`).join(', ');

const CHROME_FLAGS = ['--headless=new', ...CHROMIUM_ARGS];

export type LighthouseResult = {
  scores: LighthouseScores;
  /** Audits that scored below 0.9 (id: title), for finding why a category is low. */
  failing: string[];
  /** Where the full JSON report was written. */
  reportPath: string;
};

/** Runs Lighthouse on `url` once. */
export async function runLighthouse(url: string): Promise<LighthouseResult> {
  const userDataDir = mkdtempSync(path.join(tmpdir(), 'bench-lighthouse-chrome-'));
  const chrome = await launch({
    chromePath: CHROMIUM_PATH,
    chromeFlags: CHROME_FLAGS,
    userDataDir,
    logLevel: 'silent',
  });
  try {
    const result = await lighthouse(url, {
      port: chrome.port,
      output: 'json',
      logLevel: 'error',
      onlyCategories: [...LIGHTHOUSE_CATEGORIES],
    });
    if (!result) throw new Error('Lighthouse returned no result');
    const { lhr } = result;
    if (lhr.runtimeError) throw new Error(`Lighthouse: ${lhr.runtimeError.code} ${lhr.runtimeError.message}`);
    const scores = {} as LighthouseScores;
    for (const id of LIGHTHOUSE_CATEGORIES) {
      const score = lhr.categories[id]?.score;
      if (typeof score !== 'number') throw new Error(`Lighthouse gave no ${id} score`);
      scores[id] = Math.round(score * 100);
    }
    const failing = Object.values(lhr.audits)
      .filter(
        (a) => typeof a.score === 'number' && a.score < 0.9 && a.scoreDisplayMode !== 'informative' && a.scoreDisplayMode !== 'manual',
      )
      .map((a) => `${a.id}: ${a.title}${a.displayValue ? ` (${a.displayValue})` : ''}`);
    const reportPath = path.join(tmpdir(), `lighthouse-${Date.now()}.json`);
    writeFileSync(reportPath, typeof result.report === 'string' ? result.report : JSON.stringify(lhr));
    return { scores, failing, reportPath };
  } finally {
    chrome.kill();
    rmSync(userDataDir, { recursive: true, force: true });
  }
}

/**
 * Starts the built server on a fresh PGlite data directory, runs Lighthouse on `/`, prints
 * the four scores and returns them. `pass` is false if any is below its target (LIGHTHOUSE_TARGETS).
 */
export async function benchLighthouse(env: Record<string, string> = {}): Promise<LighthouseResult & { pass: boolean }> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'bench-lighthouse-'));
  const server = await startServer(
    { NODE_ENV: 'production', LOG_LEVEL: 'warn', ...env, DATA_DIR: dataDir },
    { entry: 'built', isolated: true, timeoutMs: 90_000 },
  );
  try {
    const result = await runLighthouse(`${server.url}/`);
    console.log(`  ${LIGHTHOUSE_CATEGORIES.map((c) => `${c} ${result.scores[c]}`).join(', ')} (mobile emulation)`);
    for (const audit of result.failing) console.log(`    below 0.9: ${audit}`);
    console.log(`  report: ${result.reportPath}`);
    return { ...result, pass: LIGHTHOUSE_CATEGORIES.every((c) => result.scores[c] >= LIGHTHOUSE_TARGETS[c]) };
  } finally {
    await server.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const r = await benchLighthouse();
  process.exitCode = r.pass ? 0 : 1;
}
