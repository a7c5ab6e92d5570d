/** The lead import's limits and the fields a file's columns map to: values the browser needs without zod (schemas/lead-import.ts re-exports them). */

export const LEAD_IMPORT_MAX_ROWS = 10_000;
/** The import's own body limit (the API's other requests: 64 KB): 10,000 rows of JSON are a few MB. */
export const LEAD_IMPORT_MAX_BYTES = 8 * 1024 * 1024;
/** The import's path: the one request app.ts leaves to its own body limit, read once the session is checked. */
export const LEAD_IMPORT_PATH = '/api/leads/import';
/** The report lists at most this many errors (it counts every row with one). */
export const LEAD_IMPORT_MAX_ERRORS = 1000;

/** What a column can be mapped to, in the order the mapping shows them. */
export const LEAD_IMPORT_FIELDS = [
  'full_name',
  'email',
  'phone',
  'property_type',
  'status',
  'message',
  'property_address',
  'target_closing_date',
  'estimated_fee',
  'created_at',
] as const;
export type LeadImportField = (typeof LEAD_IMPORT_FIELDS)[number];

export const LEAD_IMPORT_FIELD_LABELS: Record<LeadImportField, string> = {
  full_name: 'Name',
  email: 'Email',
  phone: 'Phone',
  property_type: 'Property type',
  status: 'Status',
  message: 'Message',
  property_address: 'Property address',
  target_closing_date: 'Target closing date',
  estimated_fee: 'Estimated fee',
  created_at: 'Created date',
};

/** Fields every row needs a column for. */
export const LEAD_IMPORT_REQUIRED: readonly LeadImportField[] = ['full_name', 'email', 'phone', 'property_type'];
