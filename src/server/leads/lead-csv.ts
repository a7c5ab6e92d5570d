import { csvRow } from '#shared/csv-write';
import { propertyTypeLabel } from '#shared/property-type-label';
import type { Lead } from '#shared/schemas/lead';

/**
 * The leads export's CSV (GET /api/leads/export): one row a lead, in the list's columns and
 * words, every cell safe from formulas (csvRow). The lead import reads such a file back.
 */

export const LEAD_CSV_HEADER = [
  'Name',
  'Email',
  'Phone',
  'Property Type',
  'Status',
  'Contacted',
  'Date Added',
  'Message',
  'Owner',
  'Property Address',
  'Target Closing Date',
  'Estimated Fee',
  'Next Step',
];

/** Cents as dollars with two decimals ("1500.00"), which spreadsheets read as a number. */
const dollars = (cents: number | null) => (cents === null ? null : (cents / 100).toFixed(2));

/** The header line. */
export const leadCsvHeader = () => csvRow(LEAD_CSV_HEADER);

/** One lead's line. */
export const leadCsvRow = (l: Lead) =>
  csvRow([
    l.full_name,
    l.email,
    l.phone,
    // Its label, as everywhere (the import reads it back).
    l.property_types[0] === undefined ? null : propertyTypeLabel(l.property_types[0]),
    l.status,
    l.contacted ? 'Yes' : 'No',
    l.created_at,
    l.message,
    // The owner by name, as the list shows them.
    l.owner_name,
    l.property_address,
    l.target_closing_date,
    dollars(l.estimated_fee_cents),
    l.follow_up_on ? [l.follow_up_on, l.follow_up_note].filter(Boolean).join(' ') : null,
  ]);
