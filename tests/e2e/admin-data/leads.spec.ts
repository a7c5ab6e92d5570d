import { readFile } from 'node:fs/promises';
import type { Page } from '@playwright/test';
import { createLead, expect, fromTheSite, onQuietServer, test, uniqueTag, type Lead } from '../fixtures.ts';
import { seriousViolations } from '../axe.ts';

// Each test signs in as an account of its own and makes leads with its own tag, and filters by it.

type Overview = { total_leads: number; total_appointments: number; new_leads: number; upcoming_appointments: number; upcoming: unknown[] };

/** A lead of the test's own: `fields` over a unique name and email (defaults of its own). */
const addLead = (page: Page, fields: Partial<Lead> & { full_name: string }) => createLead(page.request, { message: '', ...fields });

const leadsTable = (page: Page) => page.getByRole('table');
const rowOf = (page: Page, name: string) => leadsTable(page).getByRole('row', { name: new RegExp(name) });

test.describe('Leads Manager', () => {
  test('adds a lead: validation messages first, then the toast and the new row', async ({ page, login }) => {
    const tag = uniqueTag();
    await login();
    await page.goto('/dashboard/leads');
    await expect(page.getByRole('heading', { level: 1, name: 'Leads' })).toBeVisible();
    await page.getByRole('button', { name: 'Add Lead' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add Lead' });
    await dialog.getByRole('button', { name: 'Add Lead' }).click();
    await expect(dialog.getByText('Name is required')).toBeVisible();
    await expect(dialog.getByText('Phone number is required')).toBeVisible();
    await expect(dialog.getByText('Property type is required')).toBeVisible();
    await expect(dialog.getByLabel('Full Name')).toHaveAttribute('aria-invalid', 'true');

    await dialog.getByLabel('Full Name').fill(`Ada ${tag}`);
    await dialog.getByLabel('Email').fill('not-an-email');
    await dialog.getByLabel('Phone').fill('(301) 555-0142');
    await dialog.getByLabel('Property Type').selectOption({ label: 'Single family' });
    await dialog.getByLabel('Additional Information').fill('A duplex in Frederick');
    await dialog.getByRole('button', { name: 'Add Lead' }).click();
    await expect(dialog.getByText('Invalid email address')).toBeVisible();

    await dialog.getByLabel('Email').fill(`ada.${tag}@example.com`);
    await dialog.getByRole('button', { name: 'Add Lead' }).click();
    await expect(page.getByRole('status').filter({ hasText: 'Lead added successfully' })).toBeVisible();
    await expect(dialog).toBeHidden();

    await page.getByRole('searchbox', { name: 'Search leads' }).fill(tag);
    const row = rowOf(page, `Ada ${tag}`);
    await expect(row).toBeVisible();
    await expect(row).toContainText(`ada.${tag}@example.com`);
    await expect(row).toContainText('(301) 555-0142');
    await expect(row).toContainText('Single family');
    await expect(row).toContainText('New');

    // The form starts empty again.
    await page.getByRole('button', { name: 'Add Lead' }).click();
    await expect(page.getByRole('dialog', { name: 'Add Lead' }).getByLabel('Full Name')).toHaveValue('');
    await page.keyboard.press('Escape');
    await expect(page.getByRole('button', { name: 'Add Lead' })).toBeFocused();
  });

  test('edits a lead: Contacted moves a New lead to Contacted, Status moves it on, history shows both', async ({ page, login }) => {
    const tag = uniqueTag();
    const admin = await login();
    const lead = await addLead(page, { full_name: `Grace ${tag}`, phone: '555-0001', property_types: ['commercial'] });
    await page.goto(`/dashboard/leads?search=${tag}`);

    await rowOf(page, lead.full_name)
      .getByRole('button', { name: `Edit ${lead.full_name}` })
      .click();
    let dialog = page.getByRole('dialog', { name: 'Edit Lead' });
    await expect(dialog.getByLabel('Full Name')).toHaveValue(lead.full_name);
    await expect(dialog.getByLabel('Property Type')).toHaveValue('commercial');
    await expect(dialog.getByLabel('Status', { exact: true })).toHaveValue('New');
    await dialog.getByLabel('Contacted').selectOption({ label: 'Yes' });
    await dialog.getByRole('button', { name: 'Update Lead' }).click();
    await expect(page.getByRole('status').filter({ hasText: 'Lead updated successfully' })).toBeVisible();
    await expect(dialog).toBeHidden();
    await expect(rowOf(page, lead.full_name)).toContainText('Contacted');

    await rowOf(page, lead.full_name)
      .getByRole('button', { name: `Edit ${lead.full_name}` })
      .click();
    dialog = page.getByRole('dialog', { name: 'Edit Lead' });
    await expect(dialog.getByLabel('Status', { exact: true })).toHaveValue('Contacted');
    await expect(dialog.getByLabel('Contacted')).toHaveValue('yes');
    const history = dialog.getByRole('region', { name: 'Status history' });
    await expect(history.getByRole('listitem').nth(0)).toContainText(`Created as New`);
    await expect(history.getByRole('listitem').nth(1)).toContainText('New → Contacted');
    // Who changed it, by name.
    await expect(history.getByRole('listitem').nth(1)).toContainText(admin.name);

    await dialog.getByLabel('Phone').fill('555-0002');
    await dialog.getByLabel('Status', { exact: true }).selectOption('Converted');
    await dialog.getByRole('button', { name: 'Update Lead' }).click();
    await expect(dialog).toBeHidden();
    const row = rowOf(page, lead.full_name);
    await expect(row).toContainText('Converted');
    await expect(row).toContainText('555-0002');

    const saved = (await (await page.request.get(`/api/leads/${lead.id}`)).json()) as Lead & { status_history: unknown[] };
    expect(saved).toMatchObject({
      full_name: lead.full_name,
      phone: '555-0002',
      status: 'Converted',
      contacted: true,
      property_types: ['commercial'],
    });
    expect(saved.status_history).toHaveLength(3);
  });

  test('deletes a lead only after the confirmation', async ({ page, login }) => {
    const tag = uniqueTag();
    await login();
    const lead = await addLead(page, { full_name: `Delete ${tag}` });
    await page.goto(`/dashboard/leads?search=${tag}`);
    const remove = rowOf(page, lead.full_name).getByRole('button', { name: `Delete ${lead.full_name}` });

    await remove.click();
    const confirm = page.getByRole('alertdialog');
    await expect(confirm).toContainText('Are you sure you want to delete this lead? This action cannot be undone.');
    await confirm.getByRole('button', { name: 'Cancel' }).click();
    await expect(confirm).toBeHidden();
    await expect(remove).toBeFocused();
    await expect(rowOf(page, lead.full_name)).toBeVisible();

    await remove.click();
    await page.getByRole('alertdialog').getByRole('button', { name: 'Delete' }).click();
    await expect(page.getByRole('status').filter({ hasText: 'Lead deleted successfully' })).toBeVisible();
    await expect(page.getByText('No leads found')).toBeVisible();
    expect((await page.request.get(`/api/leads/${lead.id}`)).status()).toBe(404);
  });

  test('search and both filters combine, live in the URL and survive a reload', async ({ page, login }) => {
    const tag = uniqueTag();
    await login();
    await page.goto('/dashboard/leads');
    const landNew = await addLead(page, {
      full_name: `Land New ${tag}`,
      email: `${tag}.one@example.com`,
      phone: '(240) 555-7301',
      property_types: ['land'],
    });
    const landConverted = await addLead(page, { full_name: `Land Won ${tag}`, property_types: ['land'] });
    await page.request.patch(`/api/leads/${landConverted.id}`, { data: { status: 'Converted' }, headers: fromTheSite() });
    await addLead(page, { full_name: `Office New ${tag}`, property_types: ['commercial'] });

    await page.getByRole('searchbox', { name: 'Search leads' }).fill(tag.toUpperCase());
    await expect(page).toHaveURL(new RegExp(`search=${tag.toUpperCase()}`));
    await expect(leadsTable(page).getByRole('row')).toHaveCount(4); // header + 3

    await page.getByRole('combobox', { name: 'Filter by status' }).selectOption('New');
    await page.getByRole('combobox', { name: 'Filter by property type' }).selectOption({ label: 'Land' });
    await expect(page).toHaveURL(new RegExp(`search=${tag.toUpperCase()}&status=New&property_type=land$`));
    await expect(leadsTable(page).getByRole('row')).toHaveCount(2);
    await expect(rowOf(page, landNew.full_name)).toBeVisible();

    await page.reload();
    await expect(page.getByRole('searchbox', { name: 'Search leads' })).toHaveValue(tag.toUpperCase());
    await expect(page.getByRole('combobox', { name: 'Filter by status' })).toHaveValue('New');
    await expect(page.getByRole('combobox', { name: 'Filter by property type' })).toHaveValue('land');
    await expect(leadsTable(page).getByRole('row')).toHaveCount(2);
    await expect(rowOf(page, landNew.full_name)).toBeVisible();

    await page.getByRole('combobox', { name: 'Filter by status' }).selectOption('Converted');
    await expect(leadsTable(page).getByRole('row')).toHaveCount(2);
    await expect(rowOf(page, landConverted.full_name)).toBeVisible();

    // A phone fragment finds the lead too.
    await page.goto('/dashboard/leads?search=555-7301');
    await expect(rowOf(page, landNew.full_name)).toBeVisible();
  });

  test('shows No leads found when nothing matches', async ({ page, login }) => {
    await login();
    await page.goto(`/dashboard/leads?search=nothing-matches-${uniqueTag()}`);
    await expect(page.getByText('No leads found')).toBeVisible();
    await expect(page.getByText('Page 1 of 1')).toBeVisible();
    await expect(page.getByText('0 leads')).toBeVisible();
  });

  test('exports the leads of the current search and filters as CSV', async ({ page, login }) => {
    const tag = uniqueTag();
    await login();
    await addLead(page, { full_name: `Csv ${tag}`, email: `csv.${tag}@example.com`, property_types: ['multifamily'] });
    await addLead(page, { full_name: `=HYPERLINK ${tag}`, property_types: ['multifamily'] });
    await addLead(page, { full_name: `Other type ${tag}`, property_types: ['land'] });
    await page.goto(`/dashboard/leads?search=${tag}&property_type=multifamily`);
    await expect(leadsTable(page).getByRole('row')).toHaveCount(3);

    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('link', { name: 'Export CSV' }).click()]);
    expect(download.suggestedFilename()).toMatch(/^leads-\d{4}-\d{2}-\d{2}\.csv$/);
    const csv = await readFile((await download.path())!, 'utf8');
    const lines = csv.trim().split(/\r\n/);
    expect(lines[0]).toBe(
      '"Name","Email","Phone","Property Type","Status","Contacted","Date Added","Message","Owner","Property Address","Target Closing Date","Estimated Fee","Next Step"',
    );
    expect(lines).toHaveLength(3);
    expect(csv).toContain(`"Csv ${tag}","csv.${tag}@example.com","(301) 555-0100","Multifamily","New","No"`);
    // A cell that a spreadsheet would run as a formula is escaped.
    expect(csv).toContain(`"'=HYPERLINK ${tag}"`);
    expect(csv).not.toContain(`Other type ${tag}`);
  });

  test('axe finds no serious or critical violations on the list and in the Add Lead form with errors', async ({ page, login }) => {
    const tag = uniqueTag();
    await login();
    await addLead(page, { full_name: `Axe ${tag}` });
    await page.goto(`/dashboard/leads?search=${tag}`);
    await expect(rowOf(page, `Axe ${tag}`)).toBeVisible();
    expect(await seriousViolations(page)).toEqual([]);
    await page.getByRole('button', { name: 'Add Lead' }).click();
    await page.getByRole('dialog', { name: 'Add Lead' }).getByRole('button', { name: 'Add Lead' }).click();
    await expect(page.getByText('Name is required')).toBeVisible();
    expect(await seriousViolations(page)).toEqual([]);
  });

  test('on a phone the page does not scroll sideways', async ({ page, login }) => {
    await page.setViewportSize({ width: 360, height: 740 });
    const tag = uniqueTag();
    await login();
    await addLead(page, { full_name: `A rather long lead name ${tag}`, email: `a.very.long.email.address.${tag}@example.com` });
    await page.goto(`/dashboard/leads?search=${tag}`);
    // Cards, not a table, under 640 px.
    await expect(page.getByRole('list', { name: 'Leads' }).getByRole('listitem').filter({ hasText: tag })).toBeAttached();
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow).toBeLessThanOrEqual(0);
  });
});

// The Overview counts every lead and appointment: on the worker's quiet server, where nothing
// else is added while the test counts, so its cards must show exactly the test's two leads more.
test.describe('Dashboard Overview', () => {
  onQuietServer();

  test('shows the four cards, speed to lead, the newest leads and the upcoming appointments', async ({ page, login }) => {
    const tag = uniqueTag();
    await login();
    const before = (await (await page.request.get('/api/overview')).json()) as Overview;
    const older = await addLead(page, { full_name: `Older ${tag}`, email: `older.${tag}@example.com`, property_types: ['single-family'] });
    const newest = await addLead(page, { full_name: `Newest ${tag}`, email: `newest.${tag}@example.com`, property_types: ['other'] });
    await page.request.patch(`/api/leads/${older.id}`, { data: { contacted: true }, headers: fromTheSite() });

    await page.goto('/dashboard');
    await expect(page.getByRole('heading', { level: 1, name: 'Dashboard Overview' })).toBeVisible();
    const count = (n: number) => n.toLocaleString('en-US');
    const card = (label: string, n: number) => page.getByRole('link', { name: new RegExp(`^${label}\\s*${count(n)}$`) });
    // Two leads more, one of them still New; no appointment of the test's.
    await expect(card('Total Leads', before.total_leads + 2)).toHaveAttribute('href', '/dashboard/leads');
    await expect(card('Total Appointments', before.total_appointments)).toHaveAttribute('href', '/dashboard/appointments');
    await expect(card('Upcoming Appointments', before.upcoming_appointments)).toHaveAttribute('href', '/dashboard/appointments');
    await expect(page.getByText('New Leads', { exact: true }).locator('..')).toContainText(count(before.new_leads + 1));
    // The lead marked contacted a moment after it was created: a median of seconds, not "—".
    await expect(page.getByTestId('median-time-to-contact')).toHaveText(/^\d+(s|m|h \d+m|d \d+h)$/);

    // The newest leads, newest first: the test's two on top.
    const recent = page.getByRole('region', { name: 'Recent Leads' });
    const first = recent.getByRole('listitem').nth(0);
    await expect(first).toContainText(newest.full_name);
    await expect(first).toContainText(newest.email);
    await expect(first.getByText('New', { exact: true })).toBeVisible();
    await expect(first).toContainText('Other');
    const second = recent.getByRole('listitem').nth(1);
    await expect(second).toContainText(older.full_name);
    await expect(second.getByText('Contacted', { exact: true })).toBeVisible();
    await expect(second).toContainText('Single family');
    await expect(first).toContainText(new Date().toLocaleDateString('en-US', { month: 'short', day: 'numeric', year: 'numeric' }));

    const upcoming = page.getByRole('region', { name: 'Upcoming Appointments' });
    if (before.upcoming.length === 0) await expect(upcoming).toContainText('No upcoming appointments');
    else await expect(upcoming.getByRole('listitem')).toHaveCount(before.upcoming.length);

    expect(await seriousViolations(page)).toEqual([]);
    await page.getByRole('link', { name: /^Total Leads/ }).click();
    await expect(page).toHaveURL(/\/dashboard\/leads$/);
  });
});
