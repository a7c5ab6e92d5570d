/** "Jane Doe" → "jane-doe", for the export's file name: ASCII only, "lead" when nothing is left. */
export function nameSlug(name: string): string {
  const slug = name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .slice(0, 60)
    .replace(/^-+|-+$/g, '');
  return slug || 'lead';
}

/** The file a lead's data export (GET /api/leads/{id}/export) downloads as: lead-<name>-<day it was made>.json. */
export const leadExportFileName = (fullName: string, exportedAt: string) => `lead-${nameSlug(fullName)}-${exportedAt.slice(0, 10)}.json`;
