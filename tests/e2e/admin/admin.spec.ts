import type { Page } from '@playwright/test';
import { test, expect, onQuietServer, postPublicLead, signInThroughTheForm } from '../fixtures.ts';
import { SLOW } from '../slow.ts';

/** A new lead from the form, with an email of its own (a known email joins its lead as an inquiry); returns the email. */
async function submitLead(page: Page, name: string) {
  const email = `live.${crypto.randomUUID().slice(0, 8)}@example.com`;
  const res = await postPublicLead(page.request, {
    full_name: name,
    email,
    phone: '555-0100',
    property_types: ['land'],
    submission_id: crypto.randomUUID(),
  });
  expect(res.status()).toBe(201);
  return email;
}

test.describe('admin sign-in', () => {
  test('shows the login page with its texts and each validation message', async ({ page }) => {
    await page.goto('/login');
    await expect(page.getByRole('heading', { level: 1, name: 'Admin Login' })).toBeVisible();
    await expect(page.getByText('Sign in to access the CRM dashboard')).toBeVisible();
    await expect(page.getByRole('link', { name: 'Return to homepage' })).toHaveAttribute('href', '/');

    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect(page.getByText('Email is required')).toBeVisible();
    await expect(page.getByText('Password is required')).toBeVisible();
    await expect(page.getByLabel('Email')).toHaveAttribute('aria-invalid', 'true');

    await page.getByLabel('Email').fill('not-an-email');
    await page.getByLabel('Password').fill('short');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect(page.getByText('Invalid email address')).toBeVisible();
    await expect(page.getByText('Password must be at least 8 characters')).toBeVisible();
  });

  test('toasts Invalid credentials for a wrong password and stays on /login', async ({ page, newAdmin }) => {
    const admin = await newAdmin();
    await page.goto('/login');
    // A real account with a wrong password.
    await page.getByLabel('Email').fill(admin.email);
    await page.getByLabel('Password').fill('wrong-password');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect(page.getByRole('alert').filter({ hasText: 'Invalid credentials' })).toBeVisible();
    await expect(page).toHaveURL(/\/login$/);
  });

  test('shows the rate-limit message after too many failures', async ({ page }) => {
    await page.goto('/login');
    await page.getByLabel('Email').fill(`locked-${Date.now()}@example.com`);
    await page.getByLabel('Password').fill('wrong-password');
    for (let i = 0; i < 5; i++) {
      await page.getByRole('button', { name: 'Sign in' }).click();
      await expect(page.getByRole('button', { name: 'Sign in' })).toBeEnabled();
    }
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect(
      page
        .getByRole('alert')
        .filter({ hasText: /Too many failed sign-ins for this email from your network\. Please try again in \d+ minutes?\./ }),
    ).toBeVisible();
  });

  test('redirects a signed-out visitor from /dashboard to /login, and back after sign-in', async ({ page, newAdmin }) => {
    const admin = await newAdmin();
    await page.goto('/dashboard/appointments');
    await expect(page).toHaveURL(/\/login$/);
    await page.getByLabel('Email').fill(admin.email);
    await page.getByLabel('Password').fill(admin.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect(page).toHaveURL(/\/dashboard\/appointments$/);
    // A signed-in admin who opens /login goes to the dashboard.
    await page.goto('/login');
    await expect(page).toHaveURL(/\/dashboard$/);
  });

  test('signs out, and signing out in one tab signs out the others', async ({ page, context, newAdmin }) => {
    await signInThroughTheForm(page, await newAdmin());
    await expect(page).toHaveURL(/\/dashboard$/);
    const other = await context.newPage();
    await other.goto('/dashboard/leads');
    await expect(other.getByRole('heading', { level: 1, name: 'Leads' })).toBeVisible();

    await page.getByRole('button', { name: 'Logout' }).click();
    await expect(page).toHaveURL(/\/login$/);
    await expect(other).toHaveURL(/\/login$/);
    await page.goto('/dashboard');
    await expect(page).toHaveURL(/\/login$/);
  });
});

test.describe('dashboard shell', () => {
  test('marks the active link, shows the admin, and sends unknown paths to /dashboard', async ({ page, login }) => {
    const admin = await login();
    await page.goto('/dashboard');
    const nav = page.getByRole('navigation', { name: 'Dashboard' });
    await nav.getByRole('link', { name: 'Analytics' }).click();
    await expect(page).toHaveURL(/\/dashboard\/analytics$/);
    await expect(nav.getByRole('link', { name: 'Analytics' })).toHaveAttribute('aria-current', 'page');
    await expect(nav.getByRole('link', { name: 'Overview' })).not.toHaveAttribute('aria-current', 'page');
    await expect(page.getByText(admin.email)).toBeVisible();
    await page.goto('/dashboard/no/such/page');
    await expect(page).toHaveURL(/\/dashboard$/);
    await expect(page.getByRole('heading', { level: 1, name: 'Dashboard Overview' })).toBeVisible();
  });

  test('on a phone, the sidebar slides in with an overlay and closes on navigation and Escape', async ({ page, login }) => {
    await page.setViewportSize({ width: 360, height: 740 });
    await login();
    await page.goto('/dashboard');
    const toggle = page.getByRole('button', { name: 'Toggle menu' });
    const nav = page.getByRole('navigation', { name: 'Dashboard' });
    await expect(nav.getByRole('link', { name: 'Leads' })).not.toBeInViewport();
    await toggle.click();
    await expect(toggle).toHaveAttribute('aria-expanded', 'true');
    await expect(page.getByTestId('sidebar-overlay')).toBeVisible();
    await expect(nav.getByRole('link', { name: 'Leads' })).toBeInViewport();
    await nav.getByRole('link', { name: 'Leads' }).click();
    await expect(page).toHaveURL(/\/dashboard\/leads$/);
    await expect(toggle).toHaveAttribute('aria-expanded', 'false');
    await toggle.click();
    await page.keyboard.press('Escape');
    await expect(toggle).toHaveAttribute('aria-expanded', 'false');
    await expect(toggle).toBeFocused();
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow).toBeLessThanOrEqual(0);
  });
});

// The bell counts every lead that comes in, whoever made it: on the worker's quiet server, where
// nothing else happens meanwhile, and as an account made for the test (its bell starts empty).
test.describe('notifications', () => {
  onQuietServer();

  test('a new lead arrives live in the open bell with a New Lead toast; read, mark all, clear', async ({ page, login }) => {
    await login();
    await page.goto('/dashboard');
    const bell = page.getByRole('button', { name: /^Notifications/ });
    await bell.click();
    const panel = page.getByRole('dialog', { name: 'Notifications' });
    await expect(panel.getByText('No new notifications')).toBeVisible();

    const name = `Live Lead ${Date.now()}`;
    const email = await submitLead(page, name);
    await expect(panel.getByText(`New lead: ${name} (${email})`)).toBeVisible();
    await expect(page.getByRole('status').filter({ hasText: 'New Lead' })).toBeVisible();
    await expect(bell).toHaveAccessibleName('Notifications, 1 unread');

    // A notification about a lead is a link to its page: clicking marks it read and opens the lead.
    await panel.getByRole('link', { name: new RegExp(name) }).click();
    await expect(page).toHaveURL(/\/dashboard\/leads\/[0-9a-f-]{36}$/);
    await expect(page.getByRole('heading', { level: 1, name })).toBeVisible();
    await expect(bell).toHaveAccessibleName('Notifications');

    await submitLead(page, `${name} 2`);
    await expect(bell).toHaveAccessibleName('Notifications, 1 unread');
    await bell.click();
    await panel.getByRole('button', { name: 'Mark all as read' }).click();
    await expect(bell).toHaveAccessibleName('Notifications');

    await panel.getByRole('button', { name: 'Clear all notifications' }).click();
    const confirm = page.getByRole('alertdialog');
    await expect(confirm).toContainText('Are you sure you want to clear all notifications? This action cannot be undone.');
    await confirm.getByRole('button', { name: 'Clear all' }).click();
    await expect(page.getByRole('status').filter({ hasText: 'All notifications cleared' })).toBeVisible();
    if (!(await panel.isVisible())) await bell.click();
    await expect(panel.getByText('No new notifications')).toBeVisible();
    await expect(panel.getByRole('button', { name: 'Clear all notifications' })).toHaveCount(0);
  });

  test('after losing its connection the bell reconnects by itself and shows what it missed', async ({ page, context, login }) => {
    await login();
    await page.goto('/dashboard');
    const bell = page.getByRole('button', { name: /^Notifications/ });
    await expect(bell).toHaveAccessibleName('Notifications');

    // The browser goes offline: the live stream drops. A lead arrives meanwhile.
    await context.setOffline(true);
    const name = `Missed Lead ${Date.now()}`;
    const email = await submitLead(page, name);
    await context.setOffline(false);

    // EventSource reconnects on its own; the server's `ready` makes the bell refetch.
    await expect(bell).toHaveAccessibleName('Notifications, 1 unread', { timeout: SLOW.reconnect });
    await bell.click();
    await expect(page.getByRole('dialog', { name: 'Notifications' }).getByText(`New lead: ${name} (${email})`)).toBeVisible();
  });
});
