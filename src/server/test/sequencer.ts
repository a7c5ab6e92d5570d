import { readFileSync } from 'node:fs';
import { relative } from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/** A test file that starts processes (servers, CLIs, PostgreSQL tools) takes tens of seconds. */
const STARTS_PROCESSES = /\b(startServer|startCluster|spawn|spawnSync|execFile|fork)\(/;

/**
 * The projects in this order, each one's files together, and within one the files of each test
 * environment together: Vitest keeps a worker of a project that shares its module cache
 * (`isolate: false`) only if the next file in the queue is of the same project and
 * environment, and otherwise starts a new one, which imports everything again. Interleaved, the
 * API legs lost most of what sharing saves, and the unit project (node and happy-dom files)
 * started a worker per switch. The process project first: its files are the longest.
 */
const PROJECT_ORDER = ['process', 'api (postgresql)', 'api (pglite)', 'unit'];
const HAPPY_DOM = /@vitest-environment happy-dom/;

/**
 * Project by project (above), and within a project longest first, so the two workers finish
 * together instead of one working through a minute-long file while the other is idle. A file's
 * last duration (vitest's cache) when both have one; on a clean checkout (CI), the files that
 * start processes first, then the larger.
 */
export default class LongestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const root = this.ctx.config.root;
    const weight = new Map<TestSpecification, number>();
    const group = new Map<TestSpecification, number>();
    for (const spec of files) {
      const text = readFileSync(spec.moduleId, 'utf8');
      const project = PROJECT_ORDER.indexOf(spec.project.name);
      group.set(spec, 2 * (project === -1 ? PROJECT_ORDER.length : project) + (HAPPY_DOM.test(text) ? 1 : 0));
      const key = `${spec.project.name}:${relative(root, spec.moduleId)}`;
      const last = this.ctx.cache.getFileTestResults(key);
      // Failed last time or never run: by what the file does, failed ones first of all.
      const guess = (last?.failed ? 1e9 : 0) + (STARTS_PROCESSES.test(text) ? 1e6 : 0) + text.length;
      weight.set(spec, last && !last.failed ? last.duration : guess);
    }
    return [...files].sort((a, b) => group.get(a)! - group.get(b)! || weight.get(b)! - weight.get(a)!);
  }
}
