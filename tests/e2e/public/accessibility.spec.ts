import { VALID_LEAD, expect, fillLeadForm, openPage, postPublicLead, test } from '../fixtures.ts';
import { seriousViolations } from '../axe.ts';

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

test('axe finds no serious or critical violations in the time picker the form turns into', async ({ page }) => {
  await openPage(page, '/');
  await fillLeadForm(page, { ...VALID_LEAD, email: 'axe.picker@example.com' });
  await page.locator('#contact form').getByRole('button', { name: 'Submit Request' }).click();
  await expect(page.getByRole('heading', { name: 'Pick a time for your free call' })).toBeVisible();
  await expect(
    page.getByRole('group', { name: 'Day', exact: true }).or(page.getByText('There are no open times right now.')),
  ).toBeVisible();
  expect(await seriousViolations(page)).toEqual([]);
});

test('axe finds no serious or critical violations on a booked call’s private page', async ({ page }) => {
  const lead = await postPublicLead(page.request, {
    full_name: 'Axe Booker',
    email: 'axe.booker@example.com',
    phone: '555-0100',
    property_types: ['land'],
    submission_id: crypto.randomUUID(),
  });
  const { booking_token } = (await lead.json()) as { booking_token: string };
  const today = new Date().toISOString().slice(0, 10);
  const later = new Date(Date.now() + 30 * 86_400_000).toISOString().slice(0, 10);
  const { slots } = (await (await page.request.get(`/api/public/availability?from=${today}&to=${later}`)).json()) as { slots: string[] };
  expect((await page.request.post('/api/public/bookings', { data: { booking_token, start: slots.at(-1), type: 'Call' } })).status()).toBe(
    201,
  );
  await openPage(page, `/booking/${booking_token}`);
  await expect(page.getByRole('button', { name: 'Move my call' })).toBeVisible();
  expect(await seriousViolations(page)).toEqual([]);
});
