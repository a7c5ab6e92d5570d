import * as z from 'zod';
import { LEAD_IMPORT_FIELDS, LEAD_IMPORT_MAX_ROWS } from '../lead-import-fields.ts';
import { storableText } from './text.ts';

export * from '../lead-import-fields.ts';

/**
 * Importing leads from a CSV file (docs/product-rules.md, "Importing leads"). The browser reads
 * the file and maps its columns; each row goes to the server as the text of its cells, keyed by
 * the field it was mapped to, and the server checks every row with the lead rules and answers
 * a report (a dry run) or stores all the rows at once.
 */

// A cell's text as the file has it; the row checks give the messages (rules/lead-fields.ts).
const cell = z.string().max(100_000).nullish();

export const leadImportRowSchema = z
  .object({
    full_name: cell,
    email: cell,
    phone: cell,
    /** A type or its label, as people write it: "single-family", "Single Family", "MULTIFAMILY". */
    property_type: cell,
    /** New, Contacted, Converted or Dropped, in any case; blank is New. */
    status: cell,
    message: cell,
    property_address: cell,
    /** 2026-12-31 or 12/31/2026. */
    target_closing_date: cell,
    /** Dollars: "$12,500.00", "12500", or a number. */
    estimated_fee: z.union([z.string().max(100), z.number()]).nullish(),
    /** When the lead came in: a date (midnight in the business time zone) or an ISO 8601 time. New leads only. */
    created_at: cell,
  })
  .meta({ id: 'LeadImportRow' });
export type LeadImportRow = z.infer<typeof leadImportRowSchema>;

export const LEAD_IMPORT_DUPLICATES = ['skip', 'update'] as const;
export type LeadImportDuplicates = (typeof LEAD_IMPORT_DUPLICATES)[number];

export const leadImportRequestSchema = z
  .object({
    rows: z
      .array(leadImportRowSchema)
      .min(1, 'The file has no leads.')
      .max(LEAD_IMPORT_MAX_ROWS, `At most ${LEAD_IMPORT_MAX_ROWS.toLocaleString('en-US')} leads can be imported at once.`),
    /** A row whose email is already a lead's: left alone, or that lead updated with the fields the row has. */
    duplicates: z.enum(LEAD_IMPORT_DUPLICATES, { error: 'Choose skip or update' }),
    /** Check every row and answer the report; store nothing. */
    dry_run: z.boolean({ error: 'dry_run must be true or false' }),
    /** Shown on each new lead's timeline ("Imported from leads.csv"). */
    file_name: storableText().trim().max(255, 'File name must be at most 255 characters').optional(),
    /** The number the file gives the first row, so messages name rows as the spreadsheet does (2 under a header line). */
    first_row: z.number().int().min(1).max(1_000_000).default(1),
  })
  .meta({ id: 'LeadImportRequest' });
export type LeadImportRequest = z.input<typeof leadImportRequestSchema>;

export const leadImportRowErrorSchema = z
  .object({
    /** The row's number, counted from `first_row`. */
    row: z.number().int(),
    field: z.enum(LEAD_IMPORT_FIELDS),
    message: z.string(),
  })
  .meta({ id: 'LeadImportRowError' });
export type LeadImportRowError = z.infer<typeof leadImportRowErrorSchema>;

export const leadImportResultSchema = z
  .object({
    /** True when nothing was stored (a dry run); the counts then say what an import would do. */
    dry_run: z.boolean(),
    total: z.number().int(),
    created: z.number().int(),
    updated: z.number().int(),
    skipped: z.number().int(),
    /** Rows with at least one error; an import stores nothing while there is one. */
    error_rows: z.number().int(),
    /** The errors, by row then field order (at most LEAD_IMPORT_MAX_ERRORS). */
    errors: z.array(leadImportRowErrorSchema),
    /** Rows whose email is already a lead's (skipped or updated). */
    duplicate_rows: z.array(z.number().int()),
  })
  .meta({ id: 'LeadImportResult' });
export type LeadImportResult = z.infer<typeof leadImportResultSchema>;
