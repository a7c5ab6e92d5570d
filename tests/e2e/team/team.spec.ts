import AxeBuilder from '@axe-core/playwright';
import { expect, fromTheSite, test } from '../fixtures.ts';
import { SLOW } from '../slow.ts';

/*
 * The team runs itself: an invitation accepted, what staff can and cannot reach, and a
 * deactivation that ends a live session. (The first owner, from the link a new server
 * prints, is ../account/first-run.spec.ts: a server of its own.) The owner is the test's own
 * account, and so is everyone it invites.
 */

test('an invitation accepted makes a staff member, who cannot reach owner pages (UI and API), and deactivation ends their live session', async ({
  page,
  browser,
  login,
}) => {
  test.setTimeout(SLOW.longTest);
  const email = `staff.${crypto.randomUUID().slice(0, 8)}@example.com`;
  const owner = await login();
  await page.goto('/dashboard/settings/team');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Role', { exact: true }).selectOption('staff');
  await page.getByRole('button', { name: 'Send invitation' }).click();
  const link = await page.getByLabel('Invitation link').inputValue();
  expect(link).toMatch(/\/invite\/[A-Za-z0-9_-]{43}$/);
  await expect(page.getByTestId('team-invite').filter({ hasText: email })).toContainText('Staff');

  // The invited person, in a browser of their own.
  const theirs = await browser.newContext();
  const staff = await theirs.newPage();
  await staff.goto(link);
  await expect(staff.getByText('You are invited as Staff.')).toBeVisible();
  await expect(staff.getByLabel('Email')).toHaveValue(email);
  const name = `Sam Staff ${email.slice(6, 14)}`;
  await staff.getByLabel('Your name').fill(name);
  await staff.getByLabel('Password', { exact: true }).fill('staff-password-1');
  await staff.getByLabel('Confirm password').fill('staff-password-1');
  await staff.getByRole('button', { name: 'Create account' }).click();
  await expect(staff.getByRole('heading', { level: 1, name: 'Dashboard Overview' })).toBeVisible();
  // Their account page greets them by the name they gave.
  await staff.goto('/dashboard/account');
  await expect(staff.getByText(`Signed in as ${name} (${email}), Staff.`)).toBeVisible();

  // Staff: no Settings in the menu, the page says why, and the API answers 403.
  await expect(staff.getByRole('navigation', { name: 'Dashboard' }).getByRole('link', { name: 'Settings' })).toHaveCount(0);
  await staff.goto('/dashboard/settings/team');
  await expect(staff.getByText('Only an owner can open this page.')).toBeVisible();
  for (const path of ['/api/team', '/api/email', '/api/booking-settings']) {
    expect((await staff.request.get(path)).status(), path).toBe(403);
  }
  expect(
    (await staff.request.post('/api/team/invites', { data: { email: 'x@example.com', role: 'owner' }, headers: fromTheSite() })).status(),
  ).toBe(403);
  // Staff can do what the spec gives an admin.
  await staff.goto('/dashboard/leads');
  await expect(staff.getByRole('heading', { level: 1, name: 'Leads', exact: true })).toBeVisible();

  // The owner deactivates them: their open page is signed out within seconds.
  await page.reload();
  await expect(page.getByTestId('team-member').filter({ hasText: email })).toContainText(name);
  await page.getByRole('button', { name: `Deactivate ${email}` }).click();
  await page.getByRole('alertdialog', { name: 'Deactivate this account?' }).getByRole('button', { name: 'Deactivate' }).click();
  await expect(page.getByTestId('team-member').filter({ hasText: email })).toContainText('Deactivated');
  await expect(staff).toHaveURL(/\/login$/);
  // And cannot sign in again.
  await staff.getByLabel('Email').fill(email);
  await staff.getByLabel('Password').fill('staff-password-1');
  await staff.getByRole('button', { name: 'Sign in' }).click();
  await expect(staff.getByText(/This account has been deactivated/)).toBeVisible();
  await theirs.close();

  // Reactivated, they can; removed, they are gone from the list.
  await page.getByRole('button', { name: `Reactivate ${email}` }).click();
  await expect(page.getByTestId('team-member').filter({ hasText: email })).not.toContainText('Deactivated');
  await page.getByRole('button', { name: `Remove ${email}` }).click();
  await page.getByRole('alertdialog', { name: 'Remove this account?' }).getByRole('button', { name: 'Remove' }).click();
  await expect(page.getByTestId('team-member').filter({ hasText: email })).toHaveCount(0);

  // The audit log tells it all, by name: the invitation, its acceptance (by the person, named as
  // they gave it, though their account is gone now), the deactivation and the removal.
  await page.goto('/dashboard/settings/audit?action=invite_sent');
  await expect(page.getByTestId('audit-entry').filter({ hasText: email }).first()).toContainText(`${owner.name} · Invited · ${email}`);
  await page.goto('/dashboard/settings/audit?action=invite_accepted');
  await expect(page.getByTestId('audit-entry').filter({ hasText: name }).first()).toContainText(`${name} · Accepted an invitation`);
  for (const [action, label] of [
    ['account_deactivated', 'Deactivated an account'],
    ['account_removed', 'Removed an account'],
  ] as const) {
    await page.goto(`/dashboard/settings/audit?action=${action}`);
    await expect(page.getByTestId('audit-entry').filter({ hasText: email }).first()).toContainText(
      `${owner.name} · ${label} · ${name} (${email})`,
    );
  }
});

for (const width of [1280, 390]) {
  test(`at ${width} px the team page names everyone, with their email, fits the screen and passes axe`, async ({ page, login }) => {
    await page.setViewportSize({ width, height: 900 });
    const admin = await login();
    await page.goto('/dashboard/settings/team');
    const me = page.getByTestId('team-member').filter({ hasText: admin.email });
    await expect(me).toContainText(`${admin.name}You${admin.email}`);
    expect(await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).toBeLessThanOrEqual(0);
    const axe = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice']).analyze();
    expect(axe.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => v.id)).toEqual([]);
  });
}
