import { readFile } from 'node:fs/promises';
import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { E2E_ADMIN, expect, fromTheSite, test } from './fixtures.ts';

/*
 * The Leads Manager's list: owner and date filters, sorting, selection and bulk actions, export
 * of a selection, the view in the URL, and cards on a phone. Tests share one server, so each
 * makes leads with its own tag and searches for it.
 */

type Lead = { id: string; full_name: string; status: string };

async function login(page: Page, path: string) {
  await page.goto(path);
  await expect(page).toHaveURL(/\/login$/);
  await page.getByLabel('Email').fill(E2E_ADMIN.email);
  await page.getByLabel('Password').fill(E2E_ADMIN.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Leads' })).toBeVisible();
}

const uniqueTag = () => `list${Date.now().toString(36)}${Math.floor(Math.random() * 1e4)}`;

async function addLead(page: Page, full_name: string, fields: Record<string, unknown> = {}): Promise<Lead> {
  const res = await page.request.post('/api/leads', {
    data: { full_name, email: 'lead@example.com', phone: '(301) 555-0100', property_types: ['land'], ...fields },
    headers: fromTheSite(),
  });
  expect(res.status()).toBe(201);
  return (await res.json()) as Lead;
}

/** Today and yesterday on the business clock (the e2e server's BUSINESS_TIME_ZONE is the default, New York). */
function businessDays() {
  const day = (at: Date) => new Intl.DateTimeFormat('en-CA', { timeZone: 'America/New_York', year: 'numeric', month: '2-digit', day: '2-digit' }).format(at);
  return { today: day(new Date()), yesterday: day(new Date(Date.now() - 24 * 3600_000)) };
}

async function seriousViolations(page: Page) {
  const results = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice']).analyze();
  return results.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).join(', ')})`);
}

const rowNames = (page: Page) => page.getByRole('table').locator('tbody th[scope="row"] a').allTextContents();

test.describe('Leads Manager list', () => {
  test('filters Mine and Unassigned, sorts by name, takes a date range, and keeps it all (and the page) on reload', async ({ page }) => {
    test.setTimeout(60_000);
    const tag = uniqueTag();
    await login(page, `/dashboard/leads?search=${tag}`);
    const me = ((await (await page.request.get('/api/auth/session')).json()) as { user: { id: string } }).user;
    const amy = await addLead(page, `Amy ${tag}`);
    await addLead(page, `Zed ${tag}`);
    await addLead(page, `Max ${tag}`);
    expect((await page.request.patch(`/api/leads/${amy.id}`, { data: { owner_id: me.id }, headers: fromTheSite() })).status()).toBe(200);
    await page.reload();
    await expect(page.getByRole('table').getByRole('row')).toHaveCount(4);

    const owner = page.getByRole('combobox', { name: 'Filter by owner' });
    await owner.selectOption({ label: 'Mine' });
    await expect.poll(() => rowNames(page)).toEqual([`Amy ${tag}`]);
    // The owner by name, not by email.
    await expect(page.getByRole('row', { name: new RegExp(`Amy ${tag}`) })).toContainText(E2E_ADMIN.name);
    await owner.selectOption({ label: 'Unassigned' });
    await expect.poll(() => rowNames(page)).toEqual([`Max ${tag}`, `Zed ${tag}`]);
    await owner.selectOption({ label: 'Anyone' });
    await expect.poll(() => rowNames(page)).toEqual([`Max ${tag}`, `Zed ${tag}`, `Amy ${tag}`]);

    await page.getByRole('button', { name: 'Name', exact: true }).click();
    await expect.poll(() => rowNames(page)).toEqual([`Amy ${tag}`, `Max ${tag}`, `Zed ${tag}`]);
    await expect(page.getByRole('columnheader', { name: /^Name/ })).toHaveAttribute('aria-sort', 'ascending');
    await page.getByRole('button', { name: 'Name', exact: true }).click();
    await expect.poll(() => rowNames(page)).toEqual([`Zed ${tag}`, `Max ${tag}`, `Amy ${tag}`]);

    const { today, yesterday } = businessDays();
    await page.getByLabel('From', { exact: true }).fill(yesterday);
    await page.getByLabel('To', { exact: true }).fill(yesterday);
    await expect(page.getByText('No leads found')).toBeVisible();
    await page.getByLabel('To', { exact: true }).fill(today);
    await expect.poll(() => rowNames(page)).toEqual([`Zed ${tag}`, `Max ${tag}`, `Amy ${tag}`]);
    await expect(page).toHaveURL(new RegExp(`\\?search=${tag}&sort=name&dir=desc&created_from=${yesterday}&created_to=${today}$`));

    // A second page: 20 a page.
    for (let i = 0; i < 19; i++) await addLead(page, `Filler ${String(i).padStart(2, '0')} ${tag}`);
    await page.reload();
    await page.getByRole('button', { name: 'Next', exact: true }).click();
    await expect(page.getByText('Page 2 of 2')).toBeVisible();
    await expect.poll(() => rowNames(page)).toEqual([`Filler 00 ${tag}`, `Amy ${tag}`]);

    await page.reload();
    await expect(page.getByText('Page 2 of 2')).toBeVisible();
    await expect.poll(() => rowNames(page)).toEqual([`Filler 00 ${tag}`, `Amy ${tag}`]);
    await expect(page.getByRole('searchbox', { name: 'Search leads' })).toHaveValue(tag);
    await expect(page.getByLabel('From', { exact: true })).toHaveValue(yesterday);
    await expect(page.getByLabel('To', { exact: true })).toHaveValue(today);
    await expect(page.getByRole('columnheader', { name: /^Name/ })).toHaveAttribute('aria-sort', 'descending');

    // Back returns to the first page of the same view.
    await page.goBack();
    await expect(page.getByText('Page 1 of 2')).toBeVisible();
    await expect(page.getByLabel('From', { exact: true })).toHaveValue(yesterday);
  });

  test('selects two rows, changes both statuses at once, and exports just those', async ({ page }) => {
    const tag = uniqueTag();
    await login(page, `/dashboard/leads?search=${tag}&sort=name`);
    for (const name of ['Ann', 'Ben', 'Cy']) await addLead(page, `${name} ${tag}`, { estimated_fee_cents: 250_000, property_address: `1 ${name} St` });
    await page.reload();
    await expect.poll(() => rowNames(page)).toEqual([`Ann ${tag}`, `Ben ${tag}`, `Cy ${tag}`]);

    await page.getByRole('checkbox', { name: `Select Ann ${tag}` }).check();
    await page.getByRole('checkbox', { name: `Select Cy ${tag}` }).check();
    const bar = page.getByRole('region', { name: 'Selected leads' });
    await expect(bar).toContainText('2 leads selected');
    await bar.getByRole('combobox', { name: 'Change status' }).selectOption('Converted');
    await expect(page.getByText('2 leads updated.')).toBeVisible();
    await expect(bar).toBeHidden();
    await expect(page.getByRole('row', { name: new RegExp(`Ann ${tag}`) })).toContainText('Converted');
    await expect(page.getByRole('row', { name: new RegExp(`Cy ${tag}`) })).toContainText('Converted');
    await expect(page.getByRole('row', { name: new RegExp(`Ben ${tag}`) })).toContainText('New');

    await page.getByRole('checkbox', { name: `Select Ben ${tag}` }).check();
    await page.getByRole('checkbox', { name: `Select Cy ${tag}` }).check();
    const downloading = page.waitForEvent('download');
    await bar.getByRole('link', { name: 'Export selected' }).click();
    const csv = await readFile((await (await downloading).path())!, 'utf8');
    const lines = csv.trim().split('\r\n');
    expect(lines[0]).toBe(
      '"Name","Email","Phone","Property Type","Status","Contacted","Date Added","Message","Owner","Property Address","Target Closing Date","Estimated Fee","Next Step"',
    );
    expect(lines.slice(1).map((line) => line.split(',')[0])).toEqual([`"Ben ${tag}"`, `"Cy ${tag}"`]);
    expect(lines[2]).toContain(`"Converted","Yes"`);
    expect(lines[2]).toMatch(/"1 Cy St","","2500.00",""$/);

    expect(await seriousViolations(page)).toEqual([]);
  });

  test('on a 360 px phone: cards, no horizontal scroll, the bulk bar fits, axe clean', async ({ page }) => {
    const tag = uniqueTag();
    await page.setViewportSize({ width: 360, height: 740 });
    await login(page, `/dashboard/leads?search=${tag}`);
    await addLead(page, `Dana Longname-Worthington ${tag}`, { email: 'dana.longname.worthington@an-extremely-long-domain.example' });
    await addLead(page, `Eve ${tag}`);
    await page.reload();
    await expect(page.getByRole('table')).toHaveCount(0);
    const cards = page.getByRole('list', { name: 'Leads' }).getByRole('listitem');
    await expect(cards).toHaveCount(2);
    const dana = cards.filter({ hasText: 'Dana' });
    await expect(dana.getByRole('link', { name: `Dana Longname-Worthington ${tag}` })).toHaveAttribute('href', /^\/dashboard\/leads\/[0-9a-f-]{36}$/);
    await expect(dana.getByText('New', { exact: true })).toBeVisible();
    await expect(dana.getByRole('button', { name: `Edit Dana Longname-Worthington ${tag}` })).toBeVisible();
    await dana.getByRole('checkbox').check();
    await expect(page.getByRole('region', { name: 'Selected leads' })).toContainText('1 lead selected');

    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    expect(await seriousViolations(page)).toEqual([]);

    await page.getByRole('combobox', { name: 'Sort by' }).selectOption({ label: 'Name, Z to A' });
    await expect(page).toHaveURL(/sort=name&dir=desc/);
    await expect(cards.first()).toContainText('Eve');
  });
});
