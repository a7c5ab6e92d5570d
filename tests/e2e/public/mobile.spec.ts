import { expect, openPage, test } from '../fixtures.ts';

test.use({ viewport: { width: 360, height: 740 }, isMobile: true, hasTouch: true });

test('the mobile menu opens, links to contact and login, and closes', async ({ page }) => {
  await openPage(page, '/');
  const toggle = page.getByRole('button', { name: 'Open menu' });
  await expect(toggle).toBeVisible();
  await expect(toggle).toHaveAttribute('aria-expanded', 'false');
  await expect(page.locator('#mobile-menu')).toBeHidden();

  await toggle.click();
  const close = page.getByRole('button', { name: 'Close menu' });
  await expect(close).toHaveAttribute('aria-expanded', 'true');
  await expect(close).toHaveAttribute('aria-controls', 'mobile-menu');
  const menu = page.locator('#mobile-menu');
  await expect(menu.getByRole('link', { name: 'Admin Login' })).toHaveAttribute('href', '/login');

  await menu.getByRole('link', { name: 'Contact' }).click();
  await expect(menu).toBeHidden();
  await expect(page.locator('#contact')).toBeInViewport();
  await expect(page.getByRole('button', { name: 'Open menu' })).toHaveAttribute('aria-expanded', 'false');
});

for (const path of ['/', '/privacy', '/careers', '/no-such-page', `/booking/${'A'.repeat(43)}`]) {
  test(`${path} has no horizontal scroll at 360 px`, async ({ page }) => {
    await openPage(page, path);
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    expect(overflow).toBeLessThanOrEqual(0);
  });
}
