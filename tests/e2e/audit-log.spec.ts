import { E2E_ADMIN, expect, fromTheSite, signInAsAdmin, test } from './fixtures.ts';

/*
 * The audit log as an owner reads it: a lead created, edited and deleted shows up with who
 * and the fields changed; filters live in the URL; the CSV has the same entries; sign-ins are
 * there too.
 */
test('a lead created, edited and deleted is in the audit log with the changed fields, filterable and exportable', async ({ page }) => {
  await signInAsAdmin(page);
  const email = `audited.${Date.now()}@example.com`;
  const created = await page.request.post('/api/leads', {
    data: { full_name: 'Audited Person', email, phone: '301 555 0100', property_types: ['land'] },
    headers: fromTheSite(),
  });
  expect(created.status()).toBe(201);
  const { id } = (await created.json()) as { id: string };

  await page.goto(`/dashboard/leads/${id}`);
  await page.getByRole('combobox', { name: 'Status' }).selectOption('Contacted');
  await expect(page.getByRole('list', { name: 'Timeline, newest first' }).locator('li').first()).toContainText('Status changed from New to Contacted');

  await page.goto('/dashboard/settings/audit?action=lead_updated');
  await expect(page.getByRole('heading', { level: 2, name: 'Audit log' })).toBeVisible();
  const entry = page.getByTestId('audit-entry').filter({ hasText: 'Audited Person' }).first();
  await expect(entry).toContainText(`${E2E_ADMIN.email} · Updated a lead · Audited Person`);
  await expect(entry).toContainText('status: New → Contacted');
  await entry.getByRole('link', { name: 'Audited Person' }).click();
  await expect(page).toHaveURL(new RegExp(`/dashboard/leads/${id}$`));

  expect((await page.request.delete(`/api/leads/${id}`, { headers: fromTheSite() })).status()).toBe(200);
  await page.goto('/dashboard/settings/audit');
  await page.getByLabel('Action').selectOption({ label: 'Deleted a lead' });
  await expect(page).toHaveURL(/action=lead_deleted/);
  await expect(page.getByTestId('audit-entry').first()).toContainText('Deleted a lead');

  // Sign-ins are recorded too, with the browser's address.
  await page.getByLabel('Action').selectOption({ label: 'Signed in' });
  await expect(page.getByTestId('audit-entry').first()).toContainText(`${E2E_ADMIN.email} · Signed in`);

  const csv = await page.request.get('/api/audit/export?action=lead_updated');
  expect(csv.headers()['content-type']).toContain('text/csv');
  const text = await csv.text();
  expect(text.split('\r\n')[0]).toBe('"When (UTC)","Who","Action","Target","Target id","Details","IP","User agent"');
  expect(text).toContain(`"${E2E_ADMIN.email}","Updated a lead","lead","${id}"`);
});
