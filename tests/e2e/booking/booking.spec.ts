import { randomInt, randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { request as apiRequest, type APIRequestContext, type Browser, type Page } from '@playwright/test';
import { OPEN_EVERY_DAY, WORKS_EVERY_DAY } from '../../../src/server/test/open-every-day.ts';
import { SITE_NAME, expect, fillLeadForm, onQuietServer, openPage, test, type Admin, type LoginOptions } from '../fixtures.ts';
import { startOwnServer, type OwnServer } from '../own-server.ts';
import { SLOW } from '../slow.ts';

/*
 * Booking end to end: a visitor sends the form, picks a time and confirms; an admin, signed
 * in elsewhere, sees it arrive live; the visitor moves and cancels it through the private
 * link; each step's email reaches the mail sink the suite runs. The servers take bookings
 * every day (tests/e2e/prepare-server.ts); each visitor has an email of their own.
 */
type Caught = { envelope: { to: string[] }; subject: string; text: string };
const MAIL_SINK = `http://127.0.0.1:${process.env.E2E_MAIL_HTTP_PORT}`;
const tag = () => randomUUID().slice(0, 8);
const subjectsTo = async (request: APIRequestContext, address: string) =>
  ((await (await request.get(`${MAIL_SINK}/messages`)).json()) as Caught[])
    .filter((m) => m.envelope.to.includes(address))
    .map((m) => m.subject);
const mailsTo = async (request: APIRequestContext, address: string) =>
  ((await (await request.get(`${MAIL_SINK}/messages`)).json()) as Caught[]).filter((m) => m.envelope.to.includes(address));

/** Sends the lead form as a person would (on `base`, the suite's server by default) and waits for the picker. */
async function sendForm(page: Page, name: string, email: string, base = '') {
  await openPage(page, `${base}/`);
  await fillLeadForm(page, { name, email, phone: '(240) 555-0144', propertyType: 'Commercial', message: 'A strip mall' });
  // No pause: the form itself waits until its token is as old as the server's minimum.
  await page.locator('#contact form').getByRole('button', { name: 'Submit Request' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Thank you for your interest!' })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Pick a time for your free call' })).toBeFocused();
}

/** Picks the `nth` open time of the second open day (today's may run out while the test runs). */
async function pickTime(page: Page, nth: number, type: 'Phone call' | 'Zoom') {
  const days = page.getByRole('group', { name: 'Day', exact: true }).getByRole('radio');
  await days.nth(1).check();
  // The times of that day, once they replace the first day's (a time picked from the list
  // before it re-renders would belong to the other day, and be left unchosen).
  const date = (await days.nth(1).getAttribute('value'))!;
  const label = new Date(`${date}T12:00:00Z`).toLocaleDateString('en-US', {
    weekday: 'long',
    month: 'long',
    day: 'numeric',
    timeZone: 'UTC',
  });
  const times = page.getByRole('group', { name: `Time on ${label}` }).getByRole('radio');
  await times.nth(nth).check();
  await page.getByRole('radio', { name: type }).check();
}

/** The page's scroll position once it has stayed put for ten frames (a smooth scroll takes several). */
async function settledScroll(page: Page) {
  return page.evaluate(
    () =>
      new Promise<number>((resolve) => {
        let still = 0;
        let last = window.scrollY;
        const next = () => {
          still = window.scrollY === last ? still + 1 : 0;
          last = window.scrollY;
          if (still === 10) resolve(last);
          else requestAnimationFrame(next);
        };
        requestAnimationFrame(next);
      }),
  );
}

/** A window of its own, signed in as an account of the test's own, on the Appointments page. */
async function adminWatching(browser: Browser, login: (options: LoginOptions) => Promise<Admin>) {
  const admin = await browser.newPage();
  await login({ page: admin });
  await admin.goto('/dashboard/appointments');
  await expect(admin.getByRole('heading', { name: 'Appointments' })).toBeVisible();
  return admin;
}

// The admin's live toasts: on the worker's quiet server, where no other test's lead or booking
// comes in meanwhile with toasts of its own (four at most show at once).
test.describe('watched live', () => {
  onQuietServer();

  test('a visitor books a time after the form, an admin sees it live, and the visitor moves and cancels it by the private link', async ({
    page,
    browser,
    request,
    login,
  }) => {
    const name = `Bea Booker ${tag()}`;
    const email = `booker.${tag()}@example.com`;
    const admin = await adminWatching(browser, login);
    await sendForm(page, name, email);
    // The picker takes the form's place without moving what is below it.
    await pickTime(page, 2, 'Zoom');
    const chosen = (await page
      .getByRole('group', { name: /^Time on / })
      .getByRole('radio', { checked: true })
      .getAttribute('value'))!;
    await page.getByRole('button', { name: 'Confirm' }).click();
    await expect(page.getByRole('heading', { name: 'Your free call is booked' })).toBeFocused();
    await expect(page.getByText(/Zoom call on .+ at .+ E[SD]T/)).toBeVisible();
    const manage = await page.getByRole('link', { name: 'Move or cancel your call' }).getAttribute('href');
    expect(manage).toMatch(/^\/booking\/[A-Za-z0-9_-]{43}$/);

    // The admin's bell and calendar show it without a reload.
    await expect(admin.getByRole('button', { name: /^Notifications, \d+ unread/ })).toBeVisible({ timeout: SLOW.reconnect });
    await expect(admin.getByRole('status').filter({ hasText: `New booking: ${name}` })).toBeVisible();
    const month = chosen.slice(0, 7);
    if (!admin.url().includes(month)) await admin.goto(`/dashboard/appointments?month=${month}`);
    await expect(admin.getByRole('button', { name: new RegExp(`- ${name}$`) })).toBeVisible();

    await expect.poll(() => subjectsTo(request, email), { timeout: SLOW.mail }).toHaveLength(2);
    const confirmation = (await mailsTo(request, email)).find((m) => m.subject.startsWith('Confirmed: your Zoom call'))!;
    expect(confirmation.text).toContain(manage!);

    // The private link: move it, then cancel it.
    await openPage(page, manage!);
    await expect(page.getByRole('heading', { level: 1, name: 'Your free call' })).toBeVisible();
    await expect(page.getByText(/Your Zoom call is on/)).toBeVisible();
    await page.getByRole('button', { name: 'Move my call' }).click();
    await expect(page.getByRole('heading', { name: 'Pick a new time' })).toBeFocused();
    await pickTime(page, 5, 'Phone call');
    await page.getByRole('button', { name: 'Confirm' }).click();
    await expect(page.getByRole('status').filter({ hasText: 'Your call has been moved.' })).toBeVisible();
    await expect(page.getByText(/Your phone call is on/)).toBeVisible();
    await expect(admin.getByRole('status').filter({ hasText: `Booking moved: ${name}` })).toBeVisible({ timeout: SLOW.reconnect });

    await page.getByRole('button', { name: 'Cancel my call' }).click();
    await page.getByRole('alertdialog').getByRole('button', { name: 'Yes, cancel it' }).click();
    await expect(page.getByRole('status').filter({ hasText: 'Your call has been cancelled.' })).toBeVisible();
    await expect(page.getByRole('button', { name: 'Book a time' })).toBeVisible();
    await expect(admin.getByRole('status').filter({ hasText: `Booking cancelled: ${name}` })).toBeVisible({ timeout: SLOW.reconnect });
    await expect(admin.getByRole('button', { name: new RegExp(`- ${name} \\(cancelled\\)$`) })).toBeVisible();

    await expect
      .poll(async () => (await subjectsTo(request, email)).map((s) => s.split(':')[0]).sort(), { timeout: SLOW.mail })
      .toEqual(['Cancelled', 'Confirmed', 'Updated', `We received your request`].sort());
    expect((await subjectsTo(request, email)).find((s) => s.startsWith('We received'))).toBe(`We received your request: ${SITE_NAME}`);
    await admin.close();
  });
});

test('a stranger who types a known person’s email is greeted and booked as they typed; the person’s own link stays theirs', async ({
  page,
  browser,
  login,
}) => {
  const known = `Kay Known ${tag()}`;
  const stranger = `Sam Stranger ${tag()}`;
  const email = `known.${tag()}@example.com`;
  await sendForm(page, known, email);
  await pickTime(page, 1, 'Phone call');
  const month = (await page
    .getByRole('group', { name: /^Time on / })
    .getByRole('radio', { checked: true })
    .getAttribute('value'))!.slice(0, 7);
  await page.getByRole('button', { name: 'Confirm' }).click();
  await expect(page.getByRole('heading', { name: 'Your free call is booked' })).toBeFocused();
  const own = (await page.getByRole('link', { name: 'Move or cancel your call' }).getAttribute('href'))!;

  // Someone else, elsewhere (another address: the per-address form limit is not the subject).
  const elsewhere = await browser.newContext({
    extraHTTPHeaders: { 'x-forwarded-for': `10.${randomInt(256)}.${randomInt(256)}.${randomInt(1, 255)}` },
  });
  const other = await elsewhere.newPage();
  await sendForm(other, stranger, email);
  await pickTime(other, 3, 'Zoom');
  await other.getByRole('button', { name: 'Confirm' }).click();
  await expect(other.getByRole('heading', { name: 'Your free call is booked' })).toBeFocused();
  const theirs = (await other.getByRole('link', { name: 'Move or cancel your call' }).getAttribute('href'))!;

  // Each private page greets its own form's sender and shows only the call booked through it.
  await openPage(other, theirs);
  await expect(other.getByText('Hello Sam,')).toBeVisible();
  await expect(other.getByText(/Your Zoom call is on/)).toBeVisible();
  await expect(other.locator('body')).not.toContainText('Kay');
  await openPage(page, own);
  await expect(page.getByText('Hello Kay,')).toBeVisible();
  await expect(page.getByText(/Your phone call is on/)).toBeVisible();
  await elsewhere.close();

  // Staff: both calls on the known person's lead; the stranger's says who booked it.
  const admin = await browser.newPage();
  await login({ page: admin });
  await admin.goto(`/dashboard/appointments?month=${month}`);
  await admin.getByRole('button', { name: 'List', exact: true }).click();
  const details = admin.getByRole('button', { name: new RegExp(`^View Details for ${known}, `) });
  await expect(details).toHaveCount(2);
  await details.nth(1).click();
  const dialog = admin.getByRole('dialog', { name: 'Appointment Details' });
  await expect(dialog.getByRole('link', { name: known })).toBeVisible();
  await expect(dialog.getByText('Booked as').locator('xpath=following-sibling::dd[1]')).toContainText(
    `${stranger}, (240) 555-0144From a repeat form with this lead’s email`,
  );
  await admin.keyboard.press('Escape');
  await details.nth(0).click();
  await expect(dialog.getByText('Booked as')).toHaveCount(0);
  await admin.close();
});

test.describe('on a 360 px phone', () => {
  test.use({ viewport: { width: 360, height: 740 } });

  test('the picker fits, works by keyboard, and books', async ({ page }) => {
    const email = `phone.${tag()}@example.com`;
    await sendForm(page, `Pat Phone ${tag()}`, email);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
    // Keyboard only: Tab to the days, arrows within each group.
    const firstDay = page.getByRole('group', { name: 'Day', exact: true }).getByRole('radio').first();
    await firstDay.focus();
    await page.keyboard.press('ArrowRight');
    await expect(page.getByRole('group', { name: 'Day', exact: true }).getByRole('radio').nth(1)).toBeChecked();
    // Past "Show more days" to the times.
    await page.keyboard.press('Tab');
    await expect(page.getByRole('button', { name: 'Show more days' })).toBeFocused();
    await page.keyboard.press('Tab');
    await page.keyboard.press('Space');
    await expect(
      page
        .getByRole('group', { name: /^Time on / })
        .getByRole('radio')
        .first(),
    ).toBeChecked();
    await page.getByRole('button', { name: 'Confirm' }).click();
    await expect(page.getByRole('heading', { name: 'Your free call is booked' })).toBeVisible();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
  });

  test('a tap on a time, a kind of call or Confirm never moves the page under the finger', async ({ page }) => {
    await sendForm(page, `Tia Tapper ${tag()}`, `tap.${tag()}@example.com`);
    // The third day (today's times may run out while the test runs), once its times are shown.
    const third = page.getByRole('group', { name: 'Day', exact: true }).getByRole('radio').nth(2);
    await third.check();
    const time = page
      .getByRole('group', { name: /^Time on / })
      .getByRole('radio')
      .and(page.locator(`[value^="${await third.getAttribute('value')}"]`))
      .nth(3);
    // Down to the times, the thanks above out of sight: the press focuses the time, and a scroll
    // then (back to the thanks) would move the page before the release, losing the tap.
    // Mid-screen, clear of the sticky Confirm bar (Playwright would scroll again to reach it).
    await time.evaluate((el) => el.scrollIntoView({ block: 'center', behavior: 'instant' }));
    const before = await settledScroll(page);
    await time.check();
    expect(await settledScroll(page)).toBe(before);
    await page.getByRole('radio', { name: 'Zoom' }).check();
    await page.getByRole('button', { name: 'Confirm' }).click();
    await expect(page.getByRole('heading', { name: 'Your free call is booked' })).toBeFocused();
  });

  test('"Skip, call me instead" brings back the empty form', async ({ page }) => {
    await sendForm(page, `Sam Skipper ${tag()}`, `skip.${tag()}@example.com`);
    await page.getByRole('button', { name: 'Skip, call me instead' }).click();
    await expect(page.locator('#contact form').getByLabel('Full name')).toHaveValue('');
  });
});

test('a link nobody was given shows that it is not valid, and is never cached', async ({ page }) => {
  const response = await openPage(page, `/booking/${'A'.repeat(43)}`);
  expect(response!.headers()['cache-control']).toBe('no-store');
  expect(response!.headers()['referrer-policy']).toBe('no-referrer');
  await expect(page.getByRole('alert')).toHaveText('This booking link is not valid or has expired.');
});

test('the picker asks for open times a month of dates at a time, up to the last date that may be booked', async ({ page }) => {
  // The server's answers, thinned out: two open days per page of dates, the last date 100 days on.
  const asked: { from: string; to: string }[] = [];
  let lastDate = '';
  await page.route('**/api/public/availability?*', async (route) => {
    const url = new URL(route.request().url());
    const [from, to] = [url.searchParams.get('from')!, url.searchParams.get('to')!];
    asked.push({ from, to });
    const real = (await (await route.fetch()).json()) as { last_date: string; slots: string[] };
    lastDate ||= addDays(from, 100);
    const open = [addDays(from, 3), addDays(from, 17)].filter((d) => d <= lastDate);
    await route.fulfill({
      json: { ...real, last_date: lastDate, slots: open.flatMap((d) => [`${d}T10:00:00-05:00`, `${d}T11:00:00-05:00`]) },
    });
  });
  await sendForm(page, `Paula Pager ${tag()}`, `pager.${tag()}@example.com`);
  const days = page.getByRole('group', { name: 'Day', exact: true }).getByRole('radio');
  // Six days shown: it asked page after page until it had more than six.
  await expect(days).toHaveCount(6);
  await expect.poll(() => asked.length).toBe(4);
  await page.getByRole('button', { name: 'Show more days' }).click();
  // Then on to the last date: four pages of 31 days hold it.
  await expect(page.getByRole('button', { name: 'Show more days' })).toBeHidden();
  await expect(days).toHaveCount(7);
  for (const [i, { from, to }] of asked.entries()) {
    expect(Date.parse(to) - Date.parse(from)).toBe(30 * 86_400_000);
    if (i > 0) expect(from).toBe(addDays(asked[i - 1]!.to, 1));
  }
  expect(asked.at(-1)!.to >= lastDate).toBe(true);
});

const addDays = (date: string, n: number) => new Date(Date.parse(`${date}T00:00:00Z`) + n * 86_400_000).toISOString().slice(0, 10);

/** An instant's clock time in a zone, with the zone's short name: "7:00 AM PST". */
const clockIn = (iso: string, timeZone: string) =>
  new Intl.DateTimeFormat('en-US', { timeZone, hour: 'numeric', minute: '2-digit', timeZoneName: 'short' })
    .format(new Date(iso))
    .replace(/[\u202f\u00a0]/g, ' ');
/** YYYYMMDDTHHMMSSZ, as iCalendar and Google Calendar write UTC. */
const utcStamp = (iso: string) =>
  new Date(iso)
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d{3}/, '');
const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

for (const [width, height] of [
  [1280, 800],
  [390, 844],
] as const) {
  test.describe(`a visitor in Los Angeles, at ${width} px`, () => {
    test.use({ viewport: { width, height }, timezoneId: 'America/Los_Angeles' });

    test('reaches Confirm without scrolling, reads the call on their clock with the firm’s beside it, and adds it to a calendar', async ({
      page,
      request,
    }) => {
      const email = `pacific.${tag()}@example.com`;
      await sendForm(page, `Lou Pacific ${tag()}`, email);
      await pickTime(page, 2, 'Phone call');
      // A phone's screen holds the picker's Confirm once a day and a time are picked (it stays at the foot of the screen).
      await expect(page.getByRole('button', { name: 'Confirm' })).toBeInViewport({ ratio: 1 });
      const chosen = (await page
        .getByRole('group', { name: /^Time on / })
        .getByRole('radio', { checked: true })
        .getAttribute('value'))!;
      const both = `${clockIn(chosen, 'America/Los_Angeles')} (${clockIn(chosen, 'America/New_York')})`;
      expect(both).toMatch(/^\d{1,2}:\d{2} [AP]M P[SD]T \(\d{1,2}:\d{2} [AP]M E[SD]T\)$/);
      await page.getByRole('button', { name: 'Confirm' }).click();

      await expect(page.getByRole('heading', { name: 'Your free call is booked' })).toBeFocused();
      await expect(page.getByText(new RegExp(`^Phone call on \\w+day, \\w+ \\d{1,2} at ${escapeRegExp(both)}\\.$`))).toBeVisible();
      await expect(page.getByText('We have emailed you the details with a calendar invitation.')).toBeVisible();

      // Add to calendar: the .ics from the server, and Google Calendar's and Outlook's event pages, filled in.
      const calendar = page.getByRole('group', { name: 'Add to calendar' });
      const downloading = page.waitForEvent('download');
      await calendar.getByRole('link', { name: 'Calendar file (.ics)' }).click();
      const download = await downloading;
      expect(download.suggestedFilename()).toBe('free-call.ics');
      const ics = readFileSync((await download.path())!, 'utf8');
      expect(ics).toMatch(/^BEGIN:VCALENDAR\r\n/);
      expect(ics).toMatch(/\r\nUID:[0-9a-f-]{36}@keystone\.test\r\n/);
      expect(ics).toContain(`\r\nDTSTART:${utcStamp(chosen)}\r\n`);
      const google = new URL((await calendar.getByRole('link', { name: /^Google Calendar/ }).getAttribute('href'))!);
      expect(google.origin + google.pathname).toBe('https://calendar.google.com/calendar/render');
      expect(google.searchParams.get('text')).toBe(`Call with ${SITE_NAME}`);
      expect(google.searchParams.get('dates')).toMatch(new RegExp(`^${utcStamp(chosen)}/\\d{8}T\\d{6}Z$`));
      const outlook = new URL((await calendar.getByRole('link', { name: /^Outlook/ }).getAttribute('href'))!);
      expect(outlook.origin + outlook.pathname).toBe('https://outlook.live.com/calendar/0/deeplink/compose');
      expect(outlook.searchParams.get('startdt')).toBe(new Date(chosen).toISOString().replace(/\.\d{3}Z$/, 'Z'));
      await expect(calendar.getByRole('link', { name: /^Outlook/ })).toHaveAttribute('target', '_blank');

      // The confirmation email says it the same way.
      await expect
        .poll(async () => (await mailsTo(request, email)).find((m) => m.subject.startsWith('Confirmed: your call'))?.text ?? '', {
          timeout: SLOW.mail,
        })
        .toContain(` at ${both}.`);

      // So does the private page, which offers Add to calendar too.
      await openPage(page, (await page.getByRole('link', { name: 'Move or cancel your call' }).getAttribute('href'))!);
      await expect(page.getByText(new RegExp(`^Your phone call is on \\w+day, \\w+ \\d{1,2} at ${escapeRegExp(both)}\\.$`))).toBeVisible();
      await expect(page.getByRole('group', { name: 'Add to calendar' }).getByRole('link')).toHaveCount(3);
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
    });
  });
}

test.describe('with email off (no SMTP_URL)', () => {
  const ADMIN = { email: `email-off.${Date.now()}@own.test`, password: 'email-off-password-1' };
  let server: OwnServer;
  test.beforeAll(async () => {
    test.setTimeout(SLOW.serverStart);
    server = await startOwnServer({
      SMTP_URL: '',
      ADMIN_EMAIL: ADMIN.email,
      ADMIN_PASSWORD: ADMIN.password,
      LEAD_MIN_FILL_SECONDS: '1',
      BOOKING_RATE_LIMIT: '0',
      BOOKING_HOLD_ABOVE_PER_HOUR: '0',
    });
    const api = await apiRequest.newContext({ baseURL: server.baseURL, extraHTTPHeaders: { origin: server.baseURL } });
    expect((await api.post('/api/auth/login', { data: ADMIN })).status()).toBe(200);
    expect((await api.put('/api/booking-settings', { data: OPEN_EVERY_DAY })).status()).toBe(200);
    expect((await api.put('/api/account/availability', { data: WORKS_EVERY_DAY })).status()).toBe(200);
    await api.dispose();
  });
  test.afterAll(async () => {
    await server?.stop();
  });

  for (const [width, height] of [
    [1280, 800],
    [390, 844],
  ] as const) {
    test(`at ${width} px the visitor is never told of an email, and is offered Add to calendar: booked, moved, cancelled`, async ({
      page,
    }) => {
      await page.setViewportSize({ width, height });
      await sendForm(page, `Nell Nomail ${tag()}`, `nomail.${tag()}@example.com`, server.baseURL);
      await pickTime(page, 1, 'Zoom');
      await page.getByRole('button', { name: 'Confirm' }).click();
      await expect(page.getByRole('heading', { name: 'Your free call is booked' })).toBeFocused();
      await expect(page.getByText('We have not emailed you the details, so add the call to your calendar below.')).toBeVisible();
      await expect(page.getByText(/emailed you the/)).toHaveText(
        'We have not emailed you the details, so add the call to your calendar below.',
      );
      await expect(page.getByRole('group', { name: 'Add to calendar' }).getByRole('link')).toHaveCount(3);

      await openPage(page, `${server.baseURL}${await page.getByRole('link', { name: 'Move or cancel your call' }).getAttribute('href')}`);
      const before = await page.getByRole('link', { name: /^Google Calendar/ }).getAttribute('href');
      await page.getByRole('button', { name: 'Move my call' }).click();
      await pickTime(page, 4, 'Zoom');
      await page.getByRole('button', { name: 'Confirm' }).click();
      await expect(page.getByRole('status').filter({ hasText: 'Your call has been moved.' })).toHaveText(
        'Your call has been moved. Add the new time to your calendar below.',
      );
      // The calendar links follow the new time.
      await expect(page.getByRole('link', { name: /^Google Calendar/ })).not.toHaveAttribute('href', before!);

      await page.getByRole('button', { name: 'Cancel my call' }).click();
      await page.getByRole('alertdialog').getByRole('button', { name: 'Yes, cancel it' }).click();
      await expect(page.getByRole('status').filter({ hasText: 'Your call has been cancelled.' })).toHaveText(
        'Your call has been cancelled.',
      );
      await expect(page.getByRole('group', { name: 'Add to calendar' })).toHaveCount(0);
    });
  }
});
