import { describe, expect, it } from 'vitest';
import { leadExportFileName, nameSlug } from './export-file-name.ts';

describe('nameSlug', () => {
  it('is the name in lower-case ASCII words joined by dashes, accents dropped', () => {
    expect(nameSlug('Jane Doe')).toBe('jane-doe');
    expect(nameSlug('  José  Ñúñez-Ortiz ')).toBe('jose-nunez-ortiz');
    expect(nameSlug("D'Angelo & Co.")).toBe('d-angelo-co');
  });

  it('is "lead" when nothing is left, and at most 60 characters', () => {
    expect(nameSlug('王小明')).toBe('lead');
    expect(nameSlug('')).toBe('lead');
    expect(nameSlug('a'.repeat(100))).toHaveLength(60);
  });
});

describe('leadExportFileName', () => {
  it('names the export by the lead and the day it was made', () => {
    expect(leadExportFileName('Quincy Erasmus Vale', '2026-03-02T09:00:00.000Z')).toBe('lead-quincy-erasmus-vale-2026-03-02.json');
  });
});
