import { expect, test } from './fixtures.ts';
import { startOwnServer, type OwnServer } from './own-server.ts';

/*
 * Settings → Website on a server of its own (the suite's shared server keeps the default
 * words other specs read): the owner changes the landing page's and legal pages' words, sees
 * them in the preview as typed, and the public pages serve them as soon as the save answers,
 * without a rebuild.
 */
const OWNER = { email: `website.${Date.now()}@own.test`, password: 'website-password-1' };
let server: OwnServer;
test.beforeAll(async () => {
  server = await startOwnServer({ ADMIN_EMAIL: OWNER.email, ADMIN_PASSWORD: OWNER.password, SITE_NAME: 'Harbor Diligence' });
});
test.afterAll(async () => {
  await server?.stop();
});

test('an owner changes the website’s words, checked as typed, previewed, and live on the public pages at once', async ({ page }) => {
  await page.goto(`${server.baseURL}/login`);
  await page.getByLabel('Email').fill(OWNER.email);
  await page.getByLabel('Password').fill(OWNER.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Dashboard Overview' })).toBeVisible();

  await page.goto(`${server.baseURL}/dashboard/settings/website`);
  await expect(page.getByRole('navigation', { name: 'Settings' }).getByRole('link', { name: 'Website' })).toHaveAttribute('aria-current', 'page');
  const preview = page.getByRole('complementary', { name: 'Preview' });
  // The legal name starts as the site name.
  await expect(page.getByLabel('Legal name (in the legal pages)')).toHaveValue('Harbor Diligence');

  // An empty headline is refused where it is typed, and focused.
  await page.getByLabel('Headline', { exact: true }).fill('   ');
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('Headline is required')).toBeVisible();
  await expect(page.getByLabel('Headline', { exact: true })).toBeFocused();

  await page.getByLabel('Headline', { exact: true }).fill('Acquisition diligence for Mid-Atlantic investors');
  await expect(page.getByText('Headline is required')).toHaveCount(0);
  await expect(preview).toContainText('Acquisition diligence for Mid-Atlantic investors');
  await page.getByLabel('Figure 4').fill('900');
  await page.getByLabel('Label 4').fill('Reports this year');
  await page.getByLabel('Service 1 title').fill('Lender-ready underwriting');
  await expect(preview).toContainText('Lender-ready underwriting');
  await page.getByLabel('City').fill('Baltimore, MD');
  await page.getByLabel('Address').fill('1 Harbor Way, Baltimore, MD 21202');
  await page.getByLabel('Legal name (in the legal pages)').fill('Harbor Diligence LLC');
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Website saved: the changes are live' })).toBeVisible();

  // The public pages, straight away.
  await page.goto(`${server.baseURL}/`);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Acquisition diligence for Mid-Atlantic investors');
  await expect(page.locator('#hero-heading ~ ul').last()).toContainText('900Reports this year');
  await expect(page.getByRole('heading', { level: 3, name: 'Lender-ready underwriting' })).toBeVisible();
  await expect(page.locator('#contact')).toContainText('1 Harbor Way, Baltimore, MD 21202');
  const footer = page.getByRole('contentinfo');
  await expect(footer).toContainText('Baltimore, MD');
  await expect(footer).toContainText(`© ${new Date().getFullYear()} Harbor Diligence. All rights reserved.`);
  await expect(page.locator('html[data-hydrated="true"]')).toHaveCount(1);
  await page.goto(`${server.baseURL}/terms`);
  await expect(page.getByText('which are between you and Harbor Diligence LLC, 1 Harbor Way, Baltimore, MD 21202')).toBeVisible();

  // Saved for good: the form opens with the new words.
  await page.goto(`${server.baseURL}/dashboard/settings/website`);
  await expect(page.getByLabel('Headline', { exact: true })).toHaveValue('Acquisition diligence for Mid-Atlantic investors');
});
