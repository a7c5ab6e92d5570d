import { randomBytes } from 'node:crypto';
import type { Page } from '@playwright/test';
import { expect, fillLeadForm, openPage, signInAsAdmin, test } from './fixtures.ts';

const BROWSER_UA = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36';
const ALPHANUMERIC = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

const sessionId = () => `E2eSession${Array.from(randomBytes(12), (b) => ALPHANUMERIC[b % ALPHANUMERIC.length]).join('')}`;

/**
 * Records `views` visits (at least two) to a path of this test's own through the public
 * endpoint, as the tracker would: the first with a heartbeat, the second with its time spent.
 */
async function seedVisits(page: Page, ip: string, views = 2): Promise<string> {
  const path = `/e2e-analytics-${Date.now()}-${randomBytes(4).toString('hex')}`;
  const [first, second] = [sessionId(), sessionId()];
  const events = [
    { session_id: first, event_type: 'pageview', page_path: path },
    { session_id: first, event_type: 'heartbeat', page_path: path, time_spent: 30 },
    { session_id: second, event_type: 'pageview', page_path: path },
    { session_id: second, event_type: 'time_spent', page_path: path, time_spent: 20 },
    ...Array.from({ length: views - 2 }, () => ({ session_id: sessionId(), event_type: 'pageview', page_path: path })),
  ];
  for (const data of events) {
    const res = await page.request.post('/api/public/events', { data, headers: { 'user-agent': BROWSER_UA, 'x-forwarded-for': ip } });
    expect(res.status(), await res.text()).toBe(204);
  }
  return path;
}

/** Console errors, a Content Security Policy violation included (recharts draws with inline styles). */
function collectErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(message.text());
  });
  page.on('pageerror', (error) => errors.push(error.message));
  return errors;
}

test.describe('analytics dashboard', () => {
  test('"Now" shows a visitor who just arrived, live, without reloading the page', async ({ page, clientIp }) => {
    await signInAsAdmin(page);
    await page.goto('/dashboard/analytics');
    const card = page.locator('section', { has: page.getByRole('heading', { level: 2, name: 'Now' }) });
    await expect(card.getByTestId('visitors-now')).toHaveText(/^\d[\d,]*$/);
    const before = Number((await card.getByTestId('visitors-now').textContent())!.replace(/,/g, ''));
    const path = `/e2e-now-${randomBytes(4).toString('hex')}`;
    // Waits for the notification stream to be open, so the announcement cannot be missed.
    await expect(page.getByRole('button', { name: /Notifications/ })).toBeVisible();
    // 40 visitors on a page of this test's own: more than any other page has now, so it is listed.
    const statuses = await Promise.all(
      Array.from({ length: 40 }, () =>
        page.request
          .post('/api/public/events', { data: { session_id: sessionId(), event_type: 'pageview', page_path: path }, headers: { 'user-agent': BROWSER_UA, 'x-forwarded-for': clientIp } })
          .then((r) => r.status()),
      ),
    );
    expect(new Set(statuses)).toEqual(new Set([204]));
    // The stream's "change: analytics" makes the card refetch (well before its 30 s poll).
    await expect(card.getByTestId('page-now').filter({ hasText: path })).toHaveText(`${path} 40`, { timeout: 8_000 });
    expect(Number((await card.getByTestId('visitors-now').textContent())!.replace(/,/g, ''))).toBeGreaterThan(before);
  });

  test('shows the cards, 24 hourly bars with a tooltip and the seeded page in Top Pages', async ({ page, clientIp }) => {
    const errors = collectErrors(page);
    await signInAsAdmin(page);
    // More views than the busiest page so far (other specs visit pages too): first in Top Pages.
    const summary = (await (await page.request.get('/api/analytics/summary?period=24h')).json()) as { top_pages: { views: number }[] };
    const views = Math.max(2, (summary.top_pages[0]?.views ?? 0) + 1);
    const path = await seedVisits(page, clientIp, views);
    await page.goto('/dashboard/analytics?period=24h');

    await expect(page.getByRole('heading', { level: 1, name: 'Analytics' })).toBeVisible();
    await expect(page.getByLabel('Period')).toHaveValue('24h');
    await expect(page.getByRole('heading', { name: 'Hourly Activity' })).toBeVisible();
    await expect(page.getByTestId('page-views')).not.toHaveText('0');
    await expect(page.getByTestId('page-views-change')).toContainText('vs previous period');
    await expect(page.getByTestId('unique-visitors')).not.toHaveText('0');
    await expect(page.getByTestId('avg-time')).toHaveText(/^\d+m \d{2}s$/);
    await expect(page.getByTestId('avg-time')).not.toHaveText('0m 00s');

    await expect(page.getByTestId('activity-bar')).toHaveCount(24);
    await expect(page.getByRole('img', { name: /page views by hour of day, 24 bars/ })).toBeVisible();
    await page.locator('[data-testid="activity-bar"] path').first().hover();
    const tooltip = page.getByTestId('activity-tooltip');
    await expect(tooltip).toBeVisible();
    await expect(tooltip).toContainText(/Views: \d+/);
    await expect(tooltip).toContainText(/Time spent: \d+m \d{2}s/);

    const topPages = page.getByRole('region', { name: 'Top Pages' });
    await expect(topPages.getByRole('row').filter({ hasText: path }).getByRole('cell').first()).toHaveText(String(views));

    // Beyond 24 hours the trend is by day: 30 of them, each total with its change.
    await page.getByLabel('Period').selectOption({ label: 'Last 30 days' });
    await expect(page).toHaveURL(/period=30d/);
    await expect(page.getByRole('heading', { name: 'Activity Trend' })).toBeVisible();
    await expect(page.getByTestId('trend-table').getByRole('row')).toHaveCount(31);
    await expect(page.getByRole('img', { name: /visitors, page views and leads per day, 30 days/ })).toBeVisible();
    await expect(page.getByTestId('trend-totals')).toContainText(/Page views\s*[\d,]+/);
    await expect(page.locator('[data-testid="trend-chart"] .recharts-line')).toHaveCount(3);

    expect(errors.filter((e) => /Content Security Policy|Refused to/i.test(e))).toEqual([]);
  });

  test('fits a 360 px wide screen without scrolling sideways', async ({ page, clientIp }) => {
    await seedVisits(page, clientIp);
    await page.setViewportSize({ width: 360, height: 740 });
    await signInAsAdmin(page);
    await page.goto('/dashboard/analytics?period=24h');
    await expect(page.getByTestId('activity-bar')).toHaveCount(24);
    await expect(page.getByRole('region', { name: 'Top Pages' }).getByRole('row').nth(1)).toBeVisible();
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    // The 90-day view with its funnel and sources table (which scrolls inside its own box).
    await page.goto('/dashboard/analytics?period=90d');
    await expect(page.getByTestId('trend-table').getByRole('row')).toHaveCount(91);
    await expect(page.getByRole('heading', { name: 'Funnel' })).toBeVisible();
    await expect(page.getByRole('heading', { name: 'Sources' })).toBeVisible();
    const overflow90 = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    expect(overflow90).toBeLessThanOrEqual(0);
  });
});

test('a lead sent from the landing page keeps its visit\'s source, campaign and landing page', async ({ page }) => {
  const name = `Attributed ${Date.now()}`;
  await openPage(page, '/?utm_source=e2e&utm_medium=test&utm_campaign=attribution');
  await fillLeadForm(page, { name, email: `attributed.${Date.now()}@example.com`, phone: '555-0142', propertyType: 'Land' });
  await page.waitForTimeout(1200); // past LEAD_MIN_FILL_SECONDS, or the server drops it as a bot
  await page.locator('#contact form').getByRole('button', { name: /Submit/ }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Thank you for your interest! We will contact you shortly.' })).toBeVisible();

  await signInAsAdmin(page);
  await page.goto(`/dashboard/leads?search=${encodeURIComponent(name)}`);
  const row = page.getByRole('row').filter({ hasText: name });
  await expect(row).toContainText('Source: Direct');
  await row.getByRole('button', { name: new RegExp(`Edit`) }).click();
  const source = page.getByRole('dialog').getByRole('region', { name: 'Source' });
  await expect(source).toContainText('e2e / test / attribution');
  await expect(source).toContainText('Landing page');
  await expect(source).toContainText('/');
});
