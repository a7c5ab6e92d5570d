import { randomUUID } from 'node:crypto';
import AxeBuilder from '@axe-core/playwright';
import { request as apiRequest, type APIRequestContext, type Page } from '@playwright/test';
import { OPEN_EVERY_DAY, WORKS_EVERY_DAY } from '../../../src/server/test/open-every-day.ts';
import { expect, postPublicLead, test } from '../fixtures.ts';
import { startOwnServer, type OwnServer } from '../own-server.ts';
import { SLOW } from '../slow.ts';

/*
 * Team scheduling, on a server of its own (it adds a team member and changes who takes calls):
 * a staff member turns on "Take website calls" on their account page; with the owner not
 * taking calls, a visitor's booking goes to them and makes them the lead's owner; the
 * calendar's Person filter shows one person's calls; scheduling over a person's call warns,
 * for another host it does not. At 1280 and 390 px, axe clean.
 */
const OWNER = { email: `hosts.${Date.now()}@own.test`, password: 'hosts-password-1', name: 'Olive Owner' };
const STAFF = { email: `sam.${Date.now()}@own.test`, password: 'sam-password-12', name: 'Sam Staff' };

let server: OwnServer;
let owner: APIRequestContext;
test.describe.configure({ mode: 'serial' });
test.use({ timezoneId: 'America/New_York' });

test.beforeAll(async () => {
  test.setTimeout(SLOW.serverStart);
  // Email off: the invitation's link is answered, to copy.
  server = await startOwnServer({ ADMIN_EMAIL: OWNER.email, ADMIN_PASSWORD: OWNER.password, SMTP_URL: '', LEAD_MIN_FILL_SECONDS: '1' });
  owner = await apiRequest.newContext({ baseURL: server.baseURL, extraHTTPHeaders: { origin: server.baseURL } });
  expect((await owner.post('/api/auth/login', { data: OWNER })).status()).toBe(200);
  expect((await owner.put('/api/booking-settings', { data: OPEN_EVERY_DAY })).status()).toBe(200);
  expect((await owner.put('/api/account/profile', { data: { display_name: OWNER.name } })).status()).toBe(200);
  const invite = await owner.post('/api/team/invites', { data: { email: STAFF.email, role: 'staff' } });
  expect(invite.status()).toBe(201);
  const token = ((await invite.json()) as { link: string }).link.split('/invite/')[1];
  const staff = await apiRequest.newContext({ baseURL: server.baseURL, extraHTTPHeaders: { origin: server.baseURL } });
  const accepted = await staff.post('/api/auth/invites/accept', {
    data: { token, display_name: STAFF.name, password: STAFF.password, confirm: STAFF.password },
  });
  expect(accepted.status()).toBe(201);
  await staff.dispose();
});
test.afterAll(async () => {
  await owner?.dispose();
  await server?.stop();
});

async function signIn(page: Page, who: { email: string; password: string }) {
  await page.context().clearCookies();
  await page.goto(`${server.baseURL}/login`);
  await page.getByLabel('Email').fill(who.email);
  await page.getByLabel('Password').fill(who.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Dashboard Overview' })).toBeVisible();
}

/** A visitor's lead and booking through the public API, at the first open time `days` ahead. */
async function visitorBooks(days: number, email: string, fullName: string) {
  const visitor = await apiRequest.newContext({ baseURL: server.baseURL, extraHTTPHeaders: { origin: server.baseURL } });
  const made = await postPublicLead(visitor, {
    full_name: fullName,
    email,
    phone: '301 555 0101',
    property_types: ['land'],
    submission_id: randomUUID(),
  });
  expect(made.status()).toBe(201);
  const { booking_token } = (await made.json()) as { booking_token: string };
  const date = new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);
  const open = (await (await visitor.get(`/api/public/availability?from=${date}&to=${date}`)).json()) as { slots: string[] };
  const start = open.slots[0]!;
  expect((await visitor.post('/api/public/bookings', { data: { booking_token, start, type: 'Call' } })).status()).toBe(201);
  await visitor.dispose();
  return { date, start };
}

for (const width of [1280, 390]) {
  test(`at ${width} px: a staff member takes calls from their account page, a visitor's call goes to them, and the calendar shows it per person`, async ({
    page,
  }) => {
    test.setTimeout(SLOW.longerTest);
    await page.setViewportSize({ width, height: 900 });
    // The owner does not take calls this time: Sam alone is free.
    expect((await owner.put('/api/account/availability', { data: { ...WORKS_EVERY_DAY, bookable: false } })).status()).toBe(200);

    await signIn(page, STAFF);
    await page.goto(`${server.baseURL}/dashboard/account`);
    const hours = page.getByRole('form', { name: 'Working hours' });
    const takes = hours.getByRole('checkbox', { name: 'Take website calls' });
    if (width === 1280) {
      await expect(takes).not.toBeChecked(); // a new person does not, until they say so
      await takes.check();
      await hours.getByRole('checkbox', { name: 'US federal holidays off' }).uncheck();
      await hours.getByRole('radio', { name: 'My own hours' }).check();
      // A lunch break on every day: 9 to 12 and 1 to 5.
      for (const day of ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday']) {
        await hours.getByLabel(`${day} until`).first().fill('12:00');
        await hours.getByRole('button', { name: `Add hours on ${day}` }).click();
      }
      await expect(hours.getByLabel('Monday from').nth(1)).toHaveValue('13:00');
      expect((await new AxeBuilder({ page }).analyze()).violations).toEqual([]);
      await hours.getByRole('button', { name: 'Save working hours' }).click();
      await expect(page.getByRole('status').filter({ hasText: 'Working hours saved' })).toBeVisible();
      await page.reload();
    }
    // Saved: taking calls, on their own hours with a lunch break.
    await expect(takes).toBeChecked();
    await expect(hours.getByRole('radio', { name: 'My own hours' })).toBeChecked();
    await expect(hours.getByLabel('Monday from')).toHaveCount(2);
    expect((await new AxeBuilder({ page }).analyze()).violations).toEqual([]);

    // No slot in Sam's lunch break; the visitor's call is Sam's, and the lead becomes Sam's.
    const date = new Date(Date.now() + 3 * 86_400_000).toISOString().slice(0, 10);
    const open = (await (await owner.get(`/api/public/availability?from=${date}&to=${date}`)).json()) as { slots: string[] };
    expect(open.slots.map((s) => s.slice(11, 16))).not.toContain('12:00');
    expect(open.slots.map((s) => s.slice(11, 16))).toContain('13:00');
    const email = `vera.${width}.${Date.now()}@example.com`;
    const name = `Vera Visitor ${width}`;
    const booked = await visitorBooks(3 + (width === 390 ? 1 : 0), email, name);

    // The owner's calendar: Everyone shows it, Sam shows it, Olive does not.
    await signIn(page, OWNER);
    await page.goto(`${server.baseURL}/dashboard/appointments?view=agenda&date=${booked.date}`);
    const entry = page.getByRole('button', { name: new RegExp(`^9:00 AM - ${name}`) });
    await expect(entry).toBeVisible();
    const person = page.getByLabel('Person');
    await person.selectOption({ label: STAFF.name });
    await expect(page).toHaveURL(/person=/);
    await expect(entry).toBeVisible();
    await person.selectOption({ label: OWNER.name });
    await expect(entry).toHaveCount(0);
    await person.selectOption({ label: 'Everyone' });
    await entry.click();
    const details = page.getByRole('dialog', { name: 'Appointment Details' });
    await expect(details).toContainText(`Host${STAFF.name}`);
    await page.keyboard.press('Escape');
    expect((await new AxeBuilder({ page }).analyze()).violations).toEqual([]);

    // Scheduling over Sam's call warns; with the owner as host it does not.
    await page.getByRole('button', { name: 'Schedule', exact: true }).click();
    const dialog = page.getByRole('dialog', { name: 'Schedule Appointment' });
    await dialog.getByRole('combobox', { name: 'Lead' }).fill(name);
    await expect(dialog.getByRole('option', { name: new RegExp(name) })).toBeVisible();
    await dialog.getByRole('combobox', { name: 'Lead' }).press('ArrowDown');
    await dialog.getByRole('combobox', { name: 'Lead' }).press('Enter');
    await dialog.getByLabel('Date').fill(booked.date);
    await dialog.getByLabel('Time').fill('09:00');
    await dialog.getByLabel('Type').selectOption('Call');
    await expect(dialog.getByLabel('Host')).toHaveValue(/.+/); // you, by default
    await dialog.getByLabel('Host').selectOption({ label: STAFF.name });
    await dialog.getByRole('button', { name: 'Schedule Appointment' }).click();
    await expect(dialog.getByRole('alert')).toContainText('This time overlaps another appointment.');
    await dialog.getByLabel('Host').selectOption({ label: `${OWNER.name} (you)` });
    await dialog.getByRole('button', { name: 'Schedule Appointment' }).click();
    await expect(page.getByRole('status').filter({ hasText: 'Appointment scheduled successfully' })).toBeVisible();
    await expect(page.getByRole('button', { name: new RegExp(`^9:00 AM - ${name}`) })).toHaveCount(2);
  });
}
