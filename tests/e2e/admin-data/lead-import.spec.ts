import { expect, test, uniqueTag } from '../fixtures.ts';
import { seriousViolations } from '../axe.ts';

/*
 * Importing leads from a CSV file in the browser, at desktop size and on a 360 px phone:
 * a file with a bad row is previewed with its error and cannot be imported; the fixed file
 * is, and its leads are in the list.
 */

const VIEWPORTS = { desktop: { width: 1280, height: 800 }, mobile: { width: 360, height: 740 } } as const;

const csv = (tag: string, badEmail: boolean) =>
  [
    'Full Name,E-mail,Phone Number,Property Type,Status,Notes,Estimated Fee',
    `Ada ${tag},ada.${tag}@example.com,(301) 555-0101,Single Family,Contacted,"Duplex, needs ""quick"" look","$1,200.00"`,
    `Bob ${tag},${badEmail ? 'bob-at-example' : `bob.${tag}@example.com`},(301) 555-0102,multifamily,,"Two lines\nof notes",`,
    `Cy ${tag},cy.${tag}@example.com,(301) 555-0103,Land,New,,950`,
  ].join('\r\n');

const file = (name: string, text: string) => ({ name, mimeType: 'text/csv', buffer: Buffer.from(`\ufeff${text}`) });

for (const [name, viewport] of Object.entries(VIEWPORTS)) {
  test.describe(`lead import at ${name} size`, () => {
    test.use({ viewport, ...(name === 'mobile' ? { isMobile: true, hasTouch: true } : {}) });

    test('a file with a bad row is previewed with its error; the fixed file is imported and its leads are listed', async ({
      page,
      login,
    }) => {
      const tag = `imp${name[0]}${uniqueTag()}`;
      await login();
      await page.goto('/dashboard/leads');
      await page.getByRole('link', { name: 'Import' }).click();
      await expect(page).toHaveURL(/\/dashboard\/leads\/import$/);
      await expect(page.getByRole('heading', { level: 1, name: 'Import leads' })).toBeVisible();

      await page.getByLabel('CSV file').setInputFiles(file('leads.csv', csv(tag, true)));
      await expect(page.getByText('leads.csv: 3 leads.')).toBeVisible();
      await expect(page.getByRole('combobox', { name: 'Name' })).toHaveValue('0');
      await expect(page.getByRole('combobox', { name: 'Estimated fee' })).toHaveValue('6');
      await page.getByRole('button', { name: 'Preview' }).click();
      const preview = page.getByRole('region', { name: /The first 3 rows/ });
      await expect(preview.getByRole('row', { name: new RegExp(`Bob ${tag}`) })).toContainText('Email: Invalid email address');
      await expect(preview.getByRole('row', { name: new RegExp(`Ada ${tag}`) })).toContainText('New lead');
      await expect(page.getByRole('alert').filter({ hasText: 'Nothing is imported while a row has an error.' })).toBeVisible();
      await expect(page.getByRole('button', { name: 'Import', exact: true })).toBeDisabled();
      expect(await seriousViolations(page)).toEqual([]);

      await page.getByLabel('CSV file').setInputFiles(file('leads-fixed.csv', csv(tag, false)));
      await expect(page.getByText('leads-fixed.csv: 3 leads.')).toBeVisible();
      await page.getByRole('button', { name: 'Preview' }).click();
      await expect(
        page.getByRole('region', { name: /The first 3 rows/ }).getByRole('row', { name: new RegExp(`Bob ${tag}`) }),
      ).toContainText('New lead');
      await page.getByRole('button', { name: 'Import', exact: true }).click();
      await expect(page.getByText('Imported 3 leads.')).toBeVisible();
      await expect(page).toHaveURL(/\/dashboard\/leads$/);

      await page.goto(`/dashboard/leads?search=${tag}`);
      for (const person of ['Ada', 'Bob', 'Cy']) await expect(page.getByText(`${person} ${tag}`).first()).toBeVisible();
      const res = await page.request.get(`/api/leads?search=${tag}`);
      const { leads } = (await res.json()) as {
        leads: { full_name: string; status: string; message: string | null; estimated_fee_cents: number | null }[];
      };
      expect(leads.map((l) => [l.full_name, l.status, l.message, l.estimated_fee_cents]).sort()).toEqual([
        [`Ada ${tag}`, 'Contacted', 'Duplex, needs "quick" look', 120_000],
        [`Bob ${tag}`, 'New', 'Two lines\nof notes', null],
        [`Cy ${tag}`, 'New', null, 95_000],
      ]);
    });
  });
}
