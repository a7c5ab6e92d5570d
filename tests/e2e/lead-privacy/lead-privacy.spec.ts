import { readFile } from 'node:fs/promises';
import AxeBuilder from '@axe-core/playwright';
import type { APIRequestContext, Page } from '@playwright/test';
import { createLead, expect, fromTheSite, postPublicLead, test, uniqueTag, type Admin } from '../fixtures.ts';

/**
 * A person's data: delete with a choice for the appointments (the leads table), "Export
 * everything" as a browser download, erase and merge. The lead page's own buttons join here
 * once that page exists; until then export, erase and merge are driven through the API.
 */

type Lead = { id: string; full_name: string; email: string };
type Appointment = { id: string; status: string; cancelled_by: string | null; lead: unknown };

/** A date far enough ahead to be "to come" in any business time zone. */
const daysAhead = (n: number) => new Date(Date.now() + n * 86_400_000).toISOString().slice(0, 10);

/** Signs the page in as an account of the test's own and opens the Leads list. */
async function openLeads(page: Page, login: () => Promise<Admin>) {
  await login();
  await page.goto('/dashboard/leads');
  await expect(page.getByRole('heading', { level: 1, name: 'Leads' })).toBeVisible();
}

const addLead = (api: APIRequestContext, fields: Partial<Lead> & { full_name: string; email: string }): Promise<Lead> =>
  createLead(api, { message: '', ...fields });

async function schedule(api: APIRequestContext, leadId: string, date: string, time: string): Promise<Appointment> {
  const res = await api.post('/api/appointments', {
    data: { lead_id: leadId, date, time, type: 'Call', notes: 'Bring comps', allow_overlap: true },
    headers: fromTheSite(),
  });
  expect(res.status()).toBe(201);
  return (await res.json()) as Appointment;
}

async function openDelete(page: Page, tag: string, name: string) {
  await page.getByRole('searchbox', { name: 'Search leads' }).fill(tag);
  await page
    .getByRole('table')
    .getByRole('row', { name: new RegExp(name) })
    .getByRole('button', { name: `Delete ${name}` })
    .click();
  return page.getByRole('alertdialog', { name: 'Delete lead' });
}

test.describe('Personal data requests', () => {
  test('deleting a lead with appointments asks what becomes of them; cancelling keeps them, cancelled by staff', async ({
    page,
    login,
  }) => {
    const tag = uniqueTag();
    await openLeads(page, login);
    const lead = await addLead(page.request, { full_name: `Dana ${tag}`, email: `dana.${tag}@example.com` });
    const first = await schedule(page.request, lead.id, daysAhead(10), '10:00');
    const second = await schedule(page.request, lead.id, daysAhead(11), '11:00');
    const plain = await addLead(page.request, { full_name: `Plain ${tag}`, email: `plain.${tag}@example.com` });

    // No appointments: the usual question, no choices.
    let dialog = await openDelete(page, tag, plain.full_name);
    await expect(dialog).toContainText('Are you sure you want to delete this lead? This action cannot be undone.');
    await expect(dialog.getByRole('button', { name: 'Delete' })).toBeEnabled();
    await expect(dialog.getByRole('radio')).toHaveCount(0);
    await dialog.getByRole('button', { name: 'Cancel' }).click();

    dialog = await openDelete(page, tag, lead.full_name);
    await expect(dialog).toContainText('Are you sure you want to delete this lead? This action cannot be undone.');
    await expect(dialog).toContainText('This lead has 2 appointments, 2 still to come.');
    const choices = dialog.getByRole('group', { name: 'What should happen to them?' });
    await expect(choices.getByRole('radio', { name: 'Keep them (shown as Unknown Lead)' })).toBeChecked();
    await expect(choices.getByRole('radio', { name: 'Delete them' })).not.toBeChecked();
    const axe = await new AxeBuilder({ page })
      .include('[role="alertdialog"]')
      .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'])
      .analyze();
    expect(axe.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => v.id)).toEqual([]);

    // The keyboard moves through the choices.
    await choices.getByRole('radio', { name: 'Keep them (shown as Unknown Lead)' }).focus();
    await page.keyboard.press('ArrowDown');
    await expect(choices.getByRole('radio', { name: 'Cancel them' })).toBeChecked();
    await dialog.getByRole('button', { name: 'Delete' }).click();
    await expect(page.getByRole('status').filter({ hasText: 'Lead deleted successfully' })).toBeVisible();
    await expect(dialog).toBeHidden();
    await expect(page.getByRole('table').getByRole('row', { name: new RegExp(lead.full_name) })).toHaveCount(0);

    for (const { id } of [first, second]) {
      const kept = (await (await page.request.get(`/api/appointments/${id}`)).json()) as Appointment;
      expect(kept).toMatchObject({ status: 'cancelled', cancelled_by: 'staff', lead: null });
    }
  });

  test('deleting with "Delete them" removes the appointments too', async ({ page, login }) => {
    const tag = uniqueTag();
    await openLeads(page, login);
    const lead = await addLead(page.request, { full_name: `Della ${tag}`, email: `della.${tag}@example.com` });
    const appointment = await schedule(page.request, lead.id, daysAhead(12), '09:30');
    const dialog = await openDelete(page, tag, lead.full_name);
    await dialog.getByRole('radio', { name: 'Delete them' }).check();
    await dialog.getByRole('button', { name: 'Delete' }).click();
    await expect(page.getByRole('status').filter({ hasText: 'Lead deleted successfully' })).toBeVisible();
    expect((await page.request.get(`/api/appointments/${appointment.id}`)).status()).toBe(404);
  });

  test('"Export everything" downloads the person’s data as JSON', async ({ page, login }) => {
    const tag = uniqueTag();
    await openLeads(page, login);
    const lead = await addLead(page.request, { full_name: `Éva Export ${tag}`, email: `eva.${tag}@example.com` });
    await schedule(page.request, lead.id, daysAhead(13), '14:00');
    expect((await page.request.patch(`/api/leads/${lead.id}`, { data: { status: 'Contacted' }, headers: fromTheSite() })).status()).toBe(
      200,
    );

    // As the lead page's link does it: a plain download with the session cookie.
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.evaluate((href) => {
        const link = Object.assign(document.createElement('a'), { href, download: '' });
        document.body.append(link);
        link.click();
        link.remove();
      }, `/api/leads/${lead.id}/export`),
    ]);
    expect(download.suggestedFilename()).toBe(`lead-eva-export-${tag}-${new Date().toISOString().slice(0, 10)}.json`);
    const data = JSON.parse(await readFile((await download.path())!, 'utf8')) as {
      lead: Record<string, unknown>;
      status_history: { to_status: string; changed_by: string | null }[];
      appointments: { notes: string }[];
      emails: { kind: string; to_address: string }[];
      visits: { session_ids: string[]; events: unknown[]; truncated: boolean };
    };
    expect(data.lead).toMatchObject({
      id: lead.id,
      full_name: lead.full_name,
      email: lead.email,
      status: 'Contacted',
      submission_id: null,
    });
    expect(data.status_history.map((c) => c.to_status)).toEqual(['New', 'Contacted']);
    expect(data.appointments).toEqual([expect.objectContaining({ notes: 'Bring comps', time: '14:00' })]);
    expect(data.emails.every((e) => e.kind === 'appointment' || e.kind === 'new-lead')).toBe(true);
    expect(data.visits).toEqual({ session_ids: [], events: [], truncated: false });
  });

  test('erase removes the person from the lists and the bell; their appointment stays without them', async ({ page, login }) => {
    const tag = uniqueTag();
    // Staff of the test's own, before the person writes: their bell has the person.
    await openLeads(page, login);
    const person = {
      full_name: `Erin Erase ${tag}`,
      email: `erin.${tag}@example.com`,
      phone: '(301) 555-0166',
      property_types: ['land'],
      message: `Please call me, ${tag}`,
    };
    const sent = await postPublicLead(page.request, { ...person, submission_id: crypto.randomUUID() });
    expect(sent.status()).toBe(201);
    const [lead] = ((await (await page.request.get(`/api/leads?search=${tag}`)).json()) as { leads: Lead[] }).leads;
    const appointment = await schedule(page.request, lead!.id, daysAhead(14), '15:00');
    const bell = async () =>
      ((await (await page.request.get('/api/notifications')).json()) as { notifications: { message: string }[] }).notifications.map(
        (n) => n.message,
      );
    expect(await bell()).toContain(`New lead: ${person.full_name} (${person.email})`);

    const res = await page.request.post(`/api/leads/${lead!.id}/erase`, { headers: fromTheSite() });
    expect(res.status()).toBe(200);
    expect(await res.json()).toMatchObject({ erased: true, appointments_kept: 1 });

    expect((await bell()).filter((m) => m.includes(tag))).toEqual([]);
    expect((await (await page.request.get(`/api/appointments/${appointment.id}`)).json()) as Appointment).toMatchObject({
      lead: null,
      status: 'scheduled',
    });
    await page.getByRole('searchbox', { name: 'Search leads' }).fill(tag);
    await expect(page.getByText('No leads found').first()).toBeVisible();
    expect((await page.request.get(`/api/leads/${lead!.id}/export`)).status()).toBe(404);
  });

  test('merge joins two leads of one email, keeping the values chosen', async ({ page, login }) => {
    const tag = uniqueTag();
    await openLeads(page, login);
    const email = `sam.${tag}@example.com`;
    const older = await addLead(page.request, { full_name: `Sam ${tag}`, email });
    const newer = await addLead(page.request, { full_name: `Samuel ${tag}`, email });
    await schedule(page.request, older.id, daysAhead(15), '16:00');
    const duplicates = (await (await page.request.get(`/api/leads/${newer.id}/duplicates`)).json()) as { leads: Lead[] };
    expect(duplicates.leads.map((l) => l.id)).toEqual([older.id]);

    const merged = await page.request.post(`/api/leads/${newer.id}/merge`, {
      data: { other_id: older.id, keep: { full_name: 'other' } },
      headers: fromTheSite(),
    });
    expect(merged.status()).toBe(200);
    expect(await merged.json()).toMatchObject({ id: newer.id, full_name: `Sam ${tag}`, email });
    expect((await page.request.get(`/api/leads/${older.id}`)).status()).toBe(404);
    expect(((await (await page.request.get(`/api/leads/${newer.id}/duplicates`)).json()) as { leads: Lead[] }).leads).toEqual([]);

    // The table shows one lead for the person now.
    await page.getByRole('searchbox', { name: 'Search leads' }).fill(tag);
    await expect(page.getByRole('table').getByRole('row', { name: new RegExp(`Sam ${tag}`) })).toHaveCount(1);
    // Different emails are refused.
    const stranger = await addLead(page.request, { full_name: `Stranger ${tag}`, email: `stranger.${tag}@example.com` });
    expect(
      (await page.request.post(`/api/leads/${newer.id}/merge`, { data: { other_id: stranger.id }, headers: fromTheSite() })).status(),
    ).toBe(400);
  });
});
