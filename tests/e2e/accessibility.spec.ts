import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { expect, openPage, test } from './fixtures.ts';

async function seriousViolations(page: Page) {
  const results = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice']).analyze();
  return results.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).join(', ')})`);
}

test('axe finds no serious or critical violations on /', async ({ page }) => {
  await openPage(page, '/');
  expect(await seriousViolations(page)).toEqual([]);
});

test('axe finds no serious or critical violations on / with form errors shown', async ({ page }) => {
  await openPage(page, '/');
  await page.locator('#contact form').getByRole('button', { name: 'Submit Request' }).click();
  await expect(page.getByText('Name is required')).toBeVisible();
  expect(await seriousViolations(page)).toEqual([]);
});

for (const path of ['/privacy', '/no-such-page']) {
  test(`axe finds no serious or critical violations on ${path}`, async ({ page }) => {
    await openPage(page, path);
    expect(await seriousViolations(page)).toEqual([]);
  });
}
