import { randomBytes } from 'node:crypto';
import type { Page } from '@playwright/test';
import { seriousViolations } from '../axe.ts';
import { expect, fillLeadForm, openPage, postPublicLead, test, uniqueTag } from '../fixtures.ts';
import { startOwnServer, type OwnServer } from '../own-server.ts';
import { SLOW } from '../slow.ts';

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

/** Console errors, a Content Security Policy violation included (the charts position their tooltip with a style). */
function collectErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(message.text());
  });
  page.on('pageerror', (error) => errors.push(error.message));
  return errors;
}

test.describe('analytics dashboard', () => {
  test('"Now" shows a visitor who just arrived, live, without reloading the page', async ({ page, clientIp, login }) => {
    await login();
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
          .post('/api/public/events', {
            data: { session_id: sessionId(), event_type: 'pageview', page_path: path },
            headers: { 'user-agent': BROWSER_UA, 'x-forwarded-for': clientIp },
          })
          .then((r) => r.status()),
      ),
    );
    expect(new Set(statuses)).toEqual(new Set([204]));
    // The stream's "change: analytics" makes the card refetch (well before its 30 s poll).
    await expect(card.getByTestId('page-now').filter({ hasText: path })).toHaveText(`40 visitors on ${path}`, { timeout: 8_000 });
    expect(Number((await card.getByTestId('visitors-now').textContent())!.replace(/,/g, ''))).toBeGreaterThan(before);
    // The count says what it counts, to a screen reader too: never a bare number by a path ("/ 40").
    await expect(card.getByRole('status', { name: /^[\d,]+ visitors? now, active in the last 5 minutes$/ })).toBeVisible();
  });

  test('shows the cards, 24 hourly bars with a tooltip and the seeded page in Top Pages', async ({ page, clientIp, login }) => {
    const errors = collectErrors(page);
    await login();
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
    await expect(page.locator('[data-testid="trend-chart"] [data-testid="trend-line"]')).toHaveCount(3);

    expect(errors.filter((e) => /Content Security Policy|Refused to/i.test(e))).toEqual([]);
  });

  test('fits a 360 px wide screen without scrolling sideways', async ({ page, clientIp, login }) => {
    await seedVisits(page, clientIp);
    await page.setViewportSize({ width: 360, height: 740 });
    await login();
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

test("a lead sent from the landing page keeps its visit's source, campaign and landing page", async ({ page, login }) => {
  const tag = uniqueTag();
  const name = `Attributed ${tag}`;
  await openPage(page, '/?utm_source=e2e&utm_medium=test&utm_campaign=attribution');
  await fillLeadForm(page, { name, email: `attributed.${tag}@example.com`, phone: '555-0142', propertyType: 'Land' });
  // No wait here: the form itself holds the submission until its token is LEAD_MIN_FILL_SECONDS old.
  await page
    .locator('#contact form')
    .getByRole('button', { name: /Submit/ })
    .click();
  await expect(page.getByRole('status').filter({ hasText: 'Thank you for your interest! We will contact you shortly.' })).toBeVisible();

  await login();
  await page.goto(`/dashboard/leads?search=${encodeURIComponent(name)}`);
  const row = page.getByRole('row').filter({ hasText: name });
  await expect(row).toContainText('Source: Direct');
  await row.getByRole('button', { name: new RegExp(`Edit`) }).click();
  const source = page.getByRole('dialog').getByRole('region', { name: 'Source' });
  await expect(source).toContainText('e2e / test / attribution');
  await expect(source).toContainText('Landing page');
  await expect(source).toContainText('/');
});

/*
 * On a server of its own, so the figures are exact: three visitors today, one of whom saw,
 * started and sent the form and was won as a client without a call. Every part of the page
 * counts them alike, says how, and leaves the client outside the funnel with a word on why.
 */
test.describe('one period, one count', () => {
  const ADMIN = { email: `analytics.${Date.now()}@own.test`, password: 'analytics-password-1' };
  let server: OwnServer;

  test.beforeAll(async ({ playwright }) => {
    test.setTimeout(SLOW.serverStart);
    server = await startOwnServer({
      ADMIN_EMAIL: ADMIN.email,
      ADMIN_PASSWORD: ADMIN.password,
      BUSINESS_TIME_ZONE: 'America/Chicago',
      LEAD_MIN_FILL_SECONDS: '0',
    });
    const api = await playwright.request.newContext({
      baseURL: server.baseURL,
      extraHTTPHeaders: { 'user-agent': BROWSER_UA, origin: server.baseURL },
    });
    const [won, other, third] = [sessionId(), sessionId(), sessionId()];
    const events = [
      ...[won, other, third].map((session_id) => ({ session_id, event_type: 'pageview', page_path: '/' })),
      { session_id: won, event_type: 'form_view', page_path: '/' },
      { session_id: won, event_type: 'form_start', page_path: '/' },
    ];
    for (const data of events) expect((await api.post('/api/public/events', { data })).status()).toBe(204);
    const lead = {
      full_name: 'Won Without Call',
      email: `won.${Date.now()}@example.com`,
      phone: '(301) 555-0150',
      property_types: ['land'],
    };
    expect((await postPublicLead(api, { ...lead, submission_id: crypto.randomUUID(), analytics_session_id: won })).status()).toBe(201);
    expect((await api.post('/api/auth/login', { data: ADMIN })).status()).toBe(200);
    const { leads } = (await (await api.get('/api/leads')).json()) as { leads: { id: string }[] };
    expect((await api.patch(`/api/leads/${leads[0]!.id}`, { data: { status: 'Converted' } })).status()).toBe(200);
    // A deal typed in by staff and lost for a reason: the Lost reasons table's one row (and a second lead of the period).
    const typed = await api.post('/api/leads', {
      data: { ...lead, full_name: 'Lost On Price', email: `lost.${Date.now()}@example.com`, estimated_fee_cents: 420_000 },
    });
    expect(typed.status()).toBe(201);
    const { stages } = (await (await api.get('/api/pipeline/stages')).json()) as { stages: { id: string; name: string }[] };
    const lostStage = stages.find((s) => s.name === 'Lost')!.id;
    const lost = await api.patch(`/api/leads/${((await typed.json()) as { id: string }).id}`, {
      data: { stage_id: lostStage, lost_reason: 'Price' },
    });
    expect(lost.status()).toBe(200);
    await api.dispose();
  });
  test.afterAll(async () => {
    await server?.stop();
  });

  // 360 px: the narrowest phone the admin app is held to, where the pipeline tables sit one under the other.
  for (const width of [1280, 390, 360]) {
    test(`at ${width} px: the cards, the trend, the funnel and the sources agree, and the page says how it counts`, async ({ page }) => {
      await page.setViewportSize({ width, height: 900 });
      await page.goto(`${server.baseURL}/login`);
      await page.getByLabel('Email').fill(ADMIN.email);
      await page.getByLabel('Password').fill(ADMIN.password);
      await page.getByRole('button', { name: 'Sign in' }).click();
      await expect(page).toHaveURL(/\/dashboard$/);

      for (const period of ['7d', '24h'] as const) {
        await page.goto(`${server.baseURL}/dashboard/analytics?period=${period}`);
        await expect(page.getByTestId('unique-visitors')).toHaveText('3');
        await expect(page.getByTestId('funnel-visitors')).toHaveText('3');
        await expect(page.getByText('1 of 3 visitors sent the form')).toBeVisible();
        await expect(page.getByTestId('funnel-step').locator('span.font-medium')).toHaveText([
          'Visitors',
          'Saw the form',
          'Started the form',
          'Sent the form',
          'Booked a call',
          'Became clients',
        ]);
        for (const [step, n] of [
          ['saw_form', '1'],
          ['started_form', '1'],
          ['sent', '1'],
          ['booked', '0'],
          ['converted', '0'],
        ])
          await expect(page.getByTestId(`funnel-${step}`)).toHaveText(n!);
        await expect(page.getByTestId('funnel-outside')).toHaveText(
          '1 client won without a call this period is not in the funnel. The Sources table counts every client.',
        );
        const row = page.getByTestId('source-row').filter({ has: page.getByRole('link', { name: 'Direct', exact: true }) });
        await expect(row.getByRole('cell').first()).toHaveText('3');
        const note = page.getByRole('region', { name: 'How we count' });
        await expect(note.getByTestId('period-bounds')).toHaveText(
          period === '7d'
            ? /^[A-Z][a-z]{2} \d{1,2}, \d{4}, 12:00\sAM – now, Central Time$/
            : /, \d{1,2}:00\s[AP]M – now, Central Time \(the current hour and the 23 before it\)$/,
        );
        await expect(note).toContainText('A browser on the site, counted once: in the period of its first recorded page view.');
        // The period's two leads: one won straight from New (so it passed every stage), one lost from New.
        const conversion = page.getByRole('table', {
          name: "The period's leads by the furthest stage they reached, and the share that went on to the next stage",
        });
        await expect(conversion.getByRole('row')).toHaveText([
          'StageReachedTo the next stage',
          'New250%',
          'Call booked1100%',
          'Proposal sent1100%',
          'Engaged1100%',
          'Won1—',
        ]);
        const lostReasons = page.getByRole('table', {
          name: 'Deals lost in the period by reason, with their share and the estimated fees lost',
        });
        await expect(lostReasons.getByRole('row')).toHaveText(['ReasonDealsShareFees lost', 'Price1100%$4,200', 'Total1100%$4,200']);
        for (const section of ['stage-conversion-heading', 'lost-reasons-heading'])
          expect(await seriousViolations(page, { include: `section[aria-labelledby="${section}"]` })).toEqual([]);
        await expect(page.getByRole('heading', { name: 'Top Referrers' })).toHaveCount(0);
        const now = page.locator('section', { has: page.getByRole('heading', { level: 2, name: 'Now' }) });
        await expect(now.getByRole('status', { name: '3 visitors now, active in the last 5 minutes' })).toBeVisible();
        await expect(now.getByTestId('page-now')).toHaveText(['3 visitors on /']);
        const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
        expect(overflow).toBeLessThanOrEqual(0);
      }
      // The 7-day trend's visitors are the cards' too.
      await page.goto(`${server.baseURL}/dashboard/analytics?period=7d`);
      await expect(page.getByTestId('trend-totals')).toContainText(/Visitors\s*3\b/);
    });
  }
});
