#!/usr/bin/env node
/**
 * `npm audit` of the production dependencies, for CI:
 * - exit 1 when any high or critical advisory affects them (the findings are listed);
 * - exit 0 when there are none;
 * - exit 0 with one warning line when the registry's advisory endpoint cannot be reached or
 *   refuses the request (some registries and mirrors answer 405), since then nothing was
 *   checked rather than something found;
 * - exit 1 on anything else it cannot make sense of.
 * Extra arguments go to npm (for example `--registry=...`).
 */
import { spawnSync } from 'node:child_process';

const args = ['audit', '--omit=dev', '--audit-level=high', '--json', ...process.argv.slice(2)];
const run = spawnSync('npm', args, { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
if (run.error) fail(`could not run npm: ${run.error.message}`);

let report;
try {
  report = JSON.parse(run.stdout);
} catch {
  fail(`npm audit printed no JSON report (exit ${run.status}): ${firstLine(run.stderr || run.stdout)}`);
}

const counts = report?.metadata?.vulnerabilities;
if (counts && typeof counts === 'object') {
  const serious = Object.entries(report.vulnerabilities ?? {}).filter(([, v]) => v.severity === 'high' || v.severity === 'critical');
  const total = (counts.high ?? 0) + (counts.critical ?? 0);
  if (total > 0 || serious.length > 0) {
    console.error(`audit: ${counts.critical ?? 0} critical and ${counts.high ?? 0} high advisories in production dependencies:`);
    for (const [name, v] of serious) {
      const titles = (v.via ?? []).filter((x) => typeof x === 'object').map((x) => `${x.title} ${x.url ?? ''}`.trim());
      console.error(`  ${name} (${v.severity}, ${v.range}): ${titles.join('; ') || `via ${(v.via ?? []).join(', ')}`}`);
    }
    process.exit(1);
  }
  console.log(`audit: no high or critical advisories in production dependencies (${counts.total ?? 0} lower).`);
  process.exit(0);
}

// Not a report: npm's JSON error. Distinguish "the advisory service did not answer" from the rest.
const message = String(report?.message ?? report?.error?.summary ?? '');
const endpointRefused = typeof report?.statusCode === 'number' && /advisories|audits/.test(String(report?.uri ?? message));
const endpointUnreachable =
  /\/-\/npm\/v1\/security\/.* failed, reason:/.test(message) ||
  /^(ENOTFOUND|ECONNREFUSED|ECONNRESET|ETIMEDOUT|EAI_AGAIN|EHOSTUNREACH|ENETUNREACH)$/.test(
    String(report?.error?.code ?? report?.code ?? ''),
  );
if (endpointRefused || endpointUnreachable) {
  console.log(`audit: WARNING: not checked, the registry's advisory endpoint is unavailable (${firstLine(message)})`);
  process.exit(0);
}
fail(`npm audit failed (exit ${run.status}): ${firstLine(message || run.stderr)}`);

function firstLine(text) {
  return (
    String(text ?? '')
      .trim()
      .split('\n')[0]
      ?.slice(0, 300) ?? ''
  );
}

function fail(why) {
  console.error(`audit: ${why}`);
  process.exit(1);
}
