import { randomUUID } from 'node:crypto';
import { request as apiRequest, type APIRequestContext, type Page } from '@playwright/test';
import { OPEN_EVERY_DAY, WORKS_EVERY_DAY } from '../../../src/server/test/open-every-day.ts';
import { expect, fillLeadForm, test } from '../fixtures.ts';
import { signInOn, startOwnServer, type OwnServer } from '../own-server.ts';
import { SLOW } from '../slow.ts';

/*
 * A booking held for the visitor's emailed confirmation (docs/security.md, "Calendar
 * exhaustion"), on a server of its own: the owner turns "Always require email confirmation" on
 * in Settings → Booking (the suite's shared server keeps it off for the other booking specs);
 * a visitor picks a time and is told to check their email; the link from the mail sink opens
 * a page that books only when Confirm is clicked; at 1280 and 390 px. Each test sets what it
 * starts from itself (the switch off for the owner to turn on; on, through the API, for the
 * visitors), so any may run first.
 */
type Caught = { envelope: { to: string[] }; subject: string; text: string };
const MAIL_SINK = `http://127.0.0.1:${process.env.E2E_MAIL_HTTP_PORT}`;
const OWNER = { email: `holds.${Date.now()}@own.test`, password: 'holds-password-1' };
const tag = () => randomUUID().slice(0, 8);
const mailsTo = async (request: APIRequestContext, address: string) =>
  ((await (await request.get(`${MAIL_SINK}/messages`)).json()) as Caught[]).filter((m) => m.envelope.to.includes(address));

let server: OwnServer;
// The visitor in the firm's own zone: each time reads once (booking.spec.ts has one elsewhere, who reads both clocks).
test.use({ timezoneId: 'America/New_York' });
test.beforeAll(async () => {
  test.setTimeout(SLOW.serverStart);
  server = await startOwnServer({ ADMIN_EMAIL: OWNER.email, ADMIN_PASSWORD: OWNER.password, LEAD_MIN_FILL_SECONDS: '1' });
});
test.afterAll(async () => {
  await server?.stop();
});

const signInAsOwner = (page: Page) => signInOn(page, server, OWNER);

/** Booking open every day, the owner taking the calls every day, and (`held`) every booking waiting for the visitor's emailed confirmation. */
async function bookingSettings(held: boolean) {
  const owner = await apiRequest.newContext({ baseURL: server.baseURL, extraHTTPHeaders: { origin: server.baseURL } });
  try {
    expect((await owner.post('/api/auth/login', { data: OWNER })).status()).toBe(200);
    const saved = await owner.put('/api/booking-settings', { data: { ...OPEN_EVERY_DAY, require_email_confirmation: held } });
    expect(saved.status(), await saved.text()).toBe(200);
    expect((await owner.put('/api/account/availability', { data: WORKS_EVERY_DAY })).status()).toBe(200);
  } finally {
    await owner.dispose();
  }
}

test('the owner turns on "Always require email confirmation" in Settings → Booking', async ({ page }) => {
  // Open every day with no notice, and the switch off.
  await bookingSettings(false);
  await signInAsOwner(page);
  await page.goto(`${server.baseURL}/dashboard/settings/booking`);
  const confirmSwitch = page.getByRole('switch', { name: 'Always require email confirmation' });
  await expect(confirmSwitch).not.toBeChecked();
  await expect(confirmSwitch).toBeEnabled();
  await confirmSwitch.check();
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('Booking settings saved')).toBeVisible();
  await page.reload();
  await expect(page.getByRole('switch', { name: 'Always require email confirmation' })).toBeChecked();
});

for (const width of [1280, 390]) {
  test.describe(`at ${width} px`, () => {
    test.use({ viewport: { width, height: width > 1000 ? 800 : 844 } });

    test('a booking waits for the emailed link, whose page books it with one click', async ({ page, request }) => {
      // Every booking held, open every day with no notice: the visitor finds times whatever the day and hour.
      await bookingSettings(true);
      const email = `held.${tag()}@example.com`;
      await page.goto(`${server.baseURL}/`);
      await expect(page.locator('html[data-hydrated="true"]')).toHaveCount(1);
      await fillLeadForm(page, { name: `Hal Held ${tag()}`, email, phone: '(240) 555-0144', propertyType: 'Commercial' });
      await page.locator('#contact form').getByRole('button', { name: 'Submit Request' }).click();
      await expect(page.getByRole('heading', { name: 'Pick a time for your free call' })).toBeFocused();
      await page.getByRole('group', { name: 'Day', exact: true }).getByRole('radio').nth(1).check();
      await page
        .getByRole('group', { name: /^Time on / })
        .getByRole('radio')
        .nth(3)
        .check();
      await page.getByRole('radio', { name: 'Phone call' }).check();
      await page.getByRole('button', { name: 'Confirm' }).click();

      await expect(page.getByRole('heading', { name: 'Check your email to confirm your call' })).toBeFocused();
      await expect(page.getByText(/We have emailed you a link to confirm your phone call on .+ at .+ E[SD]T\./)).toBeVisible();
      await expect(page.getByText(/The link works for 30 minutes, until \d{1,2}:\d{2} [AP]M E[SD]T\./)).toBeVisible();
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);

      // The email: its link, and nothing booked yet (no invitation).
      await expect
        .poll(async () => (await mailsTo(request, email)).map((m) => m.subject), { timeout: SLOW.mail })
        .toContain('Confirm your call with Keystone Due Diligence');
      const mail = (await mailsTo(request, email)).find((m) => m.subject.startsWith('Confirm your call'))!;
      const link = /Confirm my call: (\S+)/.exec(mail.text)![1]!;
      expect(link).toMatch(new RegExp(`^${server.baseURL}/booking/[A-Za-z0-9_-]{43}/confirm/[A-Za-z0-9_-]{43}$`));
      expect((await mailsTo(request, email)).some((m) => m.subject.startsWith('Confirmed:'))).toBe(false);

      // Opening the link confirms nothing (mail scanners open links); the click does.
      const response = await page.goto(link);
      expect(response!.headers()['cache-control']).toBe('no-store');
      await expect(page.getByText(/Confirm your phone call on .+ at .+ E[SD]T\./)).toBeVisible();
      expect((await mailsTo(request, email)).some((m) => m.subject.startsWith('Confirmed:'))).toBe(false);
      await page.getByRole('button', { name: 'Confirm my call' }).click();
      await expect(
        page.getByRole('status').filter({ hasText: 'Your call is booked. We have emailed you the details with a calendar invitation.' }),
      ).toBeFocused();
      await expect(page.getByText(/Your phone call is on .+ at .+ E[SD]T/)).toBeVisible();
      await expect(page.getByRole('button', { name: 'Move my call' })).toBeVisible();
      // The address bar is back to the private link.
      expect(new URL(page.url()).pathname).toBe(new URL(link).pathname.replace(/\/confirm\/.*$/, ''));
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
      await expect
        .poll(async () => (await mailsTo(request, email)).some((m) => m.subject.startsWith('Confirmed: your call')), { timeout: SLOW.mail })
        .toBe(true);
    });
  });
}
