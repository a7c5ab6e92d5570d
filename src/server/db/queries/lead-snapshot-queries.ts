import { sql, type SQL } from 'drizzle-orm';

/**
 * The lead as its emails carry it (the "new lead" message and the acknowledgement): one JSON
 * object per message, kept in `emails.data`, so the mail says what the form said even after
 * the lead changes. Its keys are what mail/templates/lead-mail.ts reads; both the first form
 * (createLead) and a repeat form (lead-inquiries.ts) build it here.
 */
const KEYS = [
  'lead_id',
  'full_name',
  'email',
  'phone',
  'property_types',
  'message',
  'source',
  'utm_source',
  'utm_medium',
  'utm_campaign',
  'landing_page',
] as const;

/** Each key's SQL value; `property_types` is a text[] (stored as a JSON array). */
export type LeadSnapshotValues = Record<(typeof KEYS)[number], SQL>;

export function leadSnapshot(values: LeadSnapshotValues): SQL {
  return sql`jsonb_build_object(${sql.join(
    KEYS.map((key) => sql`${sql.raw(`'${key}'`)}, ${key === 'property_types' ? sql`to_jsonb(${values[key]})` : values[key]}`),
    sql`, `,
  )})`;
}

/** The snapshot of a leads row under `alias` (`i` for the row just inserted). */
export const leadSnapshotOfRow = (alias: string): SQL => {
  const column = (name: string) => sql.raw(`${alias}.${name}`);
  return leadSnapshot({
    lead_id: column('id'),
    full_name: column('full_name'),
    email: column('email'),
    phone: column('phone'),
    property_types: column('property_types'),
    message: column('message'),
    source: column('source'),
    utm_source: column('utm_source'),
    utm_medium: column('utm_medium'),
    utm_campaign: column('utm_campaign'),
    landing_page: column('landing_page'),
  });
};
