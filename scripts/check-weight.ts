/**
 * `npm run check:weight` (after `npm run build`; CI runs it): the gzipped JavaScript a first
 * visit to `/` downloads before any interaction, and the admin app's first load and each of its
 * lazy chunks, read from dist/client the way the server serves it, against their budgets
 * (bench/page-weight.ts); it also lists what `/` loads later. Exits 1 past a budget, so a
 * page cannot grow heavier by accident; `npm run bench` prints the same figures through HTTP.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import {
  describePageWeight,
  fromBuild,
  measureChunkWeights,
  measurePageWeight,
  ROUTE_CHUNK_BUDGET_BYTES,
  WEIGHT_BUDGETS,
} from '../bench/page-weight.ts';

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
  if (pagePath === '/') {
    // Not in the figure: what the public pages' code loads on demand, each with what it imports
    // (the lead form's code as the form nears the viewport; a booking's page, on /booking only).
    // The booking picker loads from the lead form's chunk, once the form is sent.
    for (const c of await measureChunkWeights(weight, fromBuild(clientDir)))
      console.log(`  on demand, not counted: ${path.basename(c.url)}, ${c.gzip.toLocaleString('en-US')} bytes (${c.files.length} files)`);
  }
  if (pagePath !== '/login') continue;
  // Each lazy page or dialog of the admin app: what opening it adds to the first load.
  const chunks = await measureChunkWeights(weight, fromBuild(clientDir));
  const over = chunks.filter((c) => c.gzip > ROUTE_CHUNK_BUDGET_BYTES);
  failed ||= over.length > 0;
  console.log(
    `${over.length === 0 ? 'PASS' : 'FAIL'}  each of the admin app's ${chunks.length} on-demand chunks adds at most ${ROUTE_CHUNK_BUDGET_BYTES.toLocaleString('en-US')} bytes gzipped to the first load`,
  );
  for (const c of chunks.slice(0, 8))
    console.log(
      `  ${c.gzip > ROUTE_CHUNK_BUDGET_BYTES ? 'over' : 'ok  '} ${path.basename(c.url)}: ${c.gzip.toLocaleString('en-US')} bytes (${c.files.length} files)`,
    );
}
process.exitCode = failed ? 1 : 0;
