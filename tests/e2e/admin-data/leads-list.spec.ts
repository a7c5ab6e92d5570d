import { readFile } from 'node:fs/promises';
import type { Page } from '@playwright/test';
import { createLead, expect, fromTheSite, test, uniqueTag, type Admin, type Lead } from '../fixtures.ts';
import { seriousViolations } from '../axe.ts';
import { SLOW } from '../slow.ts';

/*
 * The Leads Manager's list: owner and date filters, sorting, selection and bulk actions, export
 * of a selection, the view in the URL, every column at 1280 px, a search then a click, and cards
 * and folded filters on a phone. Each test signs in as an account of its own, makes leads with
 * its own tag and searches for it.
 */

/** Signs the page in as a new account of the test's own and opens the Leads list at `path`. */
async function openAs(page: Page, login: () => Promise<Admin>, path: string): Promise<Admin> {
  const admin = await login();
  await page.goto(path);
  await expect(page.getByRole('heading', { level: 1, name: 'Leads' })).toBeVisible();
  return admin;
}

/** A lead of the test's own, named `full_name` (its tag in it), with a unique email unless `fields` gives one. */
const addLead = (page: Page, full_name: string, fields: Record<string, unknown> = {}): Promise<Lead> =>
  createLead(page.request, { full_name, ...fields });

/** Today and yesterday on the business clock (the e2e server's BUSINESS_TIME_ZONE is the default, New York). */
function businessDays() {
  const day = (at: Date) =>
    new Intl.DateTimeFormat('en-CA', { timeZone: 'America/New_York', year: 'numeric', month: '2-digit', day: '2-digit' }).format(at);
  return { today: day(new Date()), yesterday: day(new Date(Date.now() - 24 * 3600_000)) };
}

const rowNames = (page: Page) => page.getByRole('table').locator('tbody th[scope="row"] a').allTextContents();

test.describe('Leads Manager list', () => {
  test('filters Mine and Unassigned, sorts by name, takes a date range, and keeps it all (and the page) on reload', async ({
    page,
    login,
  }) => {
    test.setTimeout(SLOW.longTest);
    const tag = uniqueTag();
    const me = await openAs(page, login, `/dashboard/leads?search=${tag}`);
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
    await expect(page.getByRole('row', { name: new RegExp(`Amy ${tag}`) })).toContainText(me.name);
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

  test('selects two rows, changes both statuses at once, and exports just those', async ({ page, login }) => {
    const tag = uniqueTag();
    await openAs(page, login, `/dashboard/leads?search=${tag}&sort=name`);
    for (const name of ['Ann', 'Ben', 'Cy'])
      await addLead(page, `${name} ${tag}`, { estimated_fee_cents: 250_000, property_address: `1 ${name} St` });
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

  test('at 1280 px every column shows without sideways scrolling; a cut value has its whole text on hover and on Tab', async ({
    page,
    login,
  }) => {
    await page.setViewportSize({ width: 1280, height: 800 });
    const tag = uniqueTag();
    const me = await openAs(page, login, `/dashboard/leads?search=${tag}`);
    const name = `Dana Longname-Worthington-Fitzgerald ${tag}`;
    const email = `dana.longname.worthington.${tag}@an-extremely-long-domain.example`;
    const note = 'Call back once the county sends the inspection report and the survey';
    const dana = await addLead(page, name, { email, property_types: ['single-family'] });
    const patched = await page.request.patch(`/api/leads/${dana.id}`, {
      data: { owner_id: me.id, follow_up_on: businessDays().today, follow_up_note: note },
      headers: fromTheSite(),
    });
    expect(patched.status()).toBe(200);
    await page.reload();

    const headers = page.getByRole('table').getByRole('columnheader');
    await expect(headers).toHaveText(['', /^Name/, 'Contact', 'Property Type', 'Owner', /^Status/, /^Next step/, /^Date Added/, 'Actions']);
    for (const header of await headers.all()) await expect(header).toBeInViewport();
    const sideways = await page.evaluate(() => {
      const box = document.querySelector('table')!.parentElement!;
      return {
        page: document.documentElement.scrollWidth - document.documentElement.clientWidth,
        table: box.scrollWidth - box.clientWidth,
      };
    });
    expect(sideways).toEqual({ page: 0, table: 0 });

    const row = page.getByRole('row', { name: new RegExp(tag) });
    await expect(row.getByRole('cell', { name: 'Single family', exact: true })).toBeVisible();
    // Too long for their columns: cut, with the whole value as a title.
    const link = row.getByRole('link', { name, exact: true });
    await expect(link).toHaveAttribute('title', name);
    const emailText = row.getByText(email, { exact: true });
    await expect(emailText).toHaveAttribute('title', email);
    await expect(row.getByText(note, { exact: true })).toHaveAttribute('title', note);
    const cut = (locator: typeof emailText) => locator.evaluate((el) => el.scrollWidth > el.clientWidth);
    expect(await cut(emailText)).toBe(true);

    // The keyboard reaches the cut email right after the name, and focus shows all of it.
    await link.focus();
    await page.keyboard.press('Tab');
    await expect(emailText).toBeFocused();
    expect(await cut(emailText)).toBe(false);
    expect(await seriousViolations(page)).toEqual([]);

    // Narrower, fewer columns (never a sideways scroll): Owner and Next step go first, then Property Type.
    for (const [width, shown] of [
      [1024, ['', /^Name/, 'Contact', 'Property Type', /^Status/, /^Date Added/, 'Actions']],
      [700, ['', /^Name/, 'Contact', /^Status/, /^Date Added/, 'Actions']],
    ] as const) {
      await page.setViewportSize({ width, height: 800 });
      await expect(headers.filter({ visible: true })).toHaveText([...shown]);
      expect(await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).toBe(0);
    }
  });

  for (const width of [1280, 390]) {
    test(`a search typed just before clicking a lead leaves the person on the lead page after the search delay (${width} px)`, async ({
      page,
      login,
    }) => {
      await page.setViewportSize({ width, height: 844 });
      const tag = uniqueTag();
      await openAs(page, login, `/dashboard/leads?search=${tag}`);
      const ivy = await addLead(page, `Ivy ${tag}`);
      await page.reload();
      const link = page.getByRole('link', { name: `Ivy ${tag}`, exact: true });
      await expect(link).toBeVisible();

      // The lead page's code held back, as on a slow network, until the search's pause is over;
      // the page's clock stopped, so that pause ends exactly when the test says.
      let release!: () => void;
      const held = new Promise<void>((resolve) => (release = resolve));
      let asked = false;
      await page.route(/\/assets\/lead-page-[\w-]+\.js$/, async (route) => {
        asked = true;
        await held;
        await route.continue();
      });
      await page.clock.install();
      await page.clock.pauseAt(Date.now() + 1_000);

      await page.getByRole('searchbox', { name: 'Search leads' }).fill(`Ivy ${tag}`);
      await link.click();
      await expect.poll(() => asked).toBe(true);
      await page.clock.runFor(2_000); // the search's pause (300 ms) is long over
      release();
      await page.clock.resume();

      await expect(page.getByRole('heading', { level: 1, name: `Ivy ${tag}` })).toBeVisible();
      await expect(page).toHaveURL(new RegExp(`/dashboard/leads/${ivy.id}$`));
      await page.clock.runFor(2_000);
      await expect(page).toHaveURL(new RegExp(`/dashboard/leads/${ivy.id}$`));
      await expect(page.getByRole('heading', { level: 1, name: `Ivy ${tag}` })).toBeVisible();
    });
  }

  test('on a 390 px phone the filters fold behind one Filters button with their count, and the first lead shows without scrolling', async ({
    page,
    login,
  }) => {
    await page.setViewportSize({ width: 390, height: 844 });
    const tag = uniqueTag();
    await openAs(page, login, `/dashboard/leads?search=${tag}&status=New`);
    await addLead(page, `Finn ${tag}`);
    await addLead(page, `Gus ${tag}`, { property_types: ['commercial'] });
    await page.reload();

    const filters = page.getByRole('button', { name: /^Filters/ });
    await expect(filters).toHaveAttribute('aria-expanded', 'false');
    await expect(filters).toHaveAccessibleName('Filters 1 on');
    const status = page.getByRole('combobox', { name: 'Filter by status' });
    await expect(status).toBeHidden();
    await expect(page.getByRole('searchbox', { name: 'Search leads' })).toBeVisible();
    const cards = page.getByRole('list', { name: 'Leads' }).getByRole('listitem');
    await expect(cards).toHaveCount(2);
    await expect(cards.first()).toBeInViewport({ ratio: 1 });
    expect(await page.evaluate(() => window.scrollY)).toBe(0);
    await expect(cards.filter({ hasText: `Gus ${tag}` })).toContainText('Commercial');

    await filters.click();
    await expect(filters).toHaveAttribute('aria-expanded', 'true');
    await expect(status).toBeVisible();
    await expect(status).toHaveValue('New');
    await expect(page.getByRole('link', { name: 'Export CSV' })).toBeVisible();
    expect(await seriousViolations(page)).toEqual([]);
    await page.getByRole('combobox', { name: 'Filter by property type' }).selectOption({ label: 'Commercial' });
    await expect(filters).toHaveAccessibleName('Filters 2 on');
    await expect(cards).toHaveCount(1);

    await filters.click();
    await expect(filters).toHaveAttribute('aria-expanded', 'false');
    await expect(status).toBeHidden();
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    expect(await seriousViolations(page)).toEqual([]);
  });

  test('on a 360 px phone: cards, no horizontal scroll, the bulk bar fits, axe clean', async ({ page, login }) => {
    const tag = uniqueTag();
    await page.setViewportSize({ width: 360, height: 740 });
    await openAs(page, login, `/dashboard/leads?search=${tag}`);
    await addLead(page, `Dana Longname-Worthington ${tag}`, { email: 'dana.longname.worthington@an-extremely-long-domain.example' });
    await addLead(page, `Eve ${tag}`);
    await page.reload();
    await expect(page.getByRole('table')).toHaveCount(0);
    const cards = page.getByRole('list', { name: 'Leads' }).getByRole('listitem');
    await expect(cards).toHaveCount(2);
    const dana = cards.filter({ hasText: 'Dana' });
    await expect(dana.getByRole('link', { name: `Dana Longname-Worthington ${tag}` })).toHaveAttribute(
      'href',
      /^\/dashboard\/leads\/[0-9a-f-]{36}$/,
    );
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
