import { CsvError, guessDelimiter, parseCsv } from '#shared/csv';
import {
  LEAD_IMPORT_FIELDS,
  LEAD_IMPORT_FIELD_LABELS,
  LEAD_IMPORT_MAX_ROWS,
  LEAD_IMPORT_REQUIRED,
  type LeadImportField,
} from '#shared/lead-import-fields';
import type { LeadImportRow } from '#shared/schemas/lead-import';

/**
 * The browser's half of the lead import (docs/product-rules.md, "Importing leads"): read the
 * file, guess which column holds which field, and build the rows the server checks.
 */

/** A file read: its header cells and data rows (row 1 is the header, so data starts at row 2). */
export type ImportFile = { name: string; header: string[]; rows: string[][] };
export const FIRST_DATA_ROW = 2;

/** Column index per field; undefined when the file has no column for it. */
export type ColumnMapping = Partial<Record<LeadImportField, number>>;

const plural = (n: number, one: string, many: string) => `${n.toLocaleString('en-US')} ${n === 1 ? one : many}`;

/** The file's header and rows, or the message to show. Blank rows at the end (spreadsheets leave them) are dropped. */
export function readImportFile(name: string, text: string): { file: ImportFile } | { error: string } {
  let records: string[][];
  try {
    records = parseCsv(text, { delimiter: guessDelimiter(text) });
  } catch (err) {
    if (err instanceof CsvError) return { error: `This file cannot be read: ${err.message}` };
    throw err;
  }
  const isBlank = (r: string[]) => r.every((c) => c.trim() === '');
  while (records.length > 0 && isBlank(records[records.length - 1]!)) records.pop();
  const [header, ...rows] = records;
  if (!header || rows.length === 0) return { error: 'The file has no leads: it needs a header row and at least one row under it.' };
  if (rows.length > LEAD_IMPORT_MAX_ROWS) {
    return {
      error: `The file has ${plural(rows.length, 'lead', 'leads')}. At most ${LEAD_IMPORT_MAX_ROWS.toLocaleString('en-US')} can be imported at once: split it into parts.`,
    };
  }
  return { file: { name, header: header.map((h) => h.trim()), rows } };
}

/** Header names people use for each field, compared lower-case with punctuation as spaces. */
const HEADER_NAMES: Record<LeadImportField, string[]> = {
  full_name: ['name', 'full name', 'fullname', 'contact name', 'contact', 'lead name', 'client name', 'customer name'],
  email: ['email', 'e mail', 'email address', 'e mail address', 'mail'],
  phone: ['phone', 'phone number', 'telephone', 'tel', 'mobile', 'cell', 'cell phone', 'mobile phone'],
  property_type: ['property type', 'type', 'property', 'asset type', 'property types'],
  status: ['status', 'lead status', 'stage'],
  message: ['message', 'notes', 'note', 'comments', 'comment', 'additional information', 'description', 'details'],
  property_address: ['property address', 'address', 'street address', 'property location', 'location'],
  target_closing_date: ['target closing date', 'target closing', 'closing date', 'close date', 'target close date', 'closing'],
  estimated_fee: ['estimated fee', 'fee', 'est fee', 'estimated fee usd', 'fee usd', 'amount'],
  created_at: ['created date', 'created', 'created at', 'date added', 'date created', 'added', 'submitted', 'date submitted', 'date'],
};
const headerKey = (text: string) =>
  text
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, ' ')
    .trim();

/** Each field gets the first column whose header is one of its names; a column serves one field. */
export function guessMapping(header: string[]): ColumnMapping {
  const mapping: ColumnMapping = {};
  const taken = new Set<number>();
  const keys = header.map(headerKey);
  for (const field of LEAD_IMPORT_FIELDS) {
    for (const name of HEADER_NAMES[field]) {
      const index = keys.findIndex((k, i) => k === name && !taken.has(i));
      if (index === -1) continue;
      mapping[field] = index;
      taken.add(index);
      break;
    }
  }
  return mapping;
}

/** A required field without a column: its message, under its select. */
export function mappingErrors(mapping: ColumnMapping): Partial<Record<LeadImportField, string>> {
  const errors: Partial<Record<LeadImportField, string>> = {};
  for (const field of LEAD_IMPORT_REQUIRED)
    if (mapping[field] === undefined) errors[field] = `Choose the column that holds ${LEAD_IMPORT_FIELD_LABELS[field]}.`;
  return errors;
}

/**
 * A cell as its writer meant it: our export (and other careful writers) put an apostrophe
 * before a cell that a spreadsheet would run as a formula (=, +, -, @); it is not data.
 */
export const unguardCell = (cell: string) => (/^'[=+\-@\t\r]/.test(cell) ? cell.slice(1) : cell);

/** The rows to send: each mapped field with its cell's text. */
export function importRows(file: ImportFile, mapping: ColumnMapping): LeadImportRow[] {
  const mapped = LEAD_IMPORT_FIELDS.flatMap((field) => (mapping[field] === undefined ? [] : [[field, mapping[field]] as const]));
  return file.rows.map((cells) => {
    const row: LeadImportRow = {};
    for (const [field, index] of mapped) row[field] = unguardCell(cells[index] ?? '');
    return row;
  });
}
