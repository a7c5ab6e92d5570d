import { randomUUID } from 'node:crypto';
import type { Page } from '@playwright/test';
import { createAppointment, createLead, expect, onQuietServer, postPublicLead, test, uniqueTag } from '../fixtures.ts';

/*
 * Stored XSS: a lead and an appointment whose every free-text field is a script payload are
 * shown on each dashboard page, in the bell and in the live toast, as text that does nothing.
 * The CSP would block inline handlers anyway, so the test also checks the DOM: no element the
 * payload could have created, and no CSP violation report (a blocked injection is still a bug).
 * Each test makes its own payload lead and appointment (tomorrow, in the Overview's 7-day
 * window), on the worker's quiet server: the Overview's newest leads and the live toast are
 * then the test's own, with no other test's lead coming in between.
 */
const BUSINESS_TIME_ZONE = 'America/New_York'; // the e2e server's default

/** A lead whose every free-text field is a script payload, named with the test's `tag`. */
const payloadOf = (tag: string) => ({
  full_name: `<img src=x onerror=window.__xss=1><script>window.__xss=1</script> Mallory ${tag}`,
  email: `mallory.${tag}@example.com`,
  phone: '<svg/onload=window.__xss=1>',
  message: 'javascript:window.__xss=1 <iframe src="javascript:window.__xss=1"></iframe>',
});
const NOTES = '<script>window.__xss=1</script><a href="javascript:window.__xss=1">click</a> <img src=x onerror=window.__xss=1>';

/** What a payload would leave in the DOM had it been parsed as HTML. */
const INJECTED =
  'img[src="x"], [onerror], [onload], script:not([src]):not([type="application/json"]), iframe, svg[onload], a[href^="javascript:" i]';

async function watch(page: Page) {
  const dialogs: string[] = [];
  page.on('dialog', (dialog) => {
    dialogs.push(dialog.message());
    void dialog.dismiss();
  });
  await page.addInitScript(() => {
    const w = window as unknown as { __cspViolations: string[] };
    w.__cspViolations = [];
    document.addEventListener('securitypolicyviolation', (e) => w.__cspViolations.push(`${e.violatedDirective} ${e.blockedURI}`));
  });
  return dialogs;
}

async function expectInert(page: Page, dialogs: string[]) {
  await expect(page.locator(INJECTED)).toHaveCount(0);
  const state = await page.evaluate(() => {
    const w = window as unknown as { __xss?: unknown; __cspViolations: string[] };
    return { xss: w.__xss, csp: w.__cspViolations };
  });
  expect(state).toEqual({ xss: undefined, csp: [] });
  expect(dialogs).toEqual([]);
}

function businessDate(daysFromNow: number): string {
  return new Intl.DateTimeFormat('en-CA', { timeZone: BUSINESS_TIME_ZONE }).format(new Date(Date.now() + daysFromNow * 86_400_000));
}

/** The payload lead of the test's `tag` and its Zoom call tomorrow at 9:00 with payload notes, made as the signed-in page. */
async function storePayloads(page: Page, tag: string) {
  const payload = payloadOf(tag);
  const lead = await createLead(page.request, { ...payload, property_types: ['land'] });
  expect(lead.full_name).toBe(payload.full_name);
  const date = businessDate(1);
  await createAppointment(page.request, { lead_id: lead.id, date, time: '09:00', type: 'Zoom', notes: NOTES });
  return { payload, date };
}

test.describe('stored script payloads', () => {
  onQuietServer();

  test('are shown as inert text on the Overview, in the leads table and in the Edit Lead form', async ({ page, login }) => {
    const dialogs = await watch(page);
    await login();
    const tag = uniqueTag();
    const { payload } = await storePayloads(page, tag);

    await page.goto('/dashboard');
    const recent = page.getByRole('region', { name: 'Recent Leads' });
    await expect(recent.getByText(payload.full_name)).toBeVisible();
    const upcoming = page.getByRole('region', { name: 'Upcoming Appointments' });
    await expect(upcoming.getByText(payload.full_name)).toBeVisible();
    await expect(upcoming.getByText(NOTES)).toBeVisible();
    await expectInert(page, dialogs);

    await page.goto(`/dashboard/leads?search=${tag}`);
    const row = page.getByRole('table').getByRole('row', { name: new RegExp(`Mallory ${tag}`) });
    await expect(row.getByText(payload.full_name)).toBeVisible();
    await expect(row.getByText(payload.phone)).toBeVisible();
    await expectInert(page, dialogs);

    await row.getByRole('button', { name: `Edit ${payload.full_name}` }).click();
    const dialog = page.getByRole('dialog', { name: 'Edit Lead' });
    await expect(dialog.getByLabel('Full Name')).toHaveValue(payload.full_name);
    await expect(dialog.getByLabel('Phone')).toHaveValue(payload.phone);
    await expect(dialog.getByLabel('Additional Information')).toHaveValue(payload.message);
    await expectInert(page, dialogs);
  });

  test('are shown as inert text in the calendar, the list and the appointment details', async ({ page, login }) => {
    const dialogs = await watch(page);
    await login();
    const tag = uniqueTag();
    const { payload, date } = await storePayloads(page, tag);
    await page.goto(`/dashboard/appointments?month=${date.slice(0, 7)}`);
    const entry = page.locator(`td[data-date="${date}"]`).getByRole('button', { name: `9:00 AM - ${payload.full_name}` });
    await expect(entry).toBeVisible();
    await expectInert(page, dialogs);

    await entry.click();
    const details = page.getByRole('dialog', { name: 'Appointment Details' });
    for (const text of [payload.full_name, payload.phone, NOTES]) await expect(details.getByText(text, { exact: true })).toBeVisible();
    await expectInert(page, dialogs);
    await page.keyboard.press('Escape');
    await expect(details).toBeHidden();

    await page.getByRole('button', { name: 'List', exact: true }).click();
    const row = page.locator('tbody tr').filter({ hasText: `Mallory ${tag}` });
    await expect(row.getByText(payload.full_name, { exact: true })).toBeVisible();
    await expect(row.getByText(NOTES, { exact: true })).toBeVisible();
    await expectInert(page, dialogs);
  });

  test('are shown as inert text in the notification bell and the live toast', async ({ page, login }) => {
    const dialogs = await watch(page);
    await login();
    const tag = uniqueTag();
    const { payload } = await storePayloads(page, tag);
    await page.goto('/dashboard');
    const bell = page.getByRole('button', { name: /^Notifications/ });
    await bell.click();
    const panel = page.getByRole('dialog', { name: 'Notifications' });
    await expect(panel.getByText(`New lead: ${payload.full_name} (${payload.email})`)).toBeVisible();
    await expectInert(page, dialogs);

    // A new payload lead from the public form arrives live: in the open bell and as a toast.
    const live = `<script>window.__xss=1</script><img src=x onerror=window.__xss=1> Live ${tag}`;
    const res = await postPublicLead(page.request, {
      full_name: live,
      email: `live.${tag}@example.com`,
      phone: '555-0100',
      property_types: ['land'],
      submission_id: randomUUID(),
    });
    expect(res.status()).toBe(201);
    const message = `New lead: ${live} (live.${tag}@example.com)`;
    await expect(page.getByRole('status').filter({ hasText: 'New Lead' }).getByText(message)).toBeVisible();
    await expect(panel.getByText(message)).toBeVisible();
    await expectInert(page, dialogs);
  });
});

test('pages carry a strict CSP, nosniff, a referrer policy and no framing, and run without violating it', async ({ page }) => {
  const dialogs = await watch(page);
  await page.goto('/');
  await expect(page.locator('html[data-hydrated="true"]')).toHaveCount(1);
  await page.locator('#contact form').getByLabel('Email').fill('not-an-email'); // the shared schema runs in the browser
  await page.locator('#contact form').getByRole('button').click();
  await expect(page.getByText('Invalid email address')).toBeVisible();
  await expectInert(page, dialogs);
  await page.goto('/login');
  await expect(page.getByRole('button', { name: 'Sign in' })).toBeVisible();
  await expectInert(page, dialogs);

  for (const path of ['/', '/login', '/dashboard']) {
    const response = await page.request.get(path);
    const headers = response.headers();
    const csp = new Map(
      headers['content-security-policy']!.split(';')
        .map((d) => d.trim().split(/\s+/))
        .map(([k, ...v]) => [k!, v]),
    );
    expect({ path, scriptSrc: csp.get('script-src') }).toEqual({ path, scriptSrc: ["'self'"] });
    expect({ path, frameAncestors: csp.get('frame-ancestors') }).toEqual({ path, frameAncestors: ["'none'"] });
    expect(headers['content-security-policy']).not.toContain('unsafe-eval');
    expect(headers['x-content-type-options']).toBe('nosniff');
    expect(headers['referrer-policy']).toBe('strict-origin-when-cross-origin');
  }
});
