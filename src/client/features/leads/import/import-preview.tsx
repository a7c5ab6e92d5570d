import { LEAD_IMPORT_FIELD_LABELS } from '#shared/lead-import-fields';
import type { LeadImportDuplicates, LeadImportResult, LeadImportRowError } from '#shared/schemas/lead-import';
import { FIRST_DATA_ROW, type ColumnMapping, type ImportFile } from './import-file.ts';

/** Rows shown from the top of the file; every row with an error is shown too. */
export const PREVIEW_ROWS = 10;

const n = (value: number) => value.toLocaleString('en-US');

type Props = { file: ImportFile; mapping: ColumnMapping; duplicates: LeadImportDuplicates; report: LeadImportResult };

/** What the server said about the file: the counts, then the first rows and every row with an error. */
export function ImportPreview({ file, mapping, duplicates, report }: Props) {
  const errorsByRow = new Map<number, LeadImportRowError[]>();
  for (const e of report.errors) errorsByRow.set(e.row, [...(errorsByRow.get(e.row) ?? []), e]);
  const duplicateRows = new Set(report.duplicate_rows);
  const shown = [...new Set([...file.rows.slice(0, PREVIEW_ROWS).map((_, i) => i + FIRST_DATA_ROW), ...errorsByRow.keys()])].sort(
    (a, b) => a - b,
  );
  const cell = (row: number, field: keyof ColumnMapping) => {
    const index = mapping[field];
    return index === undefined ? '' : (file.rows[row - FIRST_DATA_ROW]?.[index] ?? '');
  };
  const result = (row: number) => {
    const errors = errorsByRow.get(row);
    if (errors) {
      return (
        <ul className="space-y-0.5 text-red-700">
          {errors.map((e) => (
            <li key={e.field}>
              <span className="font-medium">{LEAD_IMPORT_FIELD_LABELS[e.field]}:</span> {e.message}
            </li>
          ))}
        </ul>
      );
    }
    if (duplicateRows.has(row))
      return <span className="text-slate-700">{duplicates === 'update' ? 'Update the existing lead' : 'Skip: the email exists'}</span>;
    return <span className="text-green-800">New lead</span>;
  };

  return (
    <section aria-labelledby="import-preview-heading" className="space-y-4">
      <h2 id="import-preview-heading" className="text-lg font-semibold text-slate-900">
        Preview
      </h2>
      <dl className="grid grid-cols-1 gap-3 sm:grid-cols-3">
        <Count label="New leads" value={n(report.created)} />
        <Count
          label={duplicates === 'update' ? 'Existing leads to update' : 'Existing leads to skip'}
          value={n(duplicates === 'update' ? report.updated : report.skipped)}
        />
        <Count label="Rows with errors" value={n(report.error_rows)} alert={report.error_rows > 0} />
      </dl>
      {report.error_rows > report.errors.length ? (
        <p className="text-sm text-slate-700">The first {n(report.errors.length)} errors are listed.</p>
      ) : null}
      <div
        className="overflow-x-auto rounded-lg border border-slate-200 bg-white"
        tabIndex={0}
        role="region"
        aria-labelledby="import-preview-caption"
      >
        <table className="min-w-full text-left text-sm">
          <caption id="import-preview-caption" className="px-3 py-2 text-left text-sm text-slate-700">
            The first {Math.min(PREVIEW_ROWS, file.rows.length)} rows and every row with an error.
          </caption>
          <thead className="bg-slate-50 text-slate-700">
            <tr>
              <th scope="col" className="px-3 py-2 font-semibold">
                Row
              </th>
              {/* The result before the cells, so a phone shows it without scrolling sideways. */}
              <th scope="col" className="px-3 py-2 font-semibold">
                Result
              </th>
              {(['full_name', 'email', 'phone', 'property_type'] as const).map((field) => (
                <th key={field} scope="col" className="px-3 py-2 font-semibold">
                  {LEAD_IMPORT_FIELD_LABELS[field]}
                </th>
              ))}
            </tr>
          </thead>
          <tbody className="divide-y divide-slate-100">
            {shown.map((row) => (
              <tr key={row} className={errorsByRow.has(row) ? 'bg-red-50' : undefined}>
                <th scope="row" className="px-3 py-2 font-medium text-slate-900">
                  {row}
                </th>
                <td className="min-w-56 px-3 py-2">{result(row)}</td>
                <td className="max-w-48 truncate px-3 py-2">{cell(row, 'full_name')}</td>
                <td className="max-w-56 truncate px-3 py-2">{cell(row, 'email')}</td>
                <td className="whitespace-nowrap px-3 py-2">{cell(row, 'phone')}</td>
                <td className="whitespace-nowrap px-3 py-2">{cell(row, 'property_type')}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </section>
  );
}

function Count({ label, value, alert = false }: { label: string; value: string; alert?: boolean }) {
  return (
    <div className={`rounded-lg border px-4 py-3 ${alert ? 'border-red-300 bg-red-50' : 'border-slate-200 bg-white'}`}>
      <dt className="text-sm text-slate-700">{label}</dt>
      <dd className={`text-2xl font-semibold ${alert ? 'text-red-700' : 'text-slate-900'}`}>{value}</dd>
    </div>
  );
}
