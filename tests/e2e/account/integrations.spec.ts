import { expect, test } from '../fixtures.ts';
import { ownServerForFile, signInOn } from '../own-server.ts';
import { seriousViolations } from '../axe.ts';

/*
 * Settings → Integrations → API keys on a server of its own: the owner makes a key with the
 * leads:write scope and sees it once; another program (this test's fetch) creates a lead with
 * it; the list then shows when and from where the key was last used; revoked, it is refused.
 * At 1280 px and on a 390 px phone; axe on the page and the revoke dialog.
 */
const OWNER = { email: `integrations.${Date.now()}@own.test`, password: 'integrations-password-1' };
const ownServer = ownServerForFile({ ADMIN_EMAIL: OWNER.email, ADMIN_PASSWORD: OWNER.password });

for (const width of [1280, 390]) {
  test(`the owner makes an API key, a program uses it, the owner revokes it (${width} px)`, async ({ page }) => {
    const server = ownServer();
    await page.setViewportSize({ width, height: 900 });
    await signInOn(page, server, OWNER);
    const name = `Partner form ${width}`;

    await page.goto(`${server.baseURL}/dashboard/settings/integrations`);
    await expect(page.getByRole('heading', { name: 'API keys' })).toBeVisible();
    await expect(page.getByRole('link', { name: 'Integrations' })).toHaveAttribute('aria-current', 'page');
    expect(await seriousViolations(page)).toEqual([]);

    // Refused without a name or a scope, then made: the key shown once, with a copy button.
    const form = page.getByRole('form', { name: 'New API key' });
    await form.getByRole('button', { name: 'Create key' }).click();
    await expect(form.getByText('Name is required')).toBeVisible();
    await expect(form.getByText('Choose at least one scope')).toBeVisible();
    await form.getByLabel('Key name').fill(name);
    // Mailing leads is a scope of its own, never ticked for the owner.
    await expect(form.getByRole('checkbox', { name: /^email:send/ })).not.toBeChecked();
    await expect(form.getByText('Email the lead when the key schedules, moves or cancels their appointment')).toBeVisible();
    await form.getByRole('checkbox', { name: /leads:write/ }).check();
    await form.getByRole('button', { name: 'Create key' }).click();
    await expect(page.getByRole('status').filter({ hasText: `API key “${name}” created.` })).toBeVisible();
    const shown = page.getByRole('textbox', { name: 'New API key' });
    // The key takes the keyboard focus, ready to copy.
    await expect(shown).toBeFocused();
    const key = await shown.inputValue();
    expect(key).toMatch(/^crm_[A-Za-z0-9_-]{43}$/);
    await expect(page.getByRole('button', { name: 'Copy key' })).toBeVisible();
    expect(await seriousViolations(page)).toEqual([]);
    const row = page.getByTestId('api-key').filter({ hasText: name });
    await expect(row).toContainText('leads:write');
    await expect(row).toContainText(key.slice(0, 12));
    await expect(row).toContainText('never used');
    await page.getByRole('button', { name: 'Done' }).click();
    await expect(shown).toBeHidden();
    await expect(page.getByRole('heading', { name: 'API keys' })).toBeFocused();

    // Another site's form, through its server: a lead made with the key, no cookie, no Origin.
    const email = `api-${width}@example.com`;
    const made = await fetch(`${server.baseURL}/api/leads`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        full_name: `Api Lead ${width}`,
        email,
        phone: '(301) 555-0199',
        property_types: ['multifamily'],
        message: 'Sent from a partner site.',
      }),
    });
    expect(made.status).toBe(201);
    // Reading needs leads:read, which this key does not have.
    expect((await fetch(`${server.baseURL}/api/leads`, { headers: { authorization: `Bearer ${key}` } })).status).toBe(403);

    // The page, opened again, never shows the key, and shows its last use.
    await page.reload();
    await expect(row).toContainText('last used');
    await expect(row).not.toContainText(key);
    await expect(page.getByRole('textbox', { name: 'New API key' })).toHaveCount(0);

    // Revoked after a confirmation: gone from the list, refused from then on.
    await row.getByRole('button', { name: `Revoke the API key ${name}` }).click();
    const dialog = page.getByRole('alertdialog', { name: `Revoke “${name}”?` });
    await expect(dialog).toBeVisible();
    expect(await seriousViolations(page)).toEqual([]);
    await dialog.getByRole('button', { name: 'Revoke key' }).click();
    await expect(page.getByRole('status').filter({ hasText: `API key “${name}” revoked.` })).toBeVisible();
    await expect(row).toHaveCount(0);
    const refused = await fetch(`${server.baseURL}/api/leads`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: '{}',
    });
    expect(refused.status).toBe(401);
  });
}
