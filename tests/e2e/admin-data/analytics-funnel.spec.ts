import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { expect, fillLeadForm, fromTheSite, openPage, test } from '../fixtures.ts';

type Funnel = { visitors: number; saw_form: number; started_form: number; sent: number; booked: number; converted: number };

/**
 * A visitor from a campaign of this test's own: lands, scrolls to the lead form, starts it and
 * sends it; staff book a call and win the client. The sources table (grouped by campaign)
 * shows that one visitor all the way to the fee, its row opens exactly that lead, the CSV
 * says the same, and a custom range keeps it in the URL.
 */
test('the funnel and the sources table follow one visitor from a campaign to a won client', async ({ page, login }) => {
  const campaign = `funnel-${randomBytes(4).toString('hex')}`;
  const label = `e2e / test / ${campaign}`;
  const name = `Funnel ${campaign}`;

  await login();
  const funnelNow = async () => (await (await page.request.get('/api/analytics/report?days=1')).json()) as { funnel: Funnel; to: string };
  const before = await funnelNow();

  await openPage(page, `/?utm_source=e2e&utm_medium=test&utm_campaign=${campaign}`);
  await page.locator('#contact form').scrollIntoViewIfNeeded();
  await fillLeadForm(page, { name, email: `${campaign}@example.com`, phone: '555-0142', propertyType: 'Land' });
  // No wait here: the form itself holds the submission until its token is LEAD_MIN_FILL_SECONDS old.
  await page
    .locator('#contact form')
    .getByRole('button', { name: /Submit/ })
    .click();
  await expect(page.getByRole('status').filter({ hasText: 'Thank you for your interest! We will contact you shortly.' })).toBeVisible();

  // Every step grew (other tests may add visitors meanwhile, never remove any).
  const after = (await funnelNow()).funnel;
  for (const step of ['visitors', 'saw_form', 'started_form', 'sent'] as const)
    expect(after[step], step).toBeGreaterThan(before.funnel[step]);

  await page.goto('/dashboard/analytics?period=7d&group=utm');
  const row = page.getByTestId('source-row').filter({ has: page.getByRole('link', { name: label, exact: true }) });
  // Visitors, leads, bookings, clients, rate, fees.
  await expect(row.getByRole('cell')).toHaveText(['1', '1', '0', '0', '0%', '$0']);

  // The row opens exactly its lead.
  await row.getByRole('link', { name: label }).click();
  await expect(page).toHaveURL(/\/dashboard\/leads\?origin=utm/);
  await expect(page.getByRole('status').filter({ hasText: `From Analytics: ${label}` })).toBeVisible();
  await expect(page.getByRole('row').filter({ hasText: name })).toHaveCount(1);
  const list = (await (await page.request.get(`/api/leads?search=${encodeURIComponent(name)}`)).json()) as { leads: { id: string }[] };
  const leadId = list.leads[0]!.id;

  // Staff book the call and win the client while the Analytics page is open: it updates live
  // (the notification stream's change events), without a reload.
  await page.goto('/dashboard/analytics?period=7d&group=utm');
  await expect(row.getByRole('cell')).toHaveText(['1', '1', '0', '0', '0%', '$0']);
  await expect(page.getByRole('button', { name: /Notifications/ })).toBeVisible();
  const booked = await page.request.post('/api/appointments', {
    data: { lead_id: leadId, date: '2031-03-04', time: '10:00', type: 'Call', notes: '', allow_overlap: true },
    headers: fromTheSite(),
  });
  expect(booked.status(), await booked.text()).toBe(201);
  const won = await page.request.patch(`/api/leads/${leadId}`, {
    data: { status: 'Converted', estimated_fee_cents: 420_000 },
    headers: fromTheSite(),
  });
  expect(won.status(), await won.text()).toBe(200);

  // 8 s, below the default: live, well before the page's own 30 s refetch.
  await expect(row.getByRole('cell')).toHaveText(['1', '1', '1', '1', '100%', '$4,200'], { timeout: 8_000 });
  const funnel = page.getByTestId('funnel');
  await expect(funnel).toBeVisible();
  // The funnel's own query refetches beside the table's: wait for it too (a client after a booked call).
  await expect(page.getByTestId('funnel-converted')).not.toHaveText('0');
  // No step is larger than the one before it, whatever other tests added meanwhile.
  const steps = await Promise.all(
    ['visitors', 'saw_form', 'started_form', 'sent', 'booked', 'converted'].map(async (step) =>
      Number((await page.getByTestId(`funnel-${step}`).textContent())!.replace(/,/g, '')),
    ),
  );
  for (let i = 1; i < steps.length; i++) expect(steps[i], steps.join(' → ')).toBeLessThanOrEqual(steps[i - 1]!);

  // The CSV holds the same row.
  const download = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Export CSV' }).click();
  const file = await (await download).path();
  expect(await readFile(file, 'utf8')).toContain(`"${label}","1","1","1","1","100","4200.00"`);

  // A custom range of today only: in the URL, the row still there; a range long ago has nothing.
  const today = before.to;
  await page.getByLabel('Period').selectOption({ label: 'Custom range' });
  await page.getByLabel('From', { exact: true }).fill(today);
  await page.getByLabel('To', { exact: true }).fill(today);
  await page.getByRole('button', { name: 'Apply' }).click();
  await expect(page).toHaveURL(
    (url) => url.searchParams.get('period') === 'custom' && url.searchParams.get('from') === today && url.searchParams.get('to') === today,
  );
  await expect(row.getByRole('cell')).toHaveText(['1', '1', '1', '1', '100%', '$4,200']);
  await page.reload();
  await expect(page.getByLabel('From', { exact: true })).toHaveValue(today);
  await expect(row.getByRole('cell')).toHaveText(['1', '1', '1', '1', '100%', '$4,200']);

  await page.getByLabel('From', { exact: true }).fill('2020-01-01');
  await page.getByLabel('To', { exact: true }).fill('2020-01-31');
  await page.getByRole('button', { name: 'Apply' }).click();
  await expect(page.getByText('No visitors or leads in this period')).toBeVisible();
  await expect(page.getByText('No visitors in this period')).toBeVisible();
});
