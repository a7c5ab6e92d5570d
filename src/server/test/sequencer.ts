import { readFileSync } from 'node:fs';
import { relative } from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/** A test file that starts processes (servers, CLIs, PostgreSQL tools) takes tens of seconds. */
const STARTS_PROCESSES = /\b(startServer|startCluster|spawn|spawnSync|execFile|fork)\(/;

/**
 * Longest first, so the two workers finish together instead of one working through a
 * minute-long file while the other is idle. A file's last duration (vitest's cache) when both
 * have one; on a clean checkout (CI), the files that start processes first, then the larger.
 * Projects are interleaved: the PostgreSQL leg's long files start as early as PGlite's.
 */
export default class LongestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const root = this.ctx.config.root;
    const weight = new Map<TestSpecification, number>();
    for (const spec of files) {
      const key = `${spec.project.name}:${relative(root, spec.moduleId)}`;
      const last = this.ctx.cache.getFileTestResults(key);
      if (last && !last.failed) {
        weight.set(spec, last.duration);
        continue;
      }
      const text = readFileSync(spec.moduleId, 'utf8');
      // Failed last time or never run: by what the file does, failed ones first of all.
      weight.set(spec, (last?.failed ? 1e9 : 0) + (STARTS_PROCESSES.test(text) ? 1e6 : 0) + text.length);
    }
    return [...files].sort((a, b) => weight.get(b)! - weight.get(a)!);
  }
}
