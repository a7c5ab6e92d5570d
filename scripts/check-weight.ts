/**
 * `npm run check:weight` (after `npm run build`; CI runs it): the gzipped JavaScript a first
 * visit to `/` and the admin app's first load download, read from dist/client the way the
 * server serves it, against their budgets (bench/page-weight.ts). Exits 1 past a budget, so a
 * page cannot grow heavier by accident; `npm run bench` prints the same figures through HTTP.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { describePageWeight, fromBuild, measurePageWeight, WEIGHT_BUDGETS } from '../bench/page-weight.ts';

const clientDir = path.resolve(import.meta.dirname, '../dist/client');
if (!existsSync(path.join(clientDir, 'index.html'))) {
  console.error(`check:weight: ${clientDir} has no build: run npm run build first`);
  process.exit(1);
}

let failed = false;
for (const { name, path: pagePath, budgetBytes } of WEIGHT_BUDGETS) {
  const weight = await measurePageWeight(`http://build${pagePath}`, fromBuild(clientDir));
  const js = weight.totals.js.gzip;
  const pass = js <= budgetBytes;
  failed ||= !pass;
  console.log(
    `${pass ? 'PASS' : 'FAIL'}  ${name}: ${js.toLocaleString('en-US')} bytes gzipped (budget ${budgetBytes.toLocaleString('en-US')})`,
  );
  if (!pass) for (const line of describePageWeight(weight)) console.log(line);
}
process.exitCode = failed ? 1 : 0;
