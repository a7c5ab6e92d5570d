import { SITE_NAME, expect, openPage, test } from '../fixtures.ts';

const CLAIMS = [
  'First deal analysis free',
  '24hr',
  'Turnaround',
  '50',
  'States Coverage',
  '100+',
  'Active Clients',
  '5,000+',
  'Reports within 24 hours, reviewed by local experts',
  'Custom investor reports',
];

test('the landing page shows the hero, the claims and every section', async ({ page }) => {
  await openPage(page, '/');
  await expect(page).toHaveTitle(new RegExp(SITE_NAME));
  await expect(page.locator('h1')).toHaveCount(1);
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  const main = page.getByRole('main');
  for (const claim of CLAIMS) await expect(main.getByText(claim, { exact: false }).first()).toBeVisible();

  await expect(page.getByRole('heading', { name: 'How it works' })).toBeVisible();
  for (const step of ['Submit a deal', 'Get your report', 'Close with confidence']) {
    await expect(page.getByRole('heading', { name: step })).toBeVisible();
  }
  await expect(page.getByRole('heading', { name: `Why Choose ${SITE_NAME}` })).toBeVisible();
  for (const card of ['U.S.-Based Analysts', 'Fast Turnaround', 'All 50 States', 'Custom Reports']) {
    await expect(page.getByRole('heading', { name: card })).toBeVisible();
  }
  await expect(page.locator('section#about')).toBeVisible();
  await expect(page.locator('section#services')).toBeVisible();
  await expect(page.locator('section#contact form')).toBeVisible();
  await expect(page.locator('#lead-message')).toHaveAttribute('rows', '4');
});

test('the text of / is in the HTML the server sends, with the site values filled in', async ({ request }) => {
  const response = await request.get('/');
  expect(response.status()).toBe(200);
  const html = await response.text();
  for (const text of [
    'Real estate due diligence you can close on',
    'Get Started Now',
    'How it works',
    'Submit a deal',
    'Close with confidence',
    'U.S.-Based Analysts',
    'Frederick, MD',
    `© ${new Date().getFullYear()} ${SITE_NAME}. All rights reserved.`,
    '<meta name="description"',
    '<meta property="og:title"',
  ]) {
    expect(html).toContain(text);
  }
  expect(html).toContain(`<title>${SITE_NAME}`);
  expect(html).not.toContain('%%');
  expect(html).toMatch(/<script type="application\/json" id="site-config">\{"name":"Keystone Due Diligence"/);
});

test('the nav turns solid after scrolling and its links lead to the right places', async ({ page }) => {
  await openPage(page, '/');
  const header = page.locator('header');
  await expect(header).toHaveAttribute('data-solid', 'false');
  await page.mouse.wheel(0, 400);
  await expect(header).toHaveAttribute('data-solid', 'true');

  const nav = page.getByRole('navigation', { name: 'Main' });
  await expect(nav.getByRole('link', { name: SITE_NAME })).toHaveAttribute('href', '/');
  await expect(nav.getByRole('link', { name: 'Admin Login' })).toHaveAttribute('href', '/login');
  await page.evaluate(() => window.scrollTo(0, 0));
  await nav.getByRole('link', { name: 'Contact' }).click();
  await expect(page).toHaveURL(/#contact$/);
  await expect(page.locator('#contact')).toBeInViewport();
});

test('Get Started Now scrolls to the contact form and focuses it', async ({ page }) => {
  await openPage(page, '/');
  await page.getByRole('button', { name: 'Get Started Now' }).click();
  await expect(page.locator('#contact')).toBeInViewport();
  await expect(page.getByLabel('Full name')).toBeFocused();
});

test('the footer shows the contact block and links to real pages', async ({ page, request }) => {
  await openPage(page, '/');
  const footer = page.getByRole('contentinfo');
  await expect(footer.getByText('Frederick, MD')).toBeVisible();
  await expect(footer.getByRole('link', { name: 'info@example.com' })).toHaveAttribute('href', 'mailto:info@example.com');
  await expect(footer.getByRole('link', { name: '(301) 555-0100' })).toHaveAttribute('href', /^tel:\+?1?3015550100$/);
  await expect(footer.getByText(`© ${new Date().getFullYear()} ${SITE_NAME}. All rights reserved.`)).toBeVisible();

  const links: [string, string][] = [
    ['About', '/#about'],
    ['Services', '/#services'],
    ['Careers', '/careers'],
    ['Admin Login', '/login'],
    ['Privacy Policy', '/privacy'],
    ['Terms of Service', '/terms'],
    ['Cookie Policy', '/cookies'],
  ];
  for (const [name, href] of links) {
    await expect(footer.getByRole('link', { name, exact: true })).toHaveAttribute('href', href);
  }
  for (const href of ['/careers', '/privacy', '/terms', '/cookies']) {
    expect((await request.get(href)).status(), href).toBe(200);
  }
  await footer.getByRole('link', { name: 'Services', exact: true }).click();
  await expect(page.locator('#services')).toBeInViewport();
});

const CONTENT_PAGES: [string, string, string][] = [
  ['/careers', 'Careers', 'Open positions'],
  ['/privacy', 'Privacy Policy', 'analytics_session_id'],
  ['/terms', 'Terms of Service', 'Our reports'],
  ['/cookies', 'Cookie Policy', 'httpOnly session cookie'],
];

for (const [path, heading, text] of CONTENT_PAGES) {
  test(`${path} answers 200 with its heading`, async ({ page }) => {
    const response = await openPage(page, path);
    expect(response?.status()).toBe(200);
    await expect(page.locator('h1')).toHaveCount(1);
    await expect(page.getByRole('heading', { level: 1, name: heading })).toBeVisible();
    await expect(page.getByRole('main').getByText(text).first()).toBeVisible();
    await expect(page).toHaveTitle(`${heading} | ${SITE_NAME}`);
  });
}

test('the privacy policy says what the form and the analytics collect', async ({ page }) => {
  await openPage(page, '/privacy');
  const main = page.getByRole('main');
  for (const text of [
    'your name, email address and phone number',
    'the property type',
    'IP address',
    'user agent',
    'referrer',
    'no cookies',
  ]) {
    await expect(main.getByText(text, { exact: false }).first()).toBeVisible();
  }
});

test('an unknown path shows the 404 page with status 404', async ({ page }) => {
  const response = await openPage(page, '/no-such-page');
  expect(response?.status()).toBe(404);
  await expect(page.getByRole('heading', { level: 1, name: 'Page Not Found' })).toBeVisible();
  await expect(page.getByText("The page you are looking for doesn't exist or has been moved.")).toBeVisible();
  await page.getByRole('main').getByRole('link', { name: 'Back to Home' }).click();
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByRole('button', { name: 'Get Started Now' })).toBeVisible();
});

test('robots.txt keeps crawlers out of the admin area and the API', async ({ request }) => {
  const body = await (await request.get('/robots.txt')).text();
  for (const line of ['User-agent: *', 'Disallow: /dashboard', 'Disallow: /login', 'Disallow: /api']) {
    expect(body).toContain(line);
  }
});
