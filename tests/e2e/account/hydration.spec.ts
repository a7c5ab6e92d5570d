import type { Page } from '@playwright/test';
import { expect, test } from '../fixtures.ts';
import { ownServerForFile, signInOn } from '../own-server.ts';
import { SLOW } from '../slow.ts';

/*
 * React hydrates each island of the prerendered public pages (src/client/public/main.tsx). Where
 * an island's HTML differs from what it renders in the browser, React 19 throws that HTML away
 * and renders the island again, reported through onRecoverableError (which the page logs as
 * "Hydration error in the … island"). The pages are prerendered with placeholders the server
 * fills at run time (the firm's saved words, the year, the figures it keeps), so this checks
 * every public page on a server of its own: with the defaults, then with saved words unlike
 * them (markup characters, another brand and contact, one figure of four), at 1280 and 360 px.
 */
const OWNER = { email: `hydration.${Date.now()}@own.test`, password: 'hydration-password-1' };
const server = ownServerForFile({ ADMIN_EMAIL: OWNER.email, ADMIN_PASSWORD: OWNER.password });

const PAGES = ['/', '/careers', '/privacy', '/terms', '/cookies', '/no-such-page', '/booking/not-a-real-booking-token'];

/** Opens `path`, brings every island to life (the lead form's when it is scrolled near) and returns what React reported. */
async function hydrationProblems(page: Page, path: string): Promise<string[]> {
  const problems: string[] = [];
  const onConsole = (message: { type: () => string; text: () => string }) => {
    if (message.type() === 'error' && /Hydration|Minified React error|react\.dev\/errors/.test(message.text()))
      problems.push(message.text());
  };
  const onPageError = (error: Error) => problems.push(`page error: ${error.message}`);
  page.on('console', onConsole);
  page.on('pageerror', onPageError);
  try {
    await page.goto(`${server().baseURL}${path}`);
    await expect(page.locator('html[data-hydrated="true"]')).toHaveCount(1);
    const islands = page.locator('[data-island]');
    const count = await islands.count();
    expect(count, `${path} has islands`).toBeGreaterThan(0);
    for (let i = 0; i < count; i++) await islands.nth(i).scrollIntoViewIfNeeded();
    await expect(page.locator('[data-island][data-island-live]')).toHaveCount(count);
  } finally {
    page.off('console', onConsole);
    page.off('pageerror', onPageError);
  }
  return problems;
}

async function everyPageHydratesCleanly(page: Page) {
  for (const width of [1280, 360]) {
    await page.setViewportSize({ width, height: width > 1000 ? 800 : 740 });
    for (const path of PAGES) expect(await hydrationProblems(page, path), `${path} at ${width} px`).toEqual([]);
  }
}

test('every public page hydrates without a React recoverable error, with the defaults and with the firm’s own words', async ({ page }) => {
  test.setTimeout(SLOW.walk);
  await everyPageHydratesCleanly(page);

  await signInOn(page, server(), OWNER);
  const origin = { origin: server().baseURL };
  const current = (await (await page.request.get(`${server().baseURL}/api/website`)).json()) as Record<string, unknown>;
  const { updated_at: _, ...content } = current;
  const saved = await page.request.put(`${server().baseURL}/api/website`, {
    headers: origin,
    data: {
      ...content,
      site_name: 'Bay & Brook <Diligence> "Co" – Ünïcode',
      email: 'desk@bay-brook.test',
      phone: '(410) 555-0142',
      headline: 'Closing <b>calls</b> & "quotes"',
      form_note: 'We answer within one business day & never share your details.',
      contact_intro: 'Tell us about the deal <and> its numbers.',
      stats: [{ value: '7,500+', label: 'Reports & reviews' }],
    },
  });
  expect(saved.status()).toBe(200);

  await page.goto(`${server().baseURL}/`);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Closing <b>calls</b> & "quotes"');
  await expect(page.getByText('Reports & reviews')).toBeVisible();
  await everyPageHydratesCleanly(page);
  // The islands show the saved words after hydration too: the brand in the header, the note under the form.
  await page.goto(`${server().baseURL}/`);
  await expect(page.locator('html[data-hydrated="true"]')).toHaveCount(1);
  await expect(
    page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Bay & Brook <Diligence> "Co" – Ünïcode' }),
  ).toBeVisible();
  await page.locator('[data-island="lead-form"]').scrollIntoViewIfNeeded();
  await expect(page.locator('[data-island="lead-form"][data-island-live]')).toHaveCount(1);
  await expect(page.getByText('We answer within one business day & never share your details.')).toBeVisible();
});

test('every public page hydrates cleanly in another year than the build’s', async ({ page }) => {
  test.setTimeout(SLOW.walk);
  // The server fills the year into each page and into the JSON the islands hydrate from
  // (http/static-site.ts, fillSiteTokens; again at a new year). Each page is served here as the
  // server would fill it in 2031: the year replaced in both places, never in one alone.
  const thisYear = String(new Date().getFullYear());
  let replaced = 0;
  await page.route(`${server().baseURL}/**`, async (route) => {
    if (route.request().resourceType() !== 'document') return route.continue();
    const response = await route.fetch();
    const html = await response.text();
    const filled = html.replaceAll(`© ${thisYear} `, '© 2031 ').replaceAll(`"year":"${thisYear}"`, '"year":"2031"');
    if (filled.includes('"year":"2031"')) replaced++;
    await route.fulfill({ response, body: filled });
  });
  await everyPageHydratesCleanly(page);
  expect(replaced, 'pages served with the year 2031').toBeGreaterThanOrEqual(PAGES.length);
  await page.goto(`${server().baseURL}/`);
  await expect(page.locator('html[data-hydrated="true"]')).toHaveCount(1);
  await expect(page.getByRole('contentinfo')).toContainText('© 2031 ');
});
