import { VALID_LEAD, expect, fillLeadForm, openPage, test } from './fixtures.ts';

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

test('a valid submission shows the thank-you toast, offers a time, and "Skip, call me instead" brings back the empty form', async ({ page }) => {
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
  expect(typeof body.fill_ms).toBe('number');

  await expect(page.getByRole('status').filter({ hasText: SUCCESS })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Pick a time for your free call' })).toBeVisible();
  await page.getByRole('button', { name: 'Skip, call me instead' }).click();
  await expect(form.getByLabel('Full name')).toHaveValue('');
  await expect(form.getByLabel('Email')).toHaveValue('');
  await expect(form.getByLabel('Phone')).toHaveValue('');
  await expect(form.getByLabel('Property type')).toHaveValue('');
  await expect(form.getByLabel('Additional information')).toHaveValue('');
  await expect(form.getByRole('button', { name: 'Submit Request' })).toBeEnabled();

  // The toast can be closed.
  await page.getByRole('button', { name: 'Close notification' }).click();
  await expect(page.getByText(SUCCESS)).toHaveCount(0);
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
