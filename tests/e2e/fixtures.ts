import { randomInt } from 'node:crypto';
import { test as base, expect, type APIRequestContext, type Page } from '@playwright/test';

/**
 * Every test gets its own client IP (sent as X-Forwarded-For; the e2e server runs with
 * TRUST_PROXY=1), so the per-IP lead rate limit of one test never affects another. Set on the
 * context, so `page.request` (the context's API client) sends it too, not only the page.
 */
export const test = base.extend<{ clientIp: string }>({
  clientIp: [
    async ({ context }, use) => {
      const ip = `10.${randomInt(256)}.${randomInt(256)}.${randomInt(1, 255)}`;
      await context.setExtraHTTPHeaders({ 'x-forwarded-for': ip });
      await use(ip);
    },
    { auto: true },
  ],
});

export { expect };

/**
 * The Origin header of the site's own pages, for the admin API requests a spec makes through
 * page.request: Playwright's API client sends none, and the server refuses a change without it.
 */
export const fromTheSite = () => ({ origin: new URL(base.info().project.use.baseURL!).origin });

/** Opens a public page and waits until the browser bundle has hydrated it. */
export async function openPage(page: Page, path: string) {
  const response = await page.goto(path);
  await expect(page.locator('html[data-hydrated="true"]')).toHaveCount(1);
  return response;
}

export const SITE_NAME = 'Keystone Due Diligence';

/** The admin the e2e server is started with (playwright.config.ts): the product shows them by name. */
export const E2E_ADMIN = { email: 'e2e-admin@example.com', password: 'e2e-admin-password', name: 'Erin Admin' };

/** Signs in as E2E_ADMIN from the login page and waits for the Overview. */
export async function signInAsAdmin(page: Page) {
  await page.goto('/login');
  await page.getByLabel('Email').fill(E2E_ADMIN.email);
  await page.getByLabel('Password').fill(E2E_ADMIN.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
}

export type LeadInput = { name: string; email: string; phone: string; propertyType: string; message?: string };

export const VALID_LEAD: LeadInput = {
  name: 'Jordan Investor',
  email: 'jordan@example.com',
  phone: '(240) 555-0199',
  propertyType: 'Multifamily',
  message: '12-unit building in Frederick, MD.',
};

export async function fillLeadForm(page: Page, lead: LeadInput) {
  const form = page.locator('#contact form');
  await form.getByLabel('Full name').fill(lead.name);
  await form.getByLabel('Email').fill(lead.email);
  await form.getByLabel('Phone').fill(lead.phone);
  await form.getByLabel('Property type').selectOption({ label: lead.propertyType });
  if (lead.message !== undefined) await form.getByLabel('Additional information').fill(lead.message);
}

/**
 * POST /api/public/leads as the page's form does: with a form token from the server, sent once
 * it is as old as the server's minimum (LEAD_MIN_FILL_SECONDS is on in the browser tests), and
 * the empty honeypot. Sooner, or without them, the server drops or refuses it.
 */
export async function postPublicLead(api: APIRequestContext, lead: Record<string, unknown>, headers?: Record<string, string>) {
  const res = await api.get('/api/public/form-token');
  expect(res.status()).toBe(200);
  const { form_token, min_age_seconds } = (await res.json()) as { form_token: string; min_age_seconds: number };
  // A real wait: the token ages on the server's clock (the page's form waits the same way).
  await new Promise((resolve) => setTimeout(resolve, min_age_seconds * 1000 + 200));
  return api.post('/api/public/leads', { data: { website: '', ...lead, form_token }, ...(headers ? { headers } : {}) });
}
