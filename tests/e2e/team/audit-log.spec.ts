import { deviceName } from '../../../src/shared/device-name.ts';
import { createLead, expect, fromTheSite, signInThroughTheForm, test, uniqueTag } from '../fixtures.ts';

/*
 * The audit log as an owner reads it: a lead created, edited and deleted shows up with who
 * (by name) and the fields changed; filters live in the URL; the CSV has the same entries;
 * sign-ins are there too, with the device in words. An import says how many, and an erased
 * person is "[erased]" wherever the log named them. Each test is an owner of its own and reads
 * the log filtered to that person (its Person filter), so every entry there is the test's.
 */
test('a lead created, edited and deleted is in the audit log with the changed fields, filterable and exportable', async ({
  page,
  newAdmin,
}) => {
  // Signed in through the form: the sign-in is one of the entries.
  const admin = await newAdmin();
  await signInThroughTheForm(page, admin);
  await expect(page).toHaveURL(/\/dashboard$/);
  const tag = uniqueTag();
  const person = `Audited Person ${tag}`;
  const { id } = await createLead(page.request, { full_name: person, email: `audited.${tag}@example.com`, phone: '301 555 0100' });

  await page.goto(`/dashboard/leads/${id}`);
  await page.getByRole('combobox', { name: 'Status' }).selectOption('Contacted');
  await expect(page.getByRole('list', { name: 'Timeline, newest first' }).locator('li').first()).toContainText(
    'Status changed from New to Contacted',
  );

  await page.goto(`/dashboard/settings/audit?actor=${admin.id}&action=lead_updated`);
  await expect(page.getByRole('heading', { level: 2, name: 'Audit log' })).toBeVisible();
  const entry = page.getByTestId('audit-entry').filter({ hasText: person }).first();
  await expect(entry).toContainText(`${admin.name} · Updated a lead · ${person}`);
  await expect(entry).toContainText('status: New → Contacted');
  await entry.getByRole('link', { name: person }).click();
  await expect(page).toHaveURL(new RegExp(`/dashboard/leads/${id}$`));

  expect((await page.request.delete(`/api/leads/${id}`, { headers: fromTheSite() })).status()).toBe(200);
  await page.goto(`/dashboard/settings/audit?actor=${admin.id}`);
  await page.getByLabel('Action').selectOption({ label: 'Deleted a lead' });
  await expect(page).toHaveURL(/action=lead_deleted/);
  // Which lead, though it is gone.
  await expect(page.getByTestId('audit-entry').first()).toContainText(`${admin.name} · Deleted a lead · ${person}`);

  // Sign-ins are recorded too, with the browser's address and its device in words (as on the account page).
  await page.getByLabel('Action').selectOption({ label: 'Signed in' });
  const signIn = page.getByTestId('audit-entry').first();
  await expect(signIn).toContainText(`${admin.name} · Signed in`);
  const device = deviceName(await page.evaluate(() => navigator.userAgent));
  expect(device).not.toBe('Unknown device');
  await expect(signIn).toContainText(` · ${device}`);
  await expect(signIn).not.toContainText('Mozilla');

  const csv = await page.request.get(`/api/audit/export?actor=${admin.id}&action=lead_updated`);
  expect(csv.headers()['content-type']).toContain('text/csv');
  const text = await csv.text();
  expect(text.split('\r\n')[0]).toBe(
    '"When (UTC)","Who","Email","Action","Target","Target id","Details","IP","Device","User agent","API key"',
  );
  expect(text).toContain(`"${admin.name}","${admin.email}","Updated a lead","lead","${id}"`);
});

for (const width of [1280, 390]) {
  test(`at ${width} px it reads like English: an import says how many, and an erased person is [erased] in every entry`, async ({
    page,
    login,
  }) => {
    await page.setViewportSize({ width, height: 900 });
    const admin = await login();
    const tag = `${width}-${uniqueTag()}`;
    const rows = [1, 2, 3].map((n) => ({
      full_name: `Imported ${n} ${tag}`,
      email: `imported.${n}.${tag}@example.com`,
      phone: '301 555 0100',
      property_type: 'Land',
    }));
    const imported = await page.request.post('/api/leads/import', {
      data: { rows, duplicates: 'skip', dry_run: false, file_name: `october-${tag}.csv` },
      headers: fromTheSite(),
    });
    expect(imported.status()).toBe(200);

    const name = `Erased Person ${tag}`;
    const { id } = await createLead(page.request, { full_name: name, email: `erased.${tag}@example.com`, phone: '301 555 0101' });
    expect((await page.request.patch(`/api/leads/${id}`, { data: { phone: '301 555 0102' }, headers: fromTheSite() })).status()).toBe(200);

    const log = (filters = '') => page.goto(`/dashboard/settings/audit?actor=${admin.id}${filters}`);
    await log('&action=leads_imported');
    const importEntry = page.getByTestId('audit-entry').filter({ hasText: `october-${tag}.csv` });
    await expect(importEntry).toContainText(`${admin.name} · Imported 3 leads`);

    // Named while the person is in the CRM...
    await log('&action=lead_updated');
    await expect(page.getByTestId('audit-entry').filter({ hasText: name })).toHaveCount(1);

    // ...and "[erased]" everywhere once they are erased: the erasure and the entries before it.
    expect((await page.request.post(`/api/leads/${id}/erase`, { headers: fromTheSite() })).status()).toBe(200);

    await log('&action=lead_erased');
    await expect(page.getByTestId('audit-entry').first()).toContainText(`${admin.name} · Erased a lead · [erased]`);
    await log();
    await expect(page.getByTestId('audit-entry').first()).toBeVisible();
    await expect(page.getByTestId('audit-entry').filter({ hasText: name })).toHaveCount(0);
    await log('&action=lead_updated');
    await expect(page.getByTestId('audit-entry').first()).toContainText(`${admin.name} · Updated a lead · [erased]`);

    // Whole on the screen: nothing scrolls sideways.
    expect(await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).toBeLessThanOrEqual(0);
  });
}
