import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { Page } from '@playwright/test';
import { createLead, expect, fromTheSite, postPublicLead, test } from '../fixtures.ts';
import { seriousViolations } from '../axe.ts';

/*
 * One person's whole path through the workspace, in a real browser: they write twice (one
 * lead, the second form on its timeline), staff type them in again by hand (a duplicate), the
 * duplicate is merged on the lead page keeping its phone, the person asks for their data
 * (Export everything) and then to be forgotten (Erase). At a desktop and a 360 px phone.
 * Each test is staff of its own (made before the person writes, so the bell has them) and
 * follows only its own person, by their unique email.
 */

async function leadsFound(page: Page, email: string): Promise<{ id: string; phone: string; full_name: string }[]> {
  const res = await page.request.get(`/api/leads?search=${encodeURIComponent(email)}`);
  return ((await res.json()) as { leads: { id: string; phone: string; full_name: string }[] }).leads;
}

for (const [label, viewport] of [
  ['desktop', { width: 1280, height: 900 }],
  ['phone', { width: 360, height: 740 }],
] as const) {
  test(`a person writes twice, is merged with a hand-typed duplicate, exported and erased (${label})`, async ({ page, login }) => {
    await page.setViewportSize(viewport);
    await login();
    const tag = randomUUID().slice(0, 8);
    const person = {
      full_name: `Rosa Journey ${tag}`,
      email: `rosa.${tag}@example.com`,
      phone: '(410) 555-0101',
      property_types: ['commercial'],
    };

    // Twice through the public form: one lead.
    expect(
      (await postPublicLead(page.request, { ...person, message: 'First: a warehouse in Dundalk.', submission_id: randomUUID() })).status(),
    ).toBe(201);
    expect(
      (
        await postPublicLead(page.request, { ...person, message: 'Second: we are under contract now.', submission_id: randomUUID() })
      ).status(),
    ).toBe(201);
    const [lead] = await leadsFound(page, person.email);
    expect(await leadsFound(page, person.email)).toHaveLength(1);

    // Found by search, opened from the list: the first words quoted, the second form on the timeline.
    await page.goto(`/dashboard/leads?search=${encodeURIComponent(person.email)}`);
    await page.getByRole('link', { name: person.full_name }).first().click();
    await expect(page).toHaveURL(new RegExp(`/dashboard/leads/${lead!.id}$`));
    await expect(page.getByRole('heading', { level: 1, name: person.full_name })).toBeVisible();
    await expect(page.locator('blockquote').first()).toContainText('First: a warehouse in Dundalk.');
    const timeline = page.getByRole('region', { name: 'Timeline', exact: true });
    await expect(timeline.getByText('Wrote again')).toBeVisible();
    await expect(timeline.getByText('Second: we are under contract now.')).toBeVisible();

    // Staff type the same person in by hand, with the phone they gave on the call: a duplicate.
    const typed = await page.request.post('/api/leads', {
      data: {
        full_name: person.full_name,
        email: person.email,
        phone: '(410) 555-0199',
        property_types: ['commercial'],
        message: 'Called in.',
      },
      headers: fromTheSite(),
    });
    expect(typed.status()).toBe(201);
    await page.reload();

    // Merge on the lead page, keeping the duplicate's phone.
    await page.getByRole('button', { name: 'Merge', exact: true }).click();
    const dialog = page.getByRole('dialog', { name: 'Merge duplicate leads' });
    await expect(dialog).toBeVisible();
    await dialog.getByRole('radio', { name: /\(410\) 555-0199/ }).check();
    expect(await seriousViolations(page, { bestPractice: false })).toEqual([]);
    await dialog.getByRole('button', { name: 'Merge', exact: true }).click();
    await expect(dialog).toContainText('Merge these leads? This cannot be undone.');
    await dialog.getByRole('button', { name: 'Merge', exact: true }).click();
    await expect(page.getByRole('status').filter({ hasText: 'Leads merged successfully' })).toBeVisible();
    await expect(dialog).toBeHidden();
    await expect
      .poll(async () => (await leadsFound(page, person.email)).map((l) => [l.id, l.phone]))
      .toEqual([[lead!.id, '(410) 555-0199']]);
    await expect(page.getByText('(410) 555-0199').first()).toBeVisible();
    await expect(page.getByRole('button', { name: 'Merge', exact: true })).toHaveCount(0);
    if (label === 'phone')
      expect(await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).toBeLessThanOrEqual(0);

    // Export everything: a JSON file of the person, with both forms and the merge.
    const downloading = page.waitForEvent('download');
    await page.getByRole('link', { name: 'Export everything' }).click();
    const file = await (await downloading).path();
    const exported = JSON.parse(readFileSync(file, 'utf8')) as { lead: { email: string }; events: { kind: string }[] };
    expect(exported.lead.email).toBe(person.email);
    expect(exported.events.map((e) => e.kind).sort()).toEqual(expect.arrayContaining(['inquiry', 'merged']));

    // Erase: gone everywhere, back on the list.
    await page.getByRole('button', { name: 'Erase', exact: true }).click();
    const confirm = page.getByRole('alertdialog');
    await confirm.getByRole('button', { name: 'Erase', exact: true }).click();
    await expect(page.getByRole('status').filter({ hasText: 'Lead erased successfully' })).toBeVisible();
    await expect(page).toHaveURL(/\/dashboard\/leads$/);
    expect(await leadsFound(page, person.email)).toEqual([]);
    // The bell had the person (their first form notified this account); it has them no more.
    const notifications = (await (await page.request.get('/api/notifications')).json()) as { notifications: { message: string }[] };
    expect(notifications.notifications.filter((n) => n.message.includes(person.full_name))).toEqual([]);
  });
}

test('the open list and lead page follow another admin’s changes within a second or two, without a reload', async ({
  page,
  browser,
  baseURL,
  login,
}) => {
  await page.setViewportSize({ width: 1280, height: 900 });
  const tag = randomUUID().slice(0, 8);
  await login();
  const lead = await createLead(page.request, {
    full_name: `Live Watch ${tag}`,
    email: `live.watch.${tag}@example.com`,
    phone: '(410) 555-0142',
  });

  // Another admin, in another browser, changes things while this one looks.
  const other = await browser.newContext({ baseURL });
  const otherPage = await other.newPage();
  await login({ page: otherPage });

  await page.goto(`/dashboard/leads?search=${encodeURIComponent(tag)}`);
  await expect(page.getByRole('link', { name: `Live Watch ${tag}` })).toBeVisible();
  const arrived = await otherPage.request.post('/api/leads', {
    data: { full_name: `Live Arrival ${tag}`, email: `live.arrival.${tag}@example.com`, phone: '(410) 555-0143', property_types: ['land'] },
    headers: fromTheSite(),
  });
  expect(arrived.status()).toBe(201);
  // 3 s, below the default: the claim of the test (live, within a second or two), not a wait.
  await expect(page.getByRole('link', { name: `Live Arrival ${tag}` })).toBeVisible({ timeout: 3_000 });

  await page.goto(`/dashboard/leads/${lead.id}`);
  await expect(page.getByLabel('Status')).toHaveValue('New');
  expect((await otherPage.request.patch(`/api/leads/${lead.id}`, { data: { status: 'Converted' }, headers: fromTheSite() })).status()).toBe(
    200,
  );
  await expect(page.getByLabel('Status')).toHaveValue('Converted', { timeout: 3_000 });
  await expect(
    page
      .getByRole('region', { name: 'Timeline', exact: true })
      .getByText(/Converted/)
      .first(),
  ).toBeVisible({ timeout: 3_000 });
  await other.close();
});
