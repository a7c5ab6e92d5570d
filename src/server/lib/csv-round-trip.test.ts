import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseCsv } from '#shared/csv';
import { csvCell, csvRow } from '#shared/csv-write';

// The browser's CSV reader (src/shared/csv.ts, for the lead import) reads back what the export writes.
/** Fields of any text (lone surrogates aside: a file holds well-formed text), line breaks and quotes often. */
const field = fc.oneof(
  fc.string({ unit: 'grapheme', maxLength: 12 }),
  fc
    .array(fc.constantFrom('a', ' ', ',', '"', '\r', '\n', '\r\n', ';', '\t', 'é', '🏠', '='), { maxLength: 8 })
    .map((parts) => parts.join('')),
);
const records = fc.array(fc.array(field, { minLength: 1, maxLength: 6 }), { minLength: 1, maxLength: 8 });

/** What the server's CSV export writes for a cell (a formula-like cell gets a leading apostrophe). */
const asExported = (value: string) => csvCell(value).slice(1, -1).replaceAll('""', '"');

/** A minimal writer: quotes only the fields that need it, LF between records. */
const quoteIfNeeded = (value: string) => (/[",\r\n]/.test(value) || value === '' ? `"${value.replace(/"/g, '""')}"` : value);

describe('parseCsv round trips', () => {
  it('reads back what the server export (csvRow) writes, CRLF and quotes everywhere', () => {
    fc.assert(
      fc.property(records, (rows) => {
        const text = rows.map((r) => csvRow(r)).join('');
        expect(parseCsv(text)).toEqual(rows.map((r) => r.map(asExported)));
      }),
      { numRuns: 500 },
    );
  });

  it('reads back a writer that quotes only when needed, with a byte order mark and no final line break', () => {
    fc.assert(
      fc.property(records, (rows) => {
        const text = `\ufeff${rows.map((r) => r.map(quoteIfNeeded).join(',')).join('\n')}`;
        expect(parseCsv(text)).toEqual(rows);
      }),
      { numRuns: 500 },
    );
  });
});
