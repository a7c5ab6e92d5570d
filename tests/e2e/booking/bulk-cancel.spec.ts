import { randomInt, randomUUID } from 'node:crypto';
import type { APIRequestContext, Page } from '@playwright/test';
import { expect, fromTheSite, postPublicLead, test } from '../fixtures.ts';
import { seriousViolations } from '../axe.ts';

/*
 * Staff cancel a flood of website bookings at once: the "Cancel website bookings…" dialog on
 * the Appointments page, at desktop and phone widths, keyboard and axe clean; the calls are
 * cancelled, nobody is emailed, and the leads carry the mark. The calls come from a network of
 * the spec's own, so what the dialog counts for it is the spec's alone.
 */
type Caught = { envelope: { to: string[] }; subject: string };
const MAIL_SINK = `http://127.0.0.1:${process.env.E2E_MAIL_HTTP_PORT}`;
const subjectsTo = async (request: APIRequestContext, address: string) =>
  ((await (await request.get(`${MAIL_SINK}/messages`)).json()) as Caught[])
    .filter((m) => m.envelope.to.includes(address))
    .map((m) => m.subject);

// A network of this run's own, so the counts are this spec's.
const NET = `198.51.${randomInt(256)}`;
const NETWORK = `${NET}.0/24`;
const tag = randomUUID().slice(0, 8);
const emails = [1, 2, 3].map((n) => `flood.${tag}.${n}@example.com`);

/** Three visitors of one /24 send the form and book a call each, 12 days ahead (the servers take bookings every day: prepare-server.ts). */
test.beforeAll(async ({ browser }) => {
  const page = await browser.newPage();
  const day = new Date(Date.now() + 12 * 86_400_000).toISOString().slice(0, 10);
  for (const [i, email] of emails.entries()) {
    const from = { 'x-forwarded-for': `${NET}.${i + 10}` };
    const lead = await postPublicLead(
      page.request,
      { full_name: `Flood ${tag} ${i + 1}`, email, phone: '555-0100', property_types: ['land'], submission_id: randomUUID() },
      from,
    );
    expect(lead.status()).toBe(201);
    const { booking_token } = (await lead.json()) as { booking_token: string };
    const { slots } = (await (await page.request.get(`/api/public/availability?from=${day}&to=${day}`)).json()) as { slots: string[] };
    const booked = await page.request.post('/api/public/bookings', {
      data: { booking_token, start: slots[i * 2 + 1], type: 'Call' },
      headers: from,
    });
    expect(booked.status()).toBe(201);
  }
  await page.close();
});

async function openDialog(page: Page) {
  await page.goto('/dashboard/appointments');
  await page.getByRole('button', { name: 'Cancel website bookings…' }).click();
  const dialog = page.getByRole('dialog', { name: 'Cancel website bookings' });
  await expect(dialog).toBeVisible();
  return dialog;
}

test('at 390 px the dialog fits, offers the time window, previews, is axe clean and closes by keyboard to its button', async ({
  page,
  login,
}) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await login();
  const dialog = await openDialog(page);
  await dialog.getByRole('radio', { name: 'Booked in a time window' }).check();
  await expect(dialog.getByLabel('Booked from')).toBeVisible();
  await expect(dialog.getByLabel('Booked until')).toBeVisible();
  // The last hour by default: this spec's three calls were booked in it (and perhaps others').
  await expect(dialog.getByRole('status')).toHaveText(/^\d+ calls? will be cancelled\.$/);
  await expect(dialog.getByRole('checkbox', { name: 'Email them' })).not.toBeChecked();
  expect(await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).toBeLessThanOrEqual(0);
  const box = await dialog.boundingBox();
  expect(box!.x).toBeGreaterThanOrEqual(0);
  expect(box!.x + box!.width).toBeLessThanOrEqual(390);
  expect(await seriousViolations(page, { include: '[role="dialog"]' })).toEqual([]);
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
  await expect(page.getByRole('button', { name: 'Cancel website bookings…' })).toBeFocused();
});

test('at 1280 px staff cancel one network’s bookings: a preview count, no email, the calls gone and the leads marked', async ({
  page,
  request,
  login,
}) => {
  await page.setViewportSize({ width: 1280, height: 900 });
  await login();
  const dialog = await openDialog(page);
  await expect(dialog.getByRole('radio', { name: 'From one network' })).toBeChecked();
  await expect(dialog.getByRole('status')).toHaveText('Enter a network or IP address to see how many calls match.');
  // The network is offered among those with the most upcoming website bookings.
  await dialog.getByRole('button', { name: `Use ${NETWORK}, 3 calls upcoming` }).click();
  await expect(dialog.getByLabel('Network or IP address')).toHaveValue(NETWORK);
  await expect(dialog.getByRole('status')).toHaveText('3 calls will be cancelled.');
  expect(await seriousViolations(page, { include: '[role="dialog"]' })).toEqual([]);

  // Typed as an address of that network: the same three.
  await dialog.getByLabel('Network or IP address').fill(`${NET}.77`);
  await expect(dialog.getByRole('status')).toHaveText('3 calls will be cancelled.');
  await dialog.getByLabel('Network or IP address').fill('not a network');
  await expect(dialog.getByRole('status')).toHaveText('Enter an IP address or a network like 203.0.113.0/24');
  await expect(dialog.getByRole('button', { name: 'Cancel calls' })).toBeDisabled();
  await dialog.getByLabel('Network or IP address').fill(NETWORK);
  await expect(dialog.getByRole('status')).toHaveText('3 calls will be cancelled.');

  const before = await Promise.all(emails.map((e) => subjectsTo(request, e)));
  await dialog.getByRole('button', { name: 'Cancel 3 calls' }).click();
  await expect(page.getByRole('status').filter({ hasText: '3 calls cancelled' })).toBeVisible();
  await expect(dialog).toBeHidden();

  // Cancelled: nothing left from that network.
  const left = await page.request.post('/api/appointments/bulk-cancel', {
    data: { network: NETWORK, notify: false, dry_run: true },
    headers: fromTheSite(),
  });
  expect(await left.json()).toEqual({ count: 0, dry_run: true, network: NETWORK });
  // The leads are kept and marked, in the list and on their page.
  await page.goto(`/dashboard/leads?search=${encodeURIComponent(`flood.${tag}`)}`);
  const rows = page.getByRole('row', { name: new RegExp(`Flood ${tag}`) });
  await expect(rows).toHaveCount(3);
  for (const row of await rows.all()) await expect(row.getByText('Booking cancelled as suspected abuse')).toBeVisible();
  await rows
    .first()
    .getByRole('link', { name: new RegExp(`Flood ${tag}`) })
    .click();
  await expect(page.locator('header').getByText('Booking cancelled as suspected abuse')).toBeVisible();
  const timeline = page.getByRole('list', { name: 'Timeline, newest first' });
  await expect(timeline.getByText(/^Booking cancelled as suspected abuse: Call on /)).toBeVisible();
  // No mail to those addresses: none queued (the timeline lists every email to the lead the
  // moment it is queued), and the sink holds what it held before.
  await expect(timeline.getByText(/^Email: Cancelled: /)).toHaveCount(0);
  await expect(timeline.getByText(/^Email: Confirmed: /)).toHaveCount(1);
  expect(await Promise.all(emails.map((e) => subjectsTo(request, e)))).toEqual(before);
});
