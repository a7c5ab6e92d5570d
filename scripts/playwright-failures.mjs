// Prints the failed browser tests of a Playwright JSON report, each with its error and where it
// failed, in a few lines. .ci/run calls it last when the run failed, so the reason is in the
// log's tail (the list reporter prints it far above, before the summary).
import { existsSync, readFileSync } from 'node:fs';

const file = process.argv[2] ?? 'artifacts/playwright-report.json';
if (!existsSync(file)) process.exit(0);
const report = JSON.parse(readFileSync(file, 'utf8'));
// eslint-disable-next-line no-control-regex
const plain = (text) => String(text ?? '').replace(/\u001b\[[0-9;]*m/g, '');

const failures = [];
const walk = (suite, titles) => {
  for (const spec of suite.specs ?? []) {
    for (const test of spec.tests ?? []) {
      const failed = (test.results ?? []).filter((r) => r.status === 'failed' || r.status === 'timedOut');
      for (const result of failed)
        failures.push({
          title: [...titles, spec.title].filter(Boolean).join(' › '),
          project: test.projectName,
          file: spec.file,
          line: spec.line,
          result,
        });
    }
  }
  for (const child of suite.suites ?? []) walk(child, [...titles, child.title]);
};
for (const suite of report.suites ?? []) walk(suite, []);
if (failures.length === 0) process.exit(0);

console.log(`\n==> failed browser tests (${failures.length}), again`);
for (const { title, project, file, line, result } of failures.slice(0, 5)) {
  console.log(`\n[${project}] ${file}:${line} ${title} (${result.status}, ${result.duration} ms)`);
  for (const error of result.errors ?? []) {
    const lines = plain(error.message)
      .split('\n')
      .filter((l) => l.trim() !== '');
    console.log(
      lines
        .slice(0, 12)
        .map((l) => `  ${l}`)
        .join('\n'),
    );
    if (error.location) console.log(`  at ${error.location.file}:${error.location.line}:${error.location.column}`);
  }
}
if (failures.length > 5) console.log(`\n...and ${failures.length - 5} more`);
