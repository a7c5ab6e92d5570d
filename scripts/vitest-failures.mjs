// Prints the failed unit and API tests of a Vitest JSON report, each with the start of its
// error, in a few lines. .ci/run calls it last when the run failed, so the reason is in the
// log's tail (the default reporter prints it far above).
import { existsSync, readFileSync } from 'node:fs';

const file = process.argv[2] ?? 'artifacts/vitest-report.json';
if (!existsSync(file)) process.exit(0);
const report = JSON.parse(readFileSync(file, 'utf8'));
// eslint-disable-next-line no-control-regex
const plain = (text) => String(text ?? '').replace(/\u001b\[[0-9;]*m/g, '');

const failures = [];
for (const suite of report.testResults ?? []) {
  const tests = (suite.assertionResults ?? []).filter((t) => t.status === 'failed');
  for (const test of tests) failures.push({ file: suite.name, title: test.fullName ?? test.title, messages: test.failureMessages ?? [] });
  // A file that failed to load has no test results, only a message.
  if (tests.length === 0 && suite.status === 'failed')
    failures.push({ file: suite.name, title: '(the file itself)', messages: [suite.message] });
}
if (failures.length === 0) process.exit(0);

console.log(`\n==> failed unit and API tests (${failures.length}), again`);
for (const { file: where, title, messages } of failures.slice(0, 6)) {
  console.log(`\n${where.replace(process.cwd() + '/', '')} › ${title}`);
  for (const message of messages) {
    const lines = plain(message)
      .split('\n')
      .filter((l) => l.trim() !== '' && !l.includes('node_modules'));
    console.log(
      lines
        .slice(0, 10)
        .map((l) => `  ${l}`)
        .join('\n'),
    );
  }
}
if (failures.length > 6) console.log(`\n...and ${failures.length - 6} more`);
