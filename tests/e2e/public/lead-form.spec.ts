import { randomUUID } from 'node:crypto';
import type { APIRequestContext } from '@playwright/test';
import { VALID_LEAD, expect, fillLeadForm, openPage, test, type Admin, type LoginOptions } from '../fixtures.ts';

const SUCCESS = 'Thank you for your interest! We will contact you shortly.';

test('an empty submission shows every required message under its field', async ({ page }) => {
  await openPage(page, '/');
  const form = page.locator('#contact form');
  await form.getByRole('button', { name: 'Submit Request' }).click();

  const expected: [string, string][] = [
    ['Full name', 'Name is required'],
    ['Email', 'Email is required'],
    ['Phone', 'Phone number is required'],
    ['Property type', 'Property type is required'],
  ];
  for (const [label, message] of expected) {
    const field = form.getByLabel(label);
    await expect(field).toHaveAttribute('aria-invalid', 'true');
    await expect(field).toHaveAccessibleDescription(message);
    await expect(form.getByText(message)).toBeVisible();
  }
  await expect(form.getByLabel('Full name')).toBeFocused();
  await expect(form.getByLabel('Additional information')).not.toHaveAttribute('aria-invalid', 'true');
});

test('an invalid email shows "Invalid email address" and clears once fixed', async ({ page }) => {
  await openPage(page, '/');
  const form = page.locator('#contact form');
  await fillLeadForm(page, { ...VALID_LEAD, email: 'not-an-email' });
  await form.getByRole('button', { name: 'Submit Request' }).click();
  const email = form.getByLabel('Email');
  await expect(email).toHaveAccessibleDescription('Invalid email address');
  await expect(email).toBeFocused();
  await email.fill('jordan@example.com');
  await expect(form.getByText('Invalid email address')).toHaveCount(0);
  await expect(email).not.toHaveAttribute('aria-invalid', 'true');
});

for (const [width, height] of [
  [1280, 800],
  [390, 844],
] as const) {
  test(`at ${width} px a valid submission thanks the visitor in a status line above the time picker, covering nothing, and "Skip, call me instead" brings back the empty form`, async ({
    page,
  }) => {
    await page.setViewportSize({ width, height });
    await openPage(page, '/');
    await fillLeadForm(page, VALID_LEAD);
    const form = page.locator('#contact form');
    const requestPromise = page.waitForRequest('**/api/public/leads');
    await form.getByRole('button', { name: 'Submit Request' }).click();

    const body = (await requestPromise).postDataJSON() as Record<string, unknown>;
    expect(body).toMatchObject({
      full_name: VALID_LEAD.name,
      email: VALID_LEAD.email,
      phone: VALID_LEAD.phone,
      property_types: ['multifamily'],
      website: '',
    });
    expect(body.submission_id).toMatch(/^[0-9a-f-]{36}$/);
    expect(body.form_token).toMatch(/^[A-Za-z0-9_-]{75}$/);
    expect(body).not.toHaveProperty('fill_ms');

    // The thanks, word for word, in the contact section's own status line: not a toast.
    const thanks = page.locator('#contact').getByRole('status').filter({ hasText: SUCCESS });
    await expect(thanks).toHaveText(SUCCESS);
    await expect(page.getByRole('button', { name: 'Close notification' })).toHaveCount(0);
    const heading = page.getByRole('heading', { name: 'Pick a time for your free call' });
    await expect(heading).toBeFocused();
    await expect(thanks).toBeInViewport();
    await expect(heading).toBeInViewport();
    // Above the picker's heading, and nothing (the navigation, a toast) lies over either.
    const [t, h] = [(await thanks.boundingBox())!, (await heading.boundingBox())!];
    expect(t.y + t.height).toBeLessThanOrEqual(h.y);
    for (const target of [thanks, heading]) {
      const uncovered = await target.evaluate((el) => {
        const r = el.getBoundingClientRect();
        return [r.left + 4, r.right - 4].every((x) => el.contains(document.elementFromPoint(x, r.top + r.height / 2)));
      });
      expect(uncovered).toBe(true);
    }

    await page.getByRole('button', { name: 'Skip, call me instead' }).click();
    await expect(form.getByLabel('Full name')).toHaveValue('');
    await expect(form.getByLabel('Email')).toHaveValue('');
    await expect(form.getByLabel('Phone')).toHaveValue('');
    await expect(form.getByLabel('Property type')).toHaveValue('');
    await expect(form.getByLabel('Additional information')).toHaveValue('');
    await expect(form.getByRole('button', { name: 'Submit Request' })).toBeEnabled();
  });
}

/**
 * The leads stored under `email`, as an admin of the test's own sees them (`request` signed in
 * as them; the visitor's page stays a visitor's). The public answer is the same for a bot's.
 */
async function storedLeads(request: APIRequestContext, login: (options: LoginOptions) => Promise<Admin>, email: string) {
  await login({ api: request });
  const res = await request.get(`/api/leads?search=${encodeURIComponent(email)}`);
  return ((await res.json()) as { leads: { full_name: string; email: string }[] }).leads.map((l) => [l.full_name, l.email]);
}

// The server runs with LEAD_MIN_FILL_SECONDS=1 (playwright.config.ts): the time trap is on,
// and a form sent as quickly as a test types is not dropped because the form waits for it.
test('a visitor’s submission is stored: the form fetches its token at first focus and sends it back', async ({ page, request, login }) => {
  const email = `stored.${randomUUID().slice(0, 8)}@example.com`;
  await openPage(page, '/');
  const tokenAnswer = page.waitForResponse('**/api/public/form-token');
  await fillLeadForm(page, { ...VALID_LEAD, email });
  const { form_token } = (await (await tokenAnswer).json()) as { form_token: string };
  const sent = page.waitForRequest('**/api/public/leads');
  await page.locator('#contact form').getByRole('button', { name: 'Submit Request' }).click();
  expect(((await sent).postDataJSON() as Record<string, unknown>).form_token).toBe(form_token);
  await expect(page.getByRole('status').filter({ hasText: SUCCESS })).toBeVisible();
  expect(await storedLeads(request, login, email)).toEqual([[VALID_LEAD.name, email]]);
});

test('a page whose token the server refuses (left open too long) sends again with a fresh token, and the lead is stored', async ({
  page,
  request,
  login,
}) => {
  const email = `refused.${randomUUID().slice(0, 8)}@example.com`;
  // The first token the page gets is not the server's: as if it had expired.
  await page.route(
    '**/api/public/form-token',
    (route) => route.fulfill({ json: { form_token: 'A'.repeat(75), min_age_seconds: 1, max_age_seconds: 86_400 } }),
    { times: 1 },
  );
  await openPage(page, '/');
  await fillLeadForm(page, { ...VALID_LEAD, email });
  const answers: number[] = [];
  page.on('response', (r) => {
    if (r.url().endsWith('/api/public/leads')) answers.push(r.status());
  });
  await page.locator('#contact form').getByRole('button', { name: 'Submit Request' }).click();
  await expect(page.getByRole('status').filter({ hasText: SUCCESS })).toBeVisible();
  expect(answers).toEqual([400, 201]);
  expect(await storedLeads(request, login, email)).toEqual([[VALID_LEAD.name, email]]);
});

test('the sixth submission within the hour shows the rate-limit message', async ({ page }) => {
  await openPage(page, '/');
  const form = page.locator('#contact form');
  for (let i = 1; i <= 5; i++) {
    await fillLeadForm(page, { ...VALID_LEAD, email: `jordan+${i}@example.com` });
    const response = page.waitForResponse('**/api/public/leads');
    await form.getByRole('button', { name: 'Submit Request' }).click();
    expect((await response).status()).toBe(201);
    await page.getByRole('button', { name: 'Skip, call me instead' }).click();
    await expect(form.getByLabel('Full name')).toHaveValue('');
  }
  await fillLeadForm(page, { ...VALID_LEAD, email: 'jordan+6@example.com' });
  await form.getByRole('button', { name: 'Submit Request' }).click();
  const alert = page.getByRole('alert').filter({ hasText: /Too many requests\. Please try again in \d+ minutes?\./ });
  await expect(alert).toBeVisible();
  // The form keeps what was typed, so the visitor can send it later.
  await expect(form.getByLabel('Email')).toHaveValue('jordan+6@example.com');
});

test('a network failure shows the generic error and keeps the values', async ({ page }) => {
  await openPage(page, '/');
  await page.route('**/api/public/leads', (route) => route.abort('connectionreset'));
  await fillLeadForm(page, VALID_LEAD);
  await page.locator('#contact form').getByRole('button', { name: 'Submit Request' }).click();
  await expect(page.getByRole('alert').filter({ hasText: 'Something went wrong. Please try again.' })).toBeVisible();
  await expect(page.getByLabel('Full name')).toHaveValue(VALID_LEAD.name);
});

// The form's code loads only when the form nears the viewport (src/client/public/island-code.ts).
// A visitor who types and presses Submit before it has arrived loses nothing: the page holds the
// submit (the bare HTML form would send itself as a GET, with what was typed in the address), and
// the form, once live, takes the typed values and sends them, once.
test('a form typed into and sent before its code arrived keeps every value and is stored once', async ({ page, request, login }) => {
  const email = `early.${randomUUID().slice(0, 8)}@example.com`;
  await openPage(page, '/');
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  const held: string[] = [];
  await page.route('**/assets/*.js', async (route) => {
    held.push(route.request().url());
    await released;
    await route.continue();
  });
  const island = page.locator('[data-island="lead-form"]');
  await expect(island).not.toHaveAttribute('data-island-live');
  await fillLeadForm(page, { ...VALID_LEAD, email });
  await page.locator('#contact form').getByRole('button', { name: 'Submit Request' }).click();
  expect(held.length, 'the form asked for its code').toBeGreaterThan(0);
  await expect(island).not.toHaveAttribute('data-island-live');
  expect(new URL(page.url()).search).toBe('');

  const sent: string[] = [];
  page.on('request', (r) => {
    if (r.url().endsWith('/api/public/leads')) sent.push(r.postData() ?? '');
  });
  release();
  await expect(page.getByRole('status').filter({ hasText: SUCCESS })).toBeVisible();
  expect(sent).toHaveLength(1);
  expect(JSON.parse(sent[0]!)).toMatchObject({
    full_name: VALID_LEAD.name,
    email,
    phone: VALID_LEAD.phone,
    property_types: ['multifamily'],
    message: VALID_LEAD.message,
  });
  expect(new URL(page.url()).search).toBe('');
  expect(await storedLeads(request, login, email)).toEqual([[VALID_LEAD.name, email]]);
});

test('a form whose code cannot load (offline) says so when sent, keeps what was typed, and sends once the code loads', async ({
  page,
  request,
  login,
}) => {
  const email = `offline.${randomUUID().slice(0, 8)}@example.com`;
  await openPage(page, '/');
  await page.route('**/assets/*.js', (route) => route.abort('internetdisconnected'));
  await fillLeadForm(page, { ...VALID_LEAD, email });
  const form = page.locator('#contact form');
  await form.getByRole('button', { name: 'Submit Request' }).click();
  await expect(page.getByRole('alert').filter({ hasText: 'Something went wrong. Please try again.' })).toBeVisible();
  expect(new URL(page.url()).search).toBe('');
  await expect(form.getByLabel('Email')).toHaveValue(email);

  await page.unroute('**/assets/*.js');
  await form.getByRole('button', { name: 'Submit Request' }).click();
  await expect(page.getByRole('status').filter({ hasText: SUCCESS })).toBeVisible();
  expect(await storedLeads(request, login, email)).toEqual([[VALID_LEAD.name, email]]);
});
