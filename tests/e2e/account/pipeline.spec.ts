import { expect, test } from '../fixtures.ts';
import { ownServerForFile, signInOn } from '../own-server.ts';
import { seriousViolations } from '../axe.ts';

/*
 * Settings → Pipeline on a server of its own (the suite's shared server keeps the default
 * stages): the owner adds a stage and a lost reason, moves and renames the stage; on a lead's
 * page the Stage menu moves the deal, and a Lost stage asks why; a call is logged; removing the
 * stage moves its lead. At 1280 px and on a 390 px phone; axe on the page and the dialog.
 */
const OWNER = { email: `pipeline.${Date.now()}@own.test`, password: 'pipeline-password-1' };
const ownServer = ownServerForFile({ ADMIN_EMAIL: OWNER.email, ADMIN_PASSWORD: OWNER.password });

for (const width of [1280, 390]) {
  test(`the owner shapes the pipeline and a deal moves through it (${width} px)`, async ({ page }) => {
    const server = ownServer();
    await page.setViewportSize({ width, height: 900 });
    await signInOn(page, server, OWNER);
    const stage = `Site visit ${width}`;
    const reason = `Timing ${width}`;

    await page.goto(`${server.baseURL}/dashboard/settings/pipeline`);
    const contacted = page.getByRole('list', { name: 'Contacted stages' });
    await expect(contacted.getByText('Proposal sent')).toBeVisible();
    // A stage's name reads on one line beside or above its buttons, never a letter a line.
    expect((await contacted.getByText('Proposal sent', { exact: true }).boundingBox())!.height).toBeLessThan(40);
    expect(await seriousViolations(page)).toEqual([]);

    // A new stage: refused without a name, then added at the end of Contacted.
    const add = page.getByRole('form', { name: 'Add a stage' });
    await add.getByRole('button', { name: 'Add stage' }).click();
    await expect(add.getByText('Stage name is required')).toBeVisible();
    await add.getByLabel('Stage name').fill(stage);
    await add.getByLabel('Chance to win (%)').fill('30');
    await add.getByRole('button', { name: 'Add stage' }).click();
    await expect(page.getByRole('status').filter({ hasText: `Stage “${stage}” added` })).toBeVisible();
    await expect(contacted.getByRole('listitem').last()).toContainText(stage);
    await expect(contacted.getByRole('listitem').last()).toContainText('0 leads · 30% chance to win');
    // Up one place, then renamed.
    await contacted.getByRole('button', { name: `Move ${stage} up` }).click();
    await expect(contacted.getByRole('listitem').nth(2)).toContainText(stage);
    await contacted.getByRole('button', { name: `Edit ${stage}` }).click();
    const edit = page.getByRole('dialog', { name: 'Edit stage' });
    await edit.getByLabel('Name').fill(`${stage} done`);
    await edit.getByRole('button', { name: 'Save' }).click();
    await expect(edit).toBeHidden();
    await expect(contacted.getByText(`${stage} done`)).toBeVisible();

    // A lost reason of the firm's own.
    const reasons = page.getByRole('form', { name: 'Add a lost reason' });
    await reasons.getByLabel('New reason').fill(reason);
    await reasons.getByRole('button', { name: 'Add reason' }).click();
    await expect(page.getByRole('list', { name: 'Lost reasons' }).getByText(reason)).toBeVisible();

    // A lead: into the new stage, then lost, saying why.
    const created = await page.request.post(`${server.baseURL}/api/leads`, {
      headers: { origin: server.baseURL },
      data: {
        full_name: `Pia Pipeline ${width}`,
        email: `pia.${width}.${Date.now()}@example.com`,
        phone: '(410) 555-0170',
        property_types: ['land'],
      },
    });
    expect(created.status()).toBe(201);
    const { id } = (await created.json()) as { id: string };
    await page.goto(`${server.baseURL}/dashboard/leads/${id}`);
    const menu = page.getByLabel('Stage');
    await expect(menu).toBeEnabled();
    await menu.selectOption({ label: `${stage} done` });
    await expect(page.getByRole('status').filter({ hasText: `Moved to ${stage} done.` })).toBeVisible();
    await expect(page.getByLabel('Status')).toHaveValue('Contacted');
    await menu.selectOption({ label: 'Lost' });
    const lose = page.getByRole('dialog', { name: `Why was Pia Pipeline ${width}’s deal lost?` });
    await lose.getByRole('button', { name: 'Mark lost' }).click();
    await expect(lose.getByText('Choose why the deal was lost')).toBeVisible();
    expect(await seriousViolations(page, { include: '[role="dialog"]' })).toEqual([]);
    await lose.getByLabel('Reason').selectOption(reason);
    await lose.getByRole('button', { name: 'Mark lost' }).click();
    await expect(lose).toBeHidden();
    await expect(page.getByRole('status').filter({ hasText: `Moved to Lost: ${reason}.` })).toBeVisible();
    await expect(page.locator('header').getByText(`Lost: ${reason}`, { exact: true })).toBeVisible();
    await expect(page.getByLabel('Status')).toHaveValue('Dropped');
    const timeline = page.getByRole('list', { name: 'Timeline, newest first' });
    await expect(timeline.getByText(`Marked lost: ${reason}`)).toBeVisible();

    // A call logged: how it went, its minutes and notes, on the timeline.
    await page.getByRole('button', { name: 'Log call' }).click();
    const call = page.getByRole('dialog', { name: `Log a call with Pia Pipeline ${width}` });
    await call.getByRole('radio', { name: 'Left voicemail' }).check();
    await call.getByLabel('Duration (minutes)').fill('601');
    await call.getByRole('button', { name: 'Log call' }).click();
    await expect(call.getByText('Duration must be whole minutes from 0 to 600')).toBeVisible();
    await call.getByLabel('Duration (minutes)').fill('3');
    await call.getByLabel('Notes').fill('Asked for the survey by Friday.');
    expect(await seriousViolations(page, { include: '[role="dialog"]' })).toEqual([]);
    await call.getByRole('button', { name: 'Log call' }).click();
    await expect(page.getByRole('status').filter({ hasText: 'Call logged' })).toBeVisible();
    const logged = timeline.getByRole('listitem').filter({ hasText: 'logged a call: Left voicemail, 3 min' });
    await expect(logged).toContainText('Asked for the survey by Friday.');

    // Back to an open stage, then its stage removed: the lead moves with a timeline entry.
    await menu.selectOption({ label: `${stage} done` });
    await expect(page.getByLabel('Status')).toHaveValue('Contacted');
    await page.goto(`${server.baseURL}/dashboard/settings/pipeline`);
    await contacted.getByRole('button', { name: `Remove ${stage} done` }).click();
    const remove = page.getByRole('dialog', { name: `Remove ${stage} done?` });
    await expect(remove).toContainText(`1 lead is in ${stage} done: choose where it goes.`);
    await remove.getByLabel('Move its leads to').selectOption({ label: 'Engaged' });
    await remove.getByRole('button', { name: 'Remove stage' }).click();
    await expect(page.getByRole('status').filter({ hasText: 'Stage removed; 1 lead moved' })).toBeVisible();
    await expect(contacted.getByText(`${stage} done`)).toHaveCount(0);
    await page.goto(`${server.baseURL}/dashboard/leads/${id}`);
    await expect(page.getByLabel('Stage')).toHaveValue(/.+/);
    await expect(page.getByRole('list', { name: 'Timeline, newest first' }).getByText(`Moved from ${stage} done to Engaged`)).toBeVisible();
    // No sideways scrolling at either width.
    expect(await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).toBeLessThanOrEqual(0);
  });
}

test('staff mark a call the lead did not come to as a no-show: on the list, the Overview and the lead’s timeline', async ({ page }) => {
  const server = ownServer();
  await signInOn(page, server, OWNER);
  const headers = { origin: server.baseURL };
  const lead = await page.request.post(`${server.baseURL}/api/leads`, {
    headers,
    data: { full_name: 'Nora Noshow', email: `nora.${Date.now()}@example.com`, phone: '(410) 555-0171', property_types: ['land'] },
  });
  const { id } = (await lead.json()) as { id: string };
  const day = new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);
  const made = await page.request.post(`${server.baseURL}/api/appointments`, {
    headers,
    data: { lead_id: id, date: day, time: '10:00', type: 'Call' },
  });
  expect(made.status()).toBe(201);

  await page.goto(`${server.baseURL}/dashboard/appointments?month=${day.slice(0, 7)}`);
  await page.getByRole('button', { name: 'List', exact: true }).click();
  const row = page.locator('tbody tr').filter({ hasText: 'Nora Noshow' });
  await row.getByRole('button', { name: /^View Details/ }).click();
  const details = page.getByRole('dialog', { name: 'Appointment Details' });
  await details.getByRole('button', { name: 'Mark as no-show' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Appointment marked as a no-show' })).toBeVisible();
  await expect(details).toContainText('No-show');
  await details.getByRole('button', { name: 'Close' }).first().click();
  await expect(row).toContainText('No-show');

  await page.goto(`${server.baseURL}/dashboard`);
  await expect(page.getByTestId('no-shows')).toHaveText('1');
  await page.goto(`${server.baseURL}/dashboard/leads/${id}`);
  await expect(page.getByRole('list', { name: 'Timeline, newest first' }).getByText(/^Call on .* marked as a no-show$/)).toBeVisible();
});
