import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { Page } from '@playwright/test';
import { expect, test } from '../fixtures.ts';
import { signInOn, startOwnServer, type OwnServer } from '../own-server.ts';
import { SLOW } from '../slow.ts';
import { seriousViolations } from '../axe.ts';

/*
 * Settings → Website on a server of its own (the suite's shared server keeps the default
 * words other specs read): the owner changes every kind of claim, the brand, the contact, the
 * home page's title and description and the figures, checked as typed and previewed; the
 * public pages, their head and the sitemap serve them as soon as the save answers, without a
 * rebuild. At 1280 px and on a 390 px phone; axe on the editor; screenshots of it.
 */
const OWNER = { email: `website.${Date.now()}@own.test`, password: 'website-password-1' };
const SCREENSHOTS = path.resolve('artifacts/screenshots');
// One server for the three tests, in order (each starts from what the one before saved).
test.describe.configure({ mode: 'serial' });
let server: OwnServer;
test.beforeAll(async () => {
  test.setTimeout(SLOW.serverStart);
  server = await startOwnServer({
    ADMIN_EMAIL: OWNER.email,
    ADMIN_PASSWORD: OWNER.password,
    SITE_NAME: 'Harbor Diligence',
    SITE_EMAIL: 'hello@harbor.test',
    SITE_PHONE: '(410) 555-0199',
  });
});
test.afterAll(async () => {
  await server?.stop();
});

async function fitsTheWidth(page: Page) {
  expect(await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).toBeLessThanOrEqual(0);
}

async function screenshot(page: Page, name: string) {
  mkdirSync(SCREENSHOTS, { recursive: true });
  await page.screenshot({ path: path.join(SCREENSHOTS, `${name}.png`), fullPage: true });
}

const signIn = (page: Page) => signInOn(page, server, OWNER);

/** Replaces a field's text. */
const fill = async (page: Page, label: string, value: string) => page.getByLabel(label, { exact: true }).fill(value);

const VIEWPORTS = { desktop: { width: 1280, height: 800 }, phone: { width: 390, height: 844 } } as const;

for (const [viewport, size] of Object.entries(VIEWPORTS)) {
  test.describe(`at ${size.width} px`, () => {
    test.use({ viewport: size, ...(viewport === 'phone' ? { isMobile: true, hasTouch: true } : {}) });

    test('an owner changes every kind of claim, the brand, the contact, the head and the figures; the public pages and the sitemap follow at once', async ({
      page,
    }) => {
      test.setTimeout(SLOW.walk);
      const brand = `Chesapeake Underwriting ${viewport}`;
      await signIn(page);
      await page.goto(`${server.baseURL}/dashboard/settings/website`);
      await expect(page.getByRole('navigation', { name: 'Settings' }).getByRole('link', { name: 'Website' })).toHaveAttribute(
        'aria-current',
        'page',
      );
      const preview = page.getByRole('complementary', { name: 'Preview' });
      await fitsTheWidth(page);
      expect(await seriousViolations(page)).toEqual([]);
      await screenshot(page, `${viewport}-settings-website`);

      // Each bad field is refused where it is typed, the first one focused; nothing is lost.
      await fill(page, 'Headline', '   ');
      await fill(page, 'Email', 'desk@chesapeake');
      await fill(page, 'Phone', 'call us');
      await fill(page, 'Footer tagline', 'Acquisition diligence for the Mid-Atlantic, in 48 hours.');
      await page.getByRole('button', { name: 'Save' }).click();
      await expect(page.getByLabel('Email', { exact: true })).toBeFocused();
      await expect(page.getByLabel('Email', { exact: true })).toHaveAccessibleDescription('Invalid email address');
      await expect(page.getByLabel('Phone', { exact: true })).toHaveAccessibleDescription(
        'Invalid phone number: use 7 to 15 digits, like (301) 555-0100',
      );
      await expect(page.getByLabel('Headline', { exact: true })).toHaveAccessibleDescription('Headline is required');
      await expect(page.getByLabel('Footer tagline')).toHaveValue('Acquisition diligence for the Mid-Atlantic, in 48 hours.');
      await fitsTheWidth(page);
      expect(await seriousViolations(page)).toEqual([]);
      await screenshot(page, `${viewport}-settings-website-refused`);

      // The brand and contact, the head, and a claim of every section.
      await fill(page, 'Brand name', brand);
      await fill(page, 'Email', 'desk@chesapeake.test');
      await fill(page, 'Phone', '(443) 555-0142');
      await fill(page, 'Page title', 'Mid-Atlantic acquisition diligence');
      await fill(page, 'Description in search results', 'Underwriting in 48 hours for investors in six Mid-Atlantic states.');
      await fill(page, 'Badge', 'Two deals analysed free');
      await fill(page, 'Headline', 'Acquisition diligence for Mid-Atlantic investors');
      await fill(page, 'Subheadline', 'Reports in 48 hours, from analysts who know the Chesapeake.');
      await fill(page, 'Highlight 1', 'Reports in 48 hours, reviewed twice');
      await fill(page, 'About point 2', 'Headquartered in Baltimore, with local experts in six states.');
      await fill(page, 'Services introduction', 'Multifamily and commercial, nothing else.');
      await fill(page, 'Service 1 title', 'Lender-ready underwriting');
      await fill(page, 'Step 2: Get your report', 'Within 48 hours you receive the report.');
      await fill(page, 'Reason 3 title', 'Six States');
      await fill(page, 'Reason 3 description', 'Maryland, Virginia, Delaware, Pennsylvania, West Virginia and DC.');
      await fill(page, 'Contact introduction', 'We answer within two business days.');
      await fill(page, "Note under the form's button", 'Two deals analysed free. No obligation.');
      await fill(page, 'City', 'Baltimore, MD');
      await fill(page, 'Address', '1 Harbor Way, Baltimore, MD 21202');
      await fill(page, 'Legal name (in the legal pages)', 'Harbor Diligence LLC');
      // Down to one figure, with the keyboard.
      const figures = page.getByRole('group', { name: /Figures under the headline/ });
      for (let n = await figures.getByLabel(/^Figure \d$/).count(); n > 1; n--) {
        await figures.getByRole('button', { name: `Remove figure ${n}` }).focus();
        await page.keyboard.press('Enter');
        await expect(figures.getByRole('button', { name: 'Add a figure' })).toBeFocused();
        await expect(figures.getByLabel(/^Figure \d$/)).toHaveCount(n - 1);
      }
      await expect(figures.getByRole('button', { name: 'Remove figure 1' })).toBeDisabled();
      await fill(page, 'Figure 1', '6');
      await fill(page, 'Label 1', 'States covered');
      await expect(preview).toContainText(`${brand} | Mid-Atlantic acquisition diligence`);
      await expect(preview).toContainText('Acquisition diligence for Mid-Atlantic investors');
      await expect(preview).toContainText('States covered');
      await page.getByRole('button', { name: 'Save' }).click();
      await expect(page.getByRole('status').filter({ hasText: 'Website saved: the changes are live' })).toBeVisible();
      const savedAt = Date.now();
      await fitsTheWidth(page);
      await screenshot(page, `${viewport}-settings-website-saved`);

      // The public page, straight away: its head, every section's claim, one figure.
      await page.goto(`${server.baseURL}/`);
      await expect(page.locator('html[data-hydrated="true"]')).toHaveCount(1);
      await expect(page).toHaveTitle(`${brand} | Mid-Atlantic acquisition diligence`);
      await expect(page.locator('meta[name="description"]')).toHaveAttribute(
        'content',
        'Underwriting in 48 hours for investors in six Mid-Atlantic states.',
      );
      await expect(page.locator('meta[property="og:title"]')).toHaveAttribute('content', `${brand} | Mid-Atlantic acquisition diligence`);
      await expect(page.locator('meta[property="og:description"]')).toHaveAttribute(
        'content',
        'Underwriting in 48 hours for investors in six Mid-Atlantic states.',
      );
      await expect(page.locator('meta[property="og:site_name"]')).toHaveAttribute('content', brand);
      await expect(page.getByRole('banner').getByRole('link', { name: brand })).toBeVisible();
      await expect(page.getByRole('heading', { level: 1 })).toHaveText('Acquisition diligence for Mid-Atlantic investors');
      const hero = page.locator('section').filter({ has: page.getByRole('heading', { level: 1 }) });
      await expect(hero).toContainText('Two deals analysed free');
      await expect(hero).toContainText('Reports in 48 hours, reviewed twice');
      await expect(hero.locator('ul').last().getByRole('listitem')).toHaveText(['6States covered']);
      await expect(page.locator('#about')).toContainText('Headquartered in Baltimore, with local experts in six states.');
      await expect(page.locator('#services')).toContainText('Multifamily and commercial, nothing else.');
      await expect(page.getByRole('heading', { level: 3, name: 'Lender-ready underwriting' })).toBeVisible();
      await expect(page.locator('#how-it-works')).toContainText('Within 48 hours you receive the report.');
      await expect(page.getByRole('heading', { level: 2, name: `Why Choose ${brand}` })).toBeVisible();
      await expect(page.locator('#why-choose')).toContainText('Maryland, Virginia, Delaware, Pennsylvania, West Virginia and DC.');
      const contact = page.locator('#contact');
      await expect(contact).toContainText('We answer within two business days.');
      await expect(contact).toContainText('Two deals analysed free. No obligation.');
      await expect(contact).toContainText('1 Harbor Way, Baltimore, MD 21202');
      await expect(contact.getByRole('link', { name: 'desk@chesapeake.test' })).toHaveAttribute('href', 'mailto:desk@chesapeake.test');
      await expect(contact.getByRole('link', { name: '(443) 555-0142' })).toHaveAttribute('href', 'tel:4435550142');
      const footer = page.getByRole('contentinfo');
      await expect(footer).toContainText('Acquisition diligence for the Mid-Atlantic, in 48 hours.');
      await expect(footer).toContainText('Baltimore, MD');
      await expect(footer).toContainText(`© ${new Date().getFullYear()} ${brand}. All rights reserved.`);
      // No claim or name left from before (the text people see, not the JSON the islands hydrate from).
      expect(await page.locator('body').innerText()).not.toMatch(/50 states|Harbor Diligence|hello@harbor\.test|555-0199/i);
      await fitsTheWidth(page);
      expect(await seriousViolations(page)).toEqual([]);

      await page.goto(`${server.baseURL}/terms`);
      await expect(page).toHaveTitle(`Terms of Service | ${brand}`);
      await expect(page.getByText('which are between you and Harbor Diligence LLC, 1 Harbor Way, Baltimore, MD 21202')).toBeVisible();

      // The sitemap lists the pages on the site's address, dated by the save; robots.txt points to it.
      const sitemap = await (await page.request.get(`${server.baseURL}/sitemap.xml`)).text();
      expect(sitemap).toContain(`<loc>${server.baseURL}/</loc>`);
      expect(sitemap).toContain(`<loc>${server.baseURL}/terms</loc>`);
      expect(sitemap).not.toContain('/booking');
      const dates = [...sitemap.matchAll(/<lastmod>(.*?)<\/lastmod>/g)].map((m) => Date.parse(m[1]!));
      expect(dates.length).toBeGreaterThan(0);
      for (const date of dates) expect(Math.abs(date - savedAt)).toBeLessThan(60_000);
      expect(await (await page.request.get(`${server.baseURL}/robots.txt`)).text()).toContain(`Sitemap: ${server.baseURL}/sitemap.xml`);

      // Saved for good: the form opens with the new words; a figure comes back.
      await page.goto(`${server.baseURL}/dashboard/settings/website`);
      await expect(page.getByLabel('Brand name')).toHaveValue(brand);
      await expect(figures.getByLabel(/^Figure \d$/)).toHaveCount(1);
      await figures.getByRole('button', { name: 'Add a figure' }).click();
      await expect(figures.getByLabel('Figure 2', { exact: true })).toBeFocused();
      await page.keyboard.type('48hr');
      await fill(page, 'Label 2', 'Turnaround');
      await page.getByRole('button', { name: 'Save' }).click();
      await expect(page.getByRole('status').filter({ hasText: 'Website saved: the changes are live' })).toBeVisible();
      await page.goto(`${server.baseURL}/`);
      await expect(hero.locator('ul').last().getByRole('listitem')).toHaveText(['6States covered', '48hrTurnaround']);
    });
  });
}

test('the editor fits a 360 px phone', async ({ page }) => {
  await page.setViewportSize({ width: 360, height: 740 });
  await signIn(page);
  await page.goto(`${server.baseURL}/dashboard/settings/website`);
  await expect(page.getByLabel('Brand name')).toBeVisible();
  await fitsTheWidth(page);
  expect(await seriousViolations(page)).toEqual([]);
  await screenshot(page, 'mobile-360-settings-website');
});
