import { randomUUID } from 'node:crypto';
import AxeBuilder from '@axe-core/playwright';
import { request as apiRequest, type APIRequestContext, type Page } from '@playwright/test';
import { OPEN_EVERY_DAY, WORKS_EVERY_DAY } from '../../../src/server/test/open-every-day.ts';
import { icsOf, icsUtc, startCalendarServer } from '../../../src/server/test/calendar-server.ts';
import { type Radicale, startRadicale } from '../../../src/server/test/radicale.ts';
import { expect, postPublicLead, test } from '../fixtures.ts';
import { startOwnServer, type OwnServer } from '../own-server.ts';
import { SLOW } from '../slow.ts';

/*
 * Outside calendars, on a server of its own (embedded database, so its credentials key file
 * is made in its data directory) and a calendar server on this machine's loopback, allowed
 * by OUTBOUND_ALLOW_HOSTS: the owner connects an iCal link on the account page, sees it synced,
 * sees its busy time as a grey block on the calendar for themselves, and a visitor is not
 * offered that time but books another, which is the owner's. At 1280 and 390 px, axe clean.
 * Then a CalDAV account on Radicale (also on the loopback): connected with its app password,
 * its calendars chosen, its busy event kept from visitors, and a visitor's call written into
 * the chosen calendar, and removed from it when cancelled.
 */
const OWNER = { email: `cal.${Date.now()}@own.test`, password: 'calendar-password-1', name: 'Olive Owner' };
const ZONE = 'America/New_York';

let server: OwnServer;
let calendars: Awaited<ReturnType<typeof startCalendarServer>>;
let radicale: Radicale;
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
  test.setTimeout(SLOW.serverStart);
  calendars = await startCalendarServer();
  radicale = await startRadicale(['dana']);
  await radicale.makeCalendar('dana', 'work', { displayName: 'Work' });
  server = await startOwnServer({
    ADMIN_EMAIL: OWNER.email,
    ADMIN_PASSWORD: OWNER.password,
    SMTP_URL: '',
    BUSINESS_TIME_ZONE: ZONE,
    OUTBOUND_ALLOW_HOSTS: `127.0.0.1:${calendars.port},127.0.0.1:${radicale.port}`,
    // Three visitors book from this machine's one address: more than the default two a day.
    BOOKING_RATE_LIMIT: '10',
  });
  owner = await apiRequest.newContext({ baseURL: server.baseURL, extraHTTPHeaders: { origin: server.baseURL } });
  expect((await owner.post('/api/auth/login', { data: OWNER })).status()).toBe(200);
  expect((await owner.put('/api/booking-settings', { data: OPEN_EVERY_DAY })).status()).toBe(200);
  expect((await owner.put('/api/account/profile', { data: { display_name: OWNER.name } })).status()).toBe(200);
  expect((await owner.put('/api/account/availability', { data: WORKS_EVERY_DAY })).status()).toBe(200);
  ownerId = ((await (await owner.get('/api/auth/session')).json()) as { user: { id: string } }).user.id;
});
test.afterAll(async () => {
  await owner?.dispose();
  await server?.stop();
  await calendars?.close();
  await radicale?.stop();
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
    test.setTimeout(SLOW.longerTest);
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
    await dialog.getByLabel('iCal link', { exact: true }).fill(calendars.url('/missing.ics'));
    await dialog.getByRole('button', { name: 'Connect' }).click();
    await expect(dialog.getByText(/That calendar could not be read/)).toBeVisible();
    expect((await new AxeBuilder({ page }).analyze()).violations).toEqual([]);
    await dialog.getByLabel('iCal link', { exact: true }).fill(calendars.url(path));
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

test('a CalDAV account: connect, choose calendars, and a booked call is written there and removed when cancelled', async ({ page }) => {
  test.setTimeout(SLOW.longerTest);
  const date = dateIn(5);
  await radicale.putRawEvent(
    'dana',
    'work',
    'inspection',
    icsOf([
      'UID:inspection@test',
      `DTSTAMP:${icsUtc(Date.now())}`,
      `DTSTART:${icsUtc(instant(date, '14:00'))}`,
      `DTEND:${icsUtc(instant(date, '15:00'))}`,
      'SUMMARY:Roof inspection',
    ]),
  );
  await signIn(page);
  await page.goto(`${server.baseURL}/dashboard/account`);
  const section = page.getByRole('region', { name: 'Calendars' });
  await section.getByRole('button', { name: 'Connect a calendar' }).click();
  const dialog = page.getByRole('dialog', { name: 'Connect a calendar' });
  await dialog.getByRole('radio', { name: /CalDAV account/ }).check();
  await dialog.getByLabel('Server address').fill(radicale.url);
  await dialog.getByLabel('Username').fill('dana');
  await dialog.getByLabel('App password').fill('not-the-app-password');
  await dialog.getByRole('button', { name: 'Connect' }).click();
  await expect(dialog.getByText(/That account could not be reached/)).toBeVisible();
  expect((await new AxeBuilder({ page }).analyze()).violations).toEqual([]);
  await dialog.getByLabel('App password').fill(radicale.users[0]!.password);
  await dialog.getByRole('button', { name: 'Connect' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'dana on 127.0.0.1 connected' })).toBeVisible();

  // Straight on to the choice: Work counts as busy already; booked calls go there once chosen.
  const choice = page.getByRole('dialog', { name: 'Choose calendars' });
  await expect(choice.getByRole('checkbox', { name: 'Work' })).toBeChecked();
  await page.setViewportSize({ width: 360, height: 740 });
  expect(await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).toBeLessThanOrEqual(0);
  expect((await new AxeBuilder({ page }).analyze()).violations).toEqual([]);
  await page.setViewportSize({ width: 1280, height: 900 });
  await choice.getByLabel('Add booked calls to').selectOption({ label: 'Work' });
  await choice.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Calendars saved' })).toBeVisible();
  const row = section.getByRole('listitem').filter({ hasText: 'dana on 127.0.0.1' });
  await expect(row).toContainText('Booked calls go to Work');
  await expect(row).toContainText('1 busy time ahead');
  await expect(section).not.toContainText(radicale.users[0]!.password);

  // A visitor is not offered the inspection's hour; the call they book lands in Work.
  const visitor = await apiRequest.newContext({ baseURL: server.baseURL, extraHTTPHeaders: { origin: server.baseURL } });
  const made = await postPublicLead(visitor, {
    full_name: 'Cora CalDAV',
    email: `cora.${Date.now()}@example.com`,
    phone: '301 555 0144',
    property_types: ['land'],
    submission_id: randomUUID(),
  });
  const { booking_token } = (await made.json()) as { booking_token: string };
  const open = (await (await visitor.get(`/api/public/availability?from=${date}&to=${date}`)).json()) as { slots: string[] };
  const times = open.slots.map((s) => s.slice(11, 16));
  expect(times).not.toContain('14:00');
  expect(times).not.toContain('14:30');
  const booked = await visitor.post('/api/public/bookings', {
    data: { booking_token, start: open.slots[times.indexOf('15:00')]!, type: 'Call' },
  });
  expect(booked.status()).toBe(201);
  await visitor.dispose();
  const listed = (await (await owner.get(`/api/appointments?from=${date}&to=${date}`)).json()) as {
    appointments: { id: string; lead: { full_name: string } | null }[];
  };
  const appointment = listed.appointments.find((a) => a.lead?.full_name === 'Cora CalDAV')!;
  const work = () => radicale.readCalendar('dana', 'work');
  await expect.poll(work, { timeout: SLOW.calendarWrite }).toContain('Cora CalDAV');
  expect((await work()).replace(/\r\n /g, '')).toContain(`DTSTART:${icsUtc(instant(date, '15:00'))}`);

  // Cancelled by staff: gone from Work.
  expect((await owner.patch(`/api/appointments/${appointment.id}`, { data: { status: 'cancelled' } })).status()).toBe(200);
  await expect.poll(work, { timeout: SLOW.calendarWrite }).not.toContain('Cora CalDAV');
  expect(await work()).toContain('Roof inspection');
});
