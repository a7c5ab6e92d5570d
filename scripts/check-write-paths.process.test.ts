import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { floorOf, median, passes, WRITE_PATHS } from '../bench/write-paths.ts';
import { BUILT_SERVER, runNode } from '../src/server/test/process.ts';

describe('the write-path floor', () => {
  it('is half of each goal, judged on the median round', () => {
    expect(floorOf(WRITE_PATHS.events.goals.PostgreSQL)).toBe(0.15);
    expect(floorOf(WRITE_PATHS.leads.goals.PGlite)).toBe(0.0075);
    expect(median([0.3, 0.1, 0.2])).toBe(0.2);
    expect(median([0.4, 0.1, 0.2, 0.3])).toBeCloseTo(0.25);
  });

  it('fails a path below its floor, one that failed a request, or one that lost what it acknowledged', () => {
    const stored = { ok: true, detail: '' };
    expect(passes({ ratio: 0.16, floor: 0.15, stored, failures: 0 })).toBe(true);
    expect(passes({ ratio: 0.14, floor: 0.15, stored, failures: 0 })).toBe(false);
    expect(passes({ ratio: 0.5, floor: 0.15, stored, failures: 1 })).toBe(false);
    expect(passes({ ratio: 0.5, floor: 0.15, stored: { ok: false, detail: '' }, failures: 0 })).toBe(false);
  });
});

// The check end to end against the built server, its events path held 200 ms per request
// (bench/lib/slow-events.mjs): 64 connections can then send at most 320 events/s, far below
// a tenth of any hello-world this machine answers, so the check must fail and say which path.
describe.runIf(existsSync(BUILT_SERVER) || process.env.CI === 'true')('npm run check:write-paths', () => {
  it('fails on a deliberately slowed path, naming it, with everything it acknowledged stored', { timeout: 180_000 }, async () => {
    const check = runNode('scripts/check-write-paths.ts', {
      WRITE_PATHS_ENGINES: 'PGlite',
      WRITE_PATHS_PATHS: 'events',
      WRITE_PATHS_ROUNDS: '1',
      WRITE_PATHS_SECONDS: '2',
      BENCH_SERVER_NODE_ARGS: '--import ./bench/lib/slow-events.mjs',
    });
    expect(await check.exited).toBe(1);
    const line = check
      .output()
      .split('\n')
      .find((l) => l.includes('analytics events, PGlite'));
    expect(line, check.output()).toBeDefined();
    expect(line).toMatch(/^FAIL {2}analytics events, PGlite: \d\.\d{3,4}× hello-world/);
    expect(line).toMatch(/(\d[\d,]*) acknowledged, \1 stored/);
  });
});
