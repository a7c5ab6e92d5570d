import type { APIRequestContext, Browser, Page } from '@playwright/test';
import { expect, test } from '../fixtures.ts';
import { startOwnServer, type OwnServer } from '../own-server.ts';
import { seriousViolations } from '../axe.ts';
import { SLOW } from '../slow.ts';

/*
 * One's own account, on a server of its own (the suite's shared admin keeps its password):
 * sessions listed and signed out, a password change that signs out the other browsers, and a
 * forgotten password reset through the email the suite's mail sink catches.
 */
const MAIL_SINK = `http://127.0.0.1:${process.env.E2E_MAIL_HTTP_PORT}`;
const OWNER = { email: `owner.${Date.now()}@own.test`, password: 'owner-password-1' };

test.describe.configure({ mode: 'serial' });
let server: OwnServer;
test.beforeAll(async () => {
  test.setTimeout(SLOW.serverStart);
  server = await startOwnServer({ ADMIN_EMAIL: OWNER.email, ADMIN_PASSWORD: OWNER.password });
});
test.afterAll(async () => {
  await server?.stop();
});

async function signIn(page: Page, password = OWNER.password) {
  await page.goto(`${server.baseURL}/login`);
  await page.getByLabel('Email').fill(OWNER.email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Dashboard Overview' })).toBeVisible();
}

async function secondBrowser(browser: Browser) {
  const context = await browser.newContext({
    userAgent:
      'Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1',
  });
  const page = await context.newPage();
  await signIn(page);
  return { context, page };
}

for (const width of [1280, 390]) {
  test(`at ${width} px: one's name (by default the email before the @) and phone are changed on the account page, and the team sees them`, async ({
    page,
  }) => {
    await page.setViewportSize({ width, height: 900 });
    await signIn(page);
    await page.goto(`${server.baseURL}/dashboard/account`);
    const card = page.getByRole('region', { name: 'Name and phone' });
    const name = card.getByLabel('Name');
    const phone = card.getByLabel('Phone (optional)');
    if (width === 1280) {
      // ADMIN_EMAIL without ADMIN_NAME: named by the part of the email before the @.
      await expect(name).toHaveValue(OWNER.email.split('@')[0]!);
      await expect(page.getByText(`Signed in as ${OWNER.email.split('@')[0]} (${OWNER.email}), Owner.`)).toBeVisible();
    }

    await name.fill('   ');
    await card.getByRole('button', { name: 'Save name and phone' }).click();
    await expect(name).toHaveAccessibleDescription('Name is required');
    await expect(name).toBeFocused();

    const chosen = `Olive Owner ${width}`;
    await name.fill(` ${chosen} `);
    await phone.fill('(301) 555-0142');
    await card.getByRole('button', { name: 'Save name and phone' }).click();
    await expect(page.getByRole('status').filter({ hasText: 'Your name and phone are saved.' })).toBeVisible();
    await expect(page.getByText(`Signed in as ${chosen} (${OWNER.email}), Owner.`)).toBeVisible();

    // Kept, and shown by name where people are shown: the account menu and the team page (with the email and phone).
    await page.reload();
    await expect(name).toHaveValue(chosen);
    await expect(phone).toHaveValue('(301) 555-0142');
    await page.getByRole('button', { name: `Account: signed in as ${chosen}` }).click();
    await expect(page.getByRole('dialog', { name: 'Account' })).toContainText(`${chosen}${OWNER.email}`);
    await page.keyboard.press('Escape');
    await page.goto(`${server.baseURL}/dashboard/settings/team`);
    await expect(page.getByTestId('team-member').filter({ hasText: OWNER.email })).toContainText(
      `${chosen}You${OWNER.email} · (301) 555-0142`,
    );
    expect(await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).toBeLessThanOrEqual(0);
    // Signed out, so the sessions test below counts only its own.
    expect((await page.request.post(`${server.baseURL}/api/auth/logout`, { headers: { origin: server.baseURL } })).status()).toBe(200);
  });
}

test('sessions are listed and signed out one by one; a new password signs out every other browser', async ({ page, browser }) => {
  await signIn(page);
  const phone = await secondBrowser(browser);

  await page.goto(`${server.baseURL}/dashboard/account`);
  await expect(page.getByRole('heading', { level: 1, name: 'Your account' })).toBeVisible();
  const sessions = page.getByTestId('account-session');
  await expect(sessions).toHaveCount(2);
  await expect(sessions.first()).toContainText('This device');
  await expect(sessions.nth(1)).toContainText('Safari on iPhone');
  await sessions
    .nth(1)
    .getByRole('button', { name: /^Sign out Safari on iPhone/ })
    .click();
  await expect(sessions).toHaveCount(1);
  await phone.page.reload();
  await expect(phone.page).toHaveURL(/\/login$/);

  // Signed in again there, then the password changes here: there is signed out.
  await signIn(phone.page);
  await page.reload();
  await expect(sessions).toHaveCount(2);
  const password = page.getByRole('region', { name: 'Password' });
  await password.getByLabel('Current password').fill('not-my-password');
  await password.getByLabel('New password', { exact: true }).fill('owner-password-2');
  await password.getByLabel('Confirm new password').fill('owner-password-2');
  await password.getByRole('button', { name: 'Change password' }).click();
  await expect(password.getByLabel('Current password')).toHaveAccessibleDescription('Current password is incorrect');
  await password.getByLabel('Current password').fill(OWNER.password);
  await password.getByRole('button', { name: 'Change password' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Your password is changed. 1 other session was signed out.' })).toBeVisible();
  await expect(sessions).toHaveCount(1);
  await phone.page.reload();
  await expect(phone.page).toHaveURL(/\/login$/);
  await phone.context.close();
  OWNER.password = 'owner-password-2';
});

/** The mail sink's messages to `email`. */
async function mailTo(request: APIRequestContext, email: string) {
  const all = (await (await request.get(`${MAIL_SINK}/messages`)).json()) as {
    envelope: { to: string[] };
    subject: string;
    text: string;
  }[];
  return all.filter((m) => m.envelope.to.includes(email));
}

async function resetLinkFor(request: APIRequestContext, email: string): Promise<string> {
  let link: string | undefined;
  await expect
    .poll(
      async () => {
        const mail = (await mailTo(request, email)).filter((m) => m.subject.startsWith('Choose a new password')).at(-1);
        link = mail ? /(http:\/\/\S+\/reset-password\/[A-Za-z0-9_-]+)/.exec(mail.text)?.[1] : undefined;
        return link;
      },
      { timeout: SLOW.mail },
    )
    .toBeTruthy();
  return link!;
}

test('forgot password: the emailed link sets a new one, which signs in; the old one no longer does', async ({ page, request }) => {
  await page.goto(`${server.baseURL}/login`);
  await page.getByRole('link', { name: 'Forgot your password?' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Forgot your password?' })).toBeVisible();
  await page.getByLabel('Email').fill(OWNER.email);
  await page.getByRole('button', { name: 'Send reset link' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'If an account uses that address' })).toBeVisible();

  const link = await resetLinkFor(request, OWNER.email);
  expect(link.startsWith(`${server.baseURL}/reset-password/`)).toBe(true);
  await page.goto(link);
  await expect(page.getByLabel('Email')).toHaveValue(OWNER.email);
  await page.getByLabel('Password', { exact: true }).fill('owner-password-3');
  await page.getByLabel('Confirm password').fill('owner-password-3');
  await page.getByRole('button', { name: 'Save new password' }).click();
  await expect(page).toHaveURL(/\/login$/);
  await expect(page.getByRole('status').filter({ hasText: 'Your password is changed. Sign in with it.' })).toBeVisible();

  // The old password is refused, the new one works, and the link is used up.
  await page.getByLabel('Email').fill(OWNER.email);
  await page.getByLabel('Password').fill(OWNER.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByText('Invalid credentials')).toBeVisible();
  await signIn(page, 'owner-password-3');
  OWNER.password = 'owner-password-3';
  const used = await page.context().browser()!.newContext();
  const other = await used.newPage();
  await other.goto(link);
  await expect(other.getByRole('alert')).toContainText('This reset link is not valid any more');
  await used.close();
});

test('a password change names the API keys it leaves working, in the page and the email; one click revokes them', async ({
  page,
  request,
}) => {
  for (const width of [1280, 360]) {
    await page.setViewportSize({ width, height: 800 });
    await signIn(page);
    const name = `Partner form ${width}`;
    const made = await page.request.post(`${server.baseURL}/api/api-keys`, {
      data: { name, scopes: ['leads:read'] },
      headers: { origin: server.baseURL },
    });
    const { key } = (await made.json()) as { key: string };
    await page.goto(`${server.baseURL}/dashboard/account`);
    const password = page.getByRole('region', { name: 'Password' });
    const next = `owner-password-${width}`;
    await password.getByLabel('Current password').fill(OWNER.password);
    await password.getByLabel('New password', { exact: true }).fill(next);
    await password.getByLabel('Confirm new password').fill(next);
    await password.getByRole('button', { name: 'Change password' }).click();
    OWNER.password = next;
    const note = password.getByRole('note', { name: 'Your API key still works' });
    await expect(note).toContainText(name);
    await expect(note).toContainText(key.slice(0, 12));
    expect(await seriousViolations(page)).toEqual([]);
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
    const works = async () => (await request.get(`${server.baseURL}/api/leads`, { headers: { authorization: `Bearer ${key}` } })).status();
    expect(await works()).toBe(200);

    // The security mail names it too, with the page that revokes it.
    await expect
      .poll(async () => (await mailTo(request, OWNER.email)).some((m) => m.subject.endsWith('CRM was changed') && m.text.includes(name)), {
        timeout: SLOW.mail,
      })
      .toBe(true);

    await note.getByRole('button', { name: 'Revoke it' }).click();
    await expect(page.getByRole('status').filter({ hasText: 'Your API key is revoked.' })).toBeVisible();
    await expect(note).toBeHidden();
    expect(await works()).toBe(401);
    await page.context().clearCookies();
  }
});
