/**
 * `import`: 10,000 leads through POST /api/leads/import against the built server, on PGlite
 * and on PostgreSQL, each on a fresh database: the preview (dry run), the import itself
 * (target: under 10 s on PostgreSQL), the same 10,000 again with duplicates updated, and a new
 * 10,000 whose last row is bad (400, nothing stored). Each step's wall time includes sending the
 * JSON (a few MB) and the server's checks of every row.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { LEAD_STATUSES, PROPERTY_TYPE_LABELS } from '#shared/constants';
import type { LeadImportResult, LeadImportRow } from '#shared/schemas/lead-import';
import { signInOverHttp, type ServerProcess } from '../src/server/test/process.ts';
import { acquirePostgres, createFreshDatabase } from './lib/postgres.ts';

type Engine = 'PGlite' | 'PostgreSQL';

/** What bench/run.ts lends this part: its server start, cleanups and verdicts. */
export type ImportBench = {
  serve: (env: Record<string, string>) => Promise<ServerProcess>;
  admin: { email: string; password: string };
  cleanups: (() => Promise<unknown>)[];
  verdict: (name: string, pass: boolean, detail: string) => void;
};

export const IMPORT_ROWS = 10_000;
const TARGET_MS: Partial<Record<Engine, number>> = { PostgreSQL: 10_000 };

const TYPES = Object.values(PROPERTY_TYPE_LABELS);

/** Rows as a spreadsheet export has them: labels, dollars, U.S. dates, messages of some length. */
export function importRows(tag: string, count = IMPORT_ROWS): LeadImportRow[] {
  return Array.from({ length: count }, (_, i) => ({
    full_name: `Imported Person ${tag} ${i}`,
    email: `imported.${tag}.${i}@example.com`,
    phone: `(301) 555-${String(i % 10_000).padStart(4, '0')}`,
    property_type: TYPES[i % TYPES.length]!,
    status: LEAD_STATUSES[i % LEAD_STATUSES.length]!,
    message: i % 3 === 0 ? `Portfolio review ${i}: ${'three units, rent roll attached. '.repeat(4)}` : '',
    property_address: `${100 + (i % 900)} Market St, Frederick, MD`,
    target_closing_date: `${(i % 12) + 1}/${(i % 28) + 1}/2027`,
    estimated_fee: `$${(1_000 + (i % 50) * 250).toLocaleString('en-US')}.00`,
    created_at: `2025-${String((i % 12) + 1).padStart(2, '0')}-${String((i % 28) + 1).padStart(2, '0')}`,
  }));
}

async function post(
  server: ServerProcess,
  cookie: string,
  body: object,
): Promise<{ status: number; ms: number; bytes: number; result: LeadImportResult | undefined }> {
  const text = JSON.stringify({ file_name: 'bench.csv', first_row: 2, ...body });
  const started = performance.now();
  const res = await fetch(`${server.url}/api/leads/import`, {
    method: 'POST',
    headers: { cookie, 'content-type': 'application/json', origin: server.url },
    body: text,
  });
  const answer = (await res.json()) as LeadImportResult | { error: { import_report?: LeadImportResult } };
  const ms = performance.now() - started;
  const result = 'error' in answer ? answer.error.import_report : answer;
  return { status: res.status, ms, bytes: Buffer.byteLength(text), result };
}

async function leadCount(server: ServerProcess, cookie: string): Promise<number> {
  const res = await fetch(`${server.url}/api/leads?page_size=1`, { headers: { cookie } });
  return ((await res.json()) as { total: number }).total;
}

async function benchEngine(engine: Engine, env: Record<string, string>, bench: ImportBench) {
  console.log(`\nLead import of ${IMPORT_ROWS.toLocaleString('en-US')} rows through HTTP, ${engine}`);
  const server = await bench.serve(env);
  bench.cleanups.push(server.stop);
  const cookie = await signInOverHttp(server.url, bench.admin);
  const rows = importRows('a');
  const line = (step: string, r: Awaited<ReturnType<typeof post>>) =>
    console.log(
      `  ${step}: ${r.status} in ${(r.ms / 1000).toFixed(2)} s (${(r.bytes / 1024 / 1024).toFixed(1)} MB; created ${r.result?.created}, updated ${r.result?.updated}, errors ${r.result?.error_rows})`,
    );

  const preview = await post(server, cookie, { rows, duplicates: 'skip', dry_run: true });
  line('preview (dry run)', preview);
  const imported = await post(server, cookie, { rows, duplicates: 'skip', dry_run: false });
  line('import', imported);
  const stored = await leadCount(server, cookie);
  const again = await post(server, cookie, { rows, duplicates: 'update', dry_run: false });
  line('the same rows again, updating', again);
  const bad = importRows('b');
  bad[bad.length - 1]!.email = 'not-an-email';
  const refused = await post(server, cookie, { rows: bad, duplicates: 'skip', dry_run: false });
  line('new rows, the last one bad', refused);
  const after = await leadCount(server, cookie);

  bench.verdict(
    `${engine}: import of 10,000 leads stores them all`,
    imported.status === 200 && imported.result?.created === IMPORT_ROWS && stored === IMPORT_ROWS,
    `${imported.status}, ${stored.toLocaleString('en-US')} leads stored`,
  );
  const target = TARGET_MS[engine];
  bench.verdict(
    `${engine}: import of 10,000 leads, wall time`,
    target === undefined || imported.ms < target,
    `${(imported.ms / 1000).toFixed(2)} s${target ? ` (target < ${target / 1000} s)` : ' (no target)'}; preview ${(preview.ms / 1000).toFixed(2)} s, update ${(again.ms / 1000).toFixed(2)} s`,
  );
  bench.verdict(
    `${engine}: 10,000 rows with one bad row store nothing`,
    refused.status === 400 && refused.result?.error_rows === 1 && again.result?.updated === IMPORT_ROWS && after === IMPORT_ROWS,
    `${refused.status} in ${(refused.ms / 1000).toFixed(2)} s, leads ${after.toLocaleString('en-US')} after`,
  );
  bench.cleanups.pop();
  await server.stop();
}

export async function benchImport(bench: ImportBench) {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'bench-import-'));
  bench.cleanups.push(async () => rmSync(dataDir, { recursive: true, force: true }));
  await benchEngine('PGlite', { DATA_DIR: dataDir }, bench);
  const pgServer = await acquirePostgres();
  bench.cleanups.push(pgServer.release);
  const database = await createFreshDatabase(pgServer.url);
  bench.cleanups.push(database.drop);
  await benchEngine('PostgreSQL', { DATABASE_URL: database.url }, bench);
}
