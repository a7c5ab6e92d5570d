import { randomUUID } from 'node:crypto';
import AxeBuilder from '@axe-core/playwright';
import { request as apiRequest, type APIRequestContext, type Page } from '@playwright/test';
import { OPEN_EVERY_DAY, WORKS_EVERY_DAY } from '../../../src/server/test/booking.ts';
import { icsOf, icsUtc, startCalendarServer } from '../../../src/server/test/calendar-server.ts';
import { expect, postPublicLead, test } from '../fixtures.ts';
import { startOwnServer, type OwnServer } from '../own-server.ts';

/*
 * Outside calendars, on a server of its own (embedded database, so its credentials key file
 * is made in its data directory) and a calendar server on this machine's loopback, allowed
 * by OUTBOUND_ALLOW_HOSTS: the owner connects an iCal link on the account page, sees it synced,
 * sees its busy time as a grey block on the calendar for themselves, and a visitor is not
 * offered that time but books another, which is the owner's. At 1280 and 390 px, axe clean.
 */
const OWNER = { email: `cal.${Date.now()}@own.test`, password: 'calendar-password-1', name: 'Olive Owner' };
const ZONE = 'America/New_York';

let server: OwnServer;
let calendars: Awaited<ReturnType<typeof startCalendarServer>>;
let owner: APIRequestContext;
let ownerId = '';
test.describe.configure({ mode: 'serial' });
test.use({ timezoneId: ZONE });

/** The business date `days` from now, and the instant of a New York wall time on it (EST or EDT from the date). */
const dateIn = (days: number) => new Date(Date.now() + days * 86_400_000).toLocaleDateString('en-CA', { timeZone: ZONE });
function instant(date: string, time: string): number {
  const guess = Date.parse(`${date}T${time}:00Z`);
  const offset = new Date(guess).toLocaleString('en-US', { timeZone: ZONE, timeZoneName: 'shortOffset' }).match(/GMT([+-]\d+)/);
  return guess - Number(offset?.[1] ?? -5) * 3_600_000;
}

test.beforeAll(async () => {
  test.setTimeout(90_000);
  calendars = await startCalendarServer();
  server = await startOwnServer({
    ADMIN_EMAIL: OWNER.email,
    ADMIN_PASSWORD: OWNER.password,
    SMTP_URL: '',
    BUSINESS_TIME_ZONE: ZONE,
    OUTBOUND_ALLOW_HOSTS: `127.0.0.1:${calendars.port}`,
  });
  owner = await apiRequest.newContext({ baseURL: server.baseURL, extraHTTPHeaders: { origin: server.baseURL } });
  await expect.poll(async () => (await owner.post('/api/auth/login', { data: OWNER })).status(), { timeout: 20_000 }).toBe(200);
  expect((await owner.put('/api/booking-settings', { data: OPEN_EVERY_DAY })).status()).toBe(200);
  expect((await owner.put('/api/account/profile', { data: { display_name: OWNER.name } })).status()).toBe(200);
  expect((await owner.put('/api/account/availability', { data: WORKS_EVERY_DAY })).status()).toBe(200);
  ownerId = ((await (await owner.get('/api/auth/session')).json()) as { user: { id: string } }).user.id;
});
test.afterAll(async () => {
  await owner?.dispose();
  await server?.stop();
  await calendars?.close();
});

async function signIn(page: Page) {
  await page.context().clearCookies();
  await page.goto(`${server.baseURL}/login`);
  await page.getByLabel('Email').fill(OWNER.email);
  await page.getByLabel('Password').fill(OWNER.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Dashboard Overview' })).toBeVisible();
}

for (const [width, days] of [
  [1280, 3],
  [390, 4],
] as const) {
  test(`at ${width} px: connect an iCal link, see its busy time in grey, and a visitor is booked around it`, async ({ page }) => {
    test.setTimeout(90_000);
    await page.setViewportSize({ width, height: 900 });
    const date = dateIn(days);
    const path = `/ical/${width}/private-token/basic.ics`;
    calendars.set(path, {
      ics: icsOf([
        `UID:closing-${width}@test`,
        `DTSTAMP:${icsUtc(Date.now())}`,
        `DTSTART:${icsUtc(instant(date, '10:00'))}`,
        `DTEND:${icsUtc(instant(date, '11:00'))}`,
        'SUMMARY:Closing at 12 Main St',
      ]),
    });

    await signIn(page);
    await page.goto(`${server.baseURL}/dashboard/account`);
    const section = page.getByRole('region', { name: 'Calendars' });
    if (width === 1280) await expect(section).toContainText('No calendars connected.');
    await section.getByRole('button', { name: 'Connect a calendar' }).click();
    const dialog = page.getByRole('dialog', { name: 'Connect a calendar' });
    await dialog.getByLabel('iCal link').fill(calendars.url('/missing.ics'));
    await dialog.getByRole('button', { name: 'Connect' }).click();
    await expect(dialog.getByText(/That calendar could not be read/)).toBeVisible();
    expect((await new AxeBuilder({ page }).analyze()).violations).toEqual([]);
    await dialog.getByLabel('iCal link').fill(calendars.url(path));
    await dialog.getByRole('button', { name: 'Connect' }).click();
    await expect(page.getByRole('status').filter({ hasText: '127.0.0.1 connected' })).toBeVisible();
    await expect(dialog).toHaveCount(0);
    const row = section.getByRole('listitem').last();
    await expect(row).toContainText('Last synced just now');
    await expect(row).toContainText('1 busy time ahead');
    await expect(section).not.toContainText('private-token');
    await row.getByRole('button', { name: 'Sync now' }).click();
    await expect(page.getByRole('status').filter({ hasText: '127.0.0.1 synced' })).toBeVisible();
    expect((await new AxeBuilder({ page }).analyze()).violations).toEqual([]);

    // The owner's week: the busy time is a grey block with its time and no details.
    await page.goto(`${server.baseURL}/dashboard/appointments?view=agenda&date=${date}&person=${ownerId}`);
    const day = page.locator(`li[data-date="${date}"]`);
    await expect(day.getByText('Busy in their calendar')).toBeVisible();
    await expect(day).toContainText('10:00 AM – 11:00 AM');
    await expect(page.getByText('Closing at 12 Main St')).toHaveCount(0);
    expect((await new AxeBuilder({ page }).analyze()).violations).toEqual([]);

    // A visitor is not offered 10:00 or 10:30; the first time after is theirs, with the owner.
    const visitor = await apiRequest.newContext({ baseURL: server.baseURL, extraHTTPHeaders: { origin: server.baseURL } });
    const made = await postPublicLead(visitor, {
      full_name: `Vera Visitor ${width}`,
      email: `vera.${width}.${Date.now()}@example.com`,
      phone: '301 555 0101',
      property_types: ['land'],
      submission_id: randomUUID(),
    });
    expect(made.status()).toBe(201);
    const { booking_token } = (await made.json()) as { booking_token: string };
    const open = (await (await visitor.get(`/api/public/availability?from=${date}&to=${date}`)).json()) as { slots: string[] };
    const times = open.slots.map((s) => s.slice(11, 16));
    expect(times).toContain('09:30');
    expect(times).not.toContain('10:00');
    expect(times).not.toContain('10:30');
    const start = open.slots[times.indexOf('11:00')]!;
    const booked = await visitor.post('/api/public/bookings', { data: { booking_token, start, type: 'Call' } });
    expect(booked.status()).toBe(201);
    await visitor.dispose();
    await page.reload();
    await expect(day.getByRole('button', { name: new RegExp(`^11:00 AM - Vera Visitor ${width}`) })).toBeVisible();
  });
}
