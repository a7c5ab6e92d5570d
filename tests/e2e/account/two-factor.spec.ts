import { generate } from 'otplib';
import type { Page } from '@playwright/test';
import { expect, test } from '../fixtures.ts';
import { startOwnServer, type OwnServer } from '../own-server.ts';
import { SLOW } from '../slow.ts';

/*
 * Two-factor end to end, on a server of its own (the suite's shared admin keeps no second
 * factor): set up with the key an authenticator app would read, sign in with a code, a
 * replayed code refused, a recovery code, a remembered device, and an owner requiring it of
 * everyone, which sends a new colleague to set it up before anything else.
 */
const OWNER = { email: 'owner@two-factor.test', password: 'owner-password-1' };
/** The owner's recovery codes, from the first test. */
let ownerCodes: string[] = [];

test.describe.configure({ mode: 'serial' });
let server: OwnServer;
test.beforeAll(async () => {
  test.setTimeout(SLOW.serverStart);
  server = await startOwnServer({ ADMIN_EMAIL: OWNER.email, ADMIN_PASSWORD: OWNER.password });
});
test.afterAll(async () => {
  await server?.stop();
});

/** The code an authenticator app shows `offset` seconds from now. */
const codeAt = (secret: string, offset = 0) => generate({ secret, epoch: Math.floor(Date.now() / 1000) + offset });

async function password(page: Page, email = OWNER.email, pass = OWNER.password) {
  await page.goto(`${server.baseURL}/login`);
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(pass);
  await page.getByRole('button', { name: 'Sign in' }).click();
}

async function signOut(page: Page) {
  await page.getByRole('button', { name: 'Logout' }).click();
  await expect(page).toHaveURL(/\/login$/);
}

/** Signed in: the dashboard (on the page asked for before signing out); the account button names the owner (by default, the email before the @). */
const overview = (page: Page) =>
  expect(page.getByRole('button', { name: `Account: signed in as ${OWNER.email.split('@')[0]}` })).toBeVisible();

/** Sets up two-factor on the account page; the key and the recovery codes. */
async function setUp(page: Page): Promise<{ secret: string; codes: string[] }> {
  const section = page.getByRole('region', { name: 'Two-factor authentication' });
  await section.getByRole('button', { name: 'Set up two-factor' }).click();
  await expect(section.getByRole('img', { name: 'QR code to scan with your authenticator app' })).toBeVisible();
  const secret = (await section.getByTestId('two-factor-secret').textContent())!.trim();
  await section.getByLabel('Code from the app').fill('000000');
  await section.getByRole('button', { name: 'Turn on' }).click();
  await expect(section.getByLabel('Code from the app')).toHaveAccessibleDescription(/That code is not right/);
  await section.getByLabel('Code from the app').fill(await codeAt(secret));
  await section.getByRole('button', { name: 'Turn on' }).click();
  const listed = section.getByTestId('recovery-codes').getByRole('listitem');
  await expect(listed).toHaveCount(10);
  const codes = (await listed.allTextContents()).map((c) => c.trim());
  await section.getByRole('button', { name: 'I saved them' }).click();
  await expect(section).toContainText('Two-factor is on. 10 of 10 recovery codes left.');
  return { secret, codes };
}

test('set up, then sign in with a code; the same code is refused again; a recovery code works once; a remembered device skips the code', async ({
  page,
}) => {
  await password(page);
  await overview(page);
  await page.goto(`${server.baseURL}/dashboard/account`);
  const { secret, codes } = await setUp(page);
  ownerCodes = codes;
  await signOut(page);

  // The next step's code (the set-up used this one).
  const code = await codeAt(secret, 30);
  await password(page);
  await expect(page.getByRole('heading', { level: 1, name: 'Two-factor authentication' })).toBeVisible();
  await page.getByLabel('Code', { exact: true }).fill(code);
  await page.getByRole('button', { name: 'Verify' }).click();
  await overview(page);
  await signOut(page);

  await password(page);
  await page.getByLabel('Code', { exact: true }).fill(code);
  await page.getByRole('button', { name: 'Verify' }).click();
  await expect(page.getByLabel('Code', { exact: true })).toHaveAccessibleDescription(/That code is not right/);

  await page.getByRole('button', { name: 'Use a recovery code' }).click();
  await page.getByLabel('Recovery code').fill(codes[0]!);
  await page.getByLabel('Remember this device for 30 days').check();
  await page.getByRole('button', { name: 'Verify' }).click();
  await overview(page);
  await signOut(page);

  // Remembered: the password is enough here.
  await password(page);
  await overview(page);
  await signOut(page);

  // Elsewhere the used recovery code is refused.
  const elsewhere = await page.context().browser()!.newContext();
  const other = await elsewhere.newPage();
  await password(other);
  await other.getByRole('button', { name: 'Use a recovery code' }).click();
  await other.getByLabel('Recovery code').fill(codes[0]!);
  await other.getByRole('button', { name: 'Verify' }).click();
  await expect(other.getByLabel('Recovery code')).toHaveAccessibleDescription(/That code is not right/);
  await elsewhere.close();
});

test('an owner requires two-factor: a new colleague is sent to set it up before anything else', async ({ page, browser }) => {
  // A new browser: the code is asked for again (a recovery code here, the app's codes were used above).
  await password(page);
  await page.getByRole('button', { name: 'Use a recovery code' }).click();
  await page.getByLabel('Recovery code').fill(ownerCodes[1]!);
  await page.getByRole('button', { name: 'Verify' }).click();
  await overview(page);
  await page.goto(`${server.baseURL}/dashboard/settings/security`);
  await page.getByRole('switch', { name: /Require two-factor authentication for everyone/ }).check();
  await expect(page.getByRole('status').filter({ hasText: 'Two-factor is now required for everyone.' })).toBeVisible();

  await page.goto(`${server.baseURL}/dashboard/settings/team`);
  await page.getByLabel('Email', { exact: true }).fill('sam@two-factor.test');
  await page.getByRole('button', { name: 'Send invitation' }).click();
  const link = await page.getByLabel('Invitation link').inputValue();

  const theirs = await browser.newContext();
  const sam = await theirs.newPage();
  await sam.goto(link);
  await sam.getByLabel('Your name').fill('Sam Staff');
  await sam.getByLabel('Password', { exact: true }).fill('sam-password-1');
  await sam.getByLabel('Confirm password').fill('sam-password-1');
  await sam.getByRole('button', { name: 'Create account' }).click();
  await expect(sam).toHaveURL(/\/dashboard\/account#two-factor$/);
  await expect(sam.getByRole('alert').filter({ hasText: 'Your team requires two-factor authentication' })).toBeVisible();
  await sam.goto(`${server.baseURL}/dashboard/leads`);
  await expect(sam).toHaveURL(/\/dashboard\/account#two-factor$/);
  expect((await sam.request.get(`${server.baseURL}/api/leads`)).status()).toBe(403);

  await setUp(sam);
  await sam.goto(`${server.baseURL}/dashboard/leads`);
  await expect(sam.getByRole('heading', { level: 1, name: 'Leads', exact: true })).toBeVisible();
  await theirs.close();

  // The audit log has all of it.
  const expected: [string, string][] = [
    ['two_factor_enabled', 'Turned on two-factor'],
    ['two_factor_failed', 'Wrong two-factor code'],
    ['recovery_code_used', 'Used a recovery code'],
    ['settings_changed', 'Changed settings'],
  ];
  for (const [action, label] of expected) {
    await page.goto(`${server.baseURL}/dashboard/settings/audit?action=${action}`);
    await expect(page.getByTestId('audit-entry').first()).toContainText(label);
  }
  await expect(page.getByTestId('audit-entry').first()).toContainText('require two factor: false → true');
});
