import { useId, useRef, useState, type ChangeEvent } from 'react';
import { Link, useNavigate } from 'react-router';
import { LEAD_IMPORT_FIELDS, LEAD_IMPORT_FIELD_LABELS, LEAD_IMPORT_MAX_ROWS, LEAD_IMPORT_REQUIRED } from '#shared/lead-import-fields';
import type { LeadImportDuplicates, LeadImportResult } from '#shared/schemas/lead-import';
import { ArrowLeft } from '#client/components/icons.tsx';
import { FieldError } from '#client/components/ui/form-field.tsx';
import { SelectField } from '#client/components/ui/select-field.tsx';
import { toast } from '#client/components/ui/toast-store.ts';
import { ApiError } from '#client/lib/api-client.ts';
import { useImportLeads } from '../api/import-leads.ts';
import {
  FIRST_DATA_ROW,
  guessMapping,
  importRows,
  mappingErrors,
  readImportFile,
  type ColumnMapping,
  type ImportFile,
} from './import-file.ts';
import { ImportPreview } from './import-preview.tsx';

const card = 'rounded-lg border border-slate-200 bg-white p-4 shadow-sm sm:p-5';
const primary =
  'inline-flex items-center justify-center rounded-md bg-blue-700 px-4 py-2 text-sm font-semibold text-white shadow-sm hover:bg-blue-800 disabled:cursor-not-allowed disabled:opacity-60';
const n = (value: number) => value.toLocaleString('en-US');
const leads = (count: number) => `${n(count)} ${count === 1 ? 'lead' : 'leads'}`;

/** docs/product-rules.md, "Importing leads": the toast after an import. */
export function importedMessage({ created, updated, skipped }: Pick<LeadImportResult, 'created' | 'updated' | 'skipped'>): string {
  return [
    `Imported ${leads(created)}.`,
    updated ? `Updated ${leads(updated)}.` : '',
    skipped ? `Skipped ${leads(skipped)} already there.` : '',
  ]
    .filter(Boolean)
    .join(' ');
}

/** /dashboard/leads/import: choose a CSV file, match its columns, preview, then import every row or none. */
export function LeadImportPage() {
  const id = useId();
  const navigate = useNavigate();
  const request = useImportLeads();
  const [file, setFile] = useState<ImportFile | null>(null);
  const [fileError, setFileError] = useState<string | undefined>();
  const [mapping, setMapping] = useState<ColumnMapping>({});
  const [duplicates, setDuplicates] = useState<LeadImportDuplicates>('skip');
  const [showMappingErrors, setShowMappingErrors] = useState(false);
  const [report, setReport] = useState<LeadImportResult | null>(null);
  const previewRef = useRef<HTMLDivElement>(null);
  const missing = mappingErrors(mapping);

  const chooseFile = async (event: ChangeEvent<HTMLInputElement>) => {
    const chosen = event.target.files?.[0];
    setReport(null);
    setShowMappingErrors(false);
    if (!chosen) return setFile(null);
    const read = readImportFile(chosen.name, await chosen.text());
    if ('error' in read) {
      setFile(null);
      return setFileError(read.error);
    }
    setFileError(undefined);
    setFile(read.file);
    setMapping(guessMapping(read.file.header));
  };
  const changeMapping = (next: ColumnMapping) => {
    setMapping(next);
    setReport(null);
  };
  const changeDuplicates = (next: LeadImportDuplicates) => {
    setDuplicates(next);
    setReport(null);
  };

  const send = (dryRun: boolean) => {
    if (!file) return;
    if (Object.keys(missing).length > 0) return setShowMappingErrors(true);
    const body = { rows: importRows(file, mapping), duplicates, dry_run: dryRun, file_name: file.name, first_row: FIRST_DATA_ROW };
    request.mutate(body, {
      onSuccess: (result) => {
        if (dryRun) {
          setReport(result);
          // The preview is below the fold on a phone: bring it into view and to the reader.
          requestAnimationFrame(() => previewRef.current?.focus());
          return;
        }
        toast.success(importedMessage(result));
        void navigate('/dashboard/leads');
      },
      onError: (error) => {
        if (error instanceof ApiError && error.importReport) {
          // The leads changed since the preview: show why nothing was stored.
          setReport(error.importReport);
          toast.error(error.message);
          return;
        }
        console.error('Importing leads failed', error);
        toast.error(
          error instanceof ApiError && error.status === 413
            ? error.message
            : dryRun
              ? 'Failed to check the file'
              : 'Failed to import leads',
        );
      },
    });
  };

  const columns = file?.header.map((name, index) => ({ index, label: name || `Column ${index + 1}` })) ?? [];
  const ready = report !== null && report.error_rows === 0;

  return (
    <section aria-labelledby="import-heading" className="max-w-4xl space-y-5">
      <Link to="/dashboard/leads" className="inline-flex items-center gap-1 text-sm font-medium text-blue-700 hover:underline">
        <ArrowLeft aria-hidden="true" className="size-4" />
        Back to leads
      </Link>
      <h1 id="import-heading" className="text-2xl font-bold text-slate-900">
        Import leads
      </h1>
      <div className={card}>
        <label htmlFor={`${id}-file`} className="mb-1 block text-sm font-medium text-slate-700">
          CSV file
        </label>
        <p id={`${id}-file-help`} className="mb-2 text-sm text-slate-700">
          A header row, then one lead per row; at most {n(LEAD_IMPORT_MAX_ROWS)} leads at once.
        </p>
        <input
          id={`${id}-file`}
          type="file"
          accept=".csv,text/csv"
          onChange={(e) => void chooseFile(e)}
          aria-describedby={fileError ? `${id}-file-help ${id}-file-error` : `${id}-file-help`}
          aria-invalid={fileError ? true : undefined}
          className="block w-full text-sm text-slate-700 file:mr-3 file:rounded-md file:border-0 file:bg-slate-100 file:px-3 file:py-2 file:text-sm file:font-semibold file:text-slate-800 hover:file:bg-slate-200"
        />
        <FieldError id={`${id}-file-error`} error={fileError} />
        {file ? <p className="mt-2 text-sm text-slate-700">{`${file.name}: ${leads(file.rows.length)}.`}</p> : null}
      </div>

      {file ? (
        <form
          className="space-y-5"
          noValidate
          onSubmit={(e) => {
            e.preventDefault();
            send(true);
          }}
        >
          <fieldset className={card}>
            <legend className="float-left mb-1 text-lg font-semibold text-slate-900">Match the columns</legend>
            <p className="clear-left mb-4 text-sm text-slate-700">
              {LEAD_IMPORT_REQUIRED.map((f) => LEAD_IMPORT_FIELD_LABELS[f]).join(', ')} are required.
            </p>
            <div className="grid grid-cols-1 gap-4 sm:grid-cols-2">
              {LEAD_IMPORT_FIELDS.map((field) => (
                <SelectField
                  key={field}
                  label={LEAD_IMPORT_FIELD_LABELS[field]}
                  value={mapping[field] === undefined ? '' : String(mapping[field])}
                  error={showMappingErrors ? missing[field] : undefined}
                  onChange={(e) => changeMapping({ ...mapping, [field]: e.target.value === '' ? undefined : Number(e.target.value) })}
                >
                  <option value="">Not in the file</option>
                  {columns.map((c) => (
                    <option key={c.index} value={c.index}>
                      {c.label}
                    </option>
                  ))}
                </SelectField>
              ))}
            </div>
          </fieldset>

          <fieldset className={card}>
            <legend className="float-left mb-3 text-lg font-semibold text-slate-900">Leads whose email already exists</legend>
            <div className="clear-left space-y-2">
              {(
                [
                  ['skip', 'Skip leads whose email exists'],
                  ['update', 'Update them'],
                ] as const
              ).map(([value, label]) => (
                <label key={value} className="flex items-center gap-2 text-sm text-slate-800">
                  <input
                    type="radio"
                    name={`${id}-duplicates`}
                    value={value}
                    checked={duplicates === value}
                    onChange={() => changeDuplicates(value)}
                    className="size-4"
                  />
                  {label}
                </label>
              ))}
            </div>
            <p className="mt-2 text-sm text-slate-700">Updating changes only the fields a row has; blank cells keep what the lead has.</p>
          </fieldset>

          <button type="submit" className={primary} disabled={request.isPending}>
            {request.isPending && request.variables?.dry_run ? 'Checking...' : 'Preview'}
          </button>
        </form>
      ) : null}

      {file && report ? (
        <div ref={previewRef} tabIndex={-1} className="space-y-4 outline-none">
          <ImportPreview file={file} mapping={mapping} duplicates={duplicates} report={report} />
          {report.error_rows > 0 ? (
            <p role="alert" className="rounded-md border border-red-300 bg-red-50 px-4 py-3 text-sm text-red-800">
              Fix the rows with errors in the file, then choose it again. Nothing is imported while a row has an error.
            </p>
          ) : null}
          <button type="button" className={primary} disabled={!ready || request.isPending} onClick={() => send(false)}>
            {request.isPending && request.variables?.dry_run === false ? 'Importing...' : 'Import'}
          </button>
        </div>
      ) : null}
    </section>
  );
}
