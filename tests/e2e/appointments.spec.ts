import { randomUUID } from 'node:crypto';
import AxeBuilder from '@axe-core/playwright';
import { expect, fromTheSite, signInAsAdmin, test } from './fixtures.ts';
import type { Page } from '@playwright/test';

const DELETE_CONFIRMATION = 'Are you sure you want to delete this appointment? This action cannot be undone.';

/*
 * Tests share one server: each creates its own leads (unique names) and puts its
 * appointments in a month of its own, far in the future, so no test sees another's.
 */
const unique = (label: string) => `${label} ${randomUUID().slice(0, 8)}`;

type Lead = { id: string; full_name: string; email: string; phone: string };

async function createLead(page: Page, label: string): Promise<Lead> {
  const full_name = unique(label);
  const email = `${full_name.replace(/\W+/g, '.').toLowerCase()}@example.com`;
  const res = await page.request.post('/api/leads', { data: { full_name, email, phone: '(301) 555-0188', property_types: ['land'] }, headers: fromTheSite() });
  expect(res.status()).toBe(201);
  return (await res.json()) as Lead;
}

type AppointmentInput = { lead_id: string; date: string; time: string; type?: 'Call' | 'Zoom' | 'On-site'; notes?: string };

async function createAppointment(page: Page, input: AppointmentInput): Promise<{ id: string }> {
  const res = await page.request.post('/api/appointments', { data: { type: 'Call', notes: '', ...input }, headers: fromTheSite() });
  expect(res.status()).toBe(201);
  return (await res.json()) as { id: string };
}

async function seriousViolations(page: Page) {
  const results = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice']).analyze();
  return results.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).join(', ')})`);
}

const dayCell = (page: Page, date: string) => page.locator(`td[data-date="${date}"]`);

test.describe('appointments', () => {
  // A browser far from the business time zone (UTC+14): wall-clock dates and times, and
  // "today", must still read as the business's.
  test.use({ timezoneId: 'Pacific/Kiritimati' });

  test('schedules an appointment: each validation message, then success', async ({ page }) => {
    await signInAsAdmin(page);
    const lead = await createLead(page, 'Schedule Lead');
    await page.goto('/dashboard/appointments?month=2101-03');
    await expect(page.getByRole('heading', { level: 2, name: 'March 2101' })).toBeVisible();

    await page.getByRole('button', { name: 'Schedule', exact: true }).click();
    const dialog = page.getByRole('dialog', { name: 'Schedule Appointment' });
    const submit = dialog.getByRole('button', { name: 'Schedule Appointment' });
    await submit.click();
    const messages = ['Please select a lead', 'Date is required', 'Time is required', 'Appointment type is required'];
    for (const message of messages) await expect(dialog.getByText(message, { exact: true })).toBeVisible();
    await expect(dialog.getByRole('combobox', { name: 'Lead' })).toHaveAttribute('aria-invalid', 'true');

    // Each message goes once its field is filled in.
    const combobox = dialog.getByRole('combobox', { name: 'Lead' });
    await combobox.fill(lead.full_name);
    const option = dialog.getByRole('listbox', { name: 'Leads' }).getByRole('option', { name: new RegExp(lead.full_name) });
    await expect(option).toHaveCount(1);
    await expect(dialog.getByRole('listbox', { name: 'Leads' }).getByRole('option')).toHaveCount(1);
    await expect(option).toContainText(lead.email);
    await combobox.press('ArrowDown');
    await expect(option).toHaveAttribute('aria-selected', 'true');
    await combobox.press('Enter');
    await expect(combobox).toHaveValue(lead.full_name);
    await expect(dialog.getByText('Please select a lead')).toHaveCount(0);
    await dialog.getByLabel('Date').fill('2101-03-14');
    await expect(dialog.getByText('Date is required')).toHaveCount(0);
    await dialog.getByLabel('Time').fill('10:30');
    await expect(dialog.getByText('Time is required')).toHaveCount(0);
    await dialog.getByLabel('Type').selectOption('Zoom');
    await expect(dialog.getByText('Appointment type is required')).toHaveCount(0);
    await dialog.getByLabel('Notes').fill('Review the title report');
    await submit.click();

    const scheduled = page.getByRole('status').filter({ hasText: 'Appointment scheduled successfully' });
    await expect(scheduled).toBeVisible();
    await expect(dialog).toBeHidden();
    // The toast sits over the header's buttons until it goes; close it to reach Schedule again.
    await scheduled.getByRole('button', { name: 'Close notification' }).click();
    await expect(dayCell(page, '2101-03-14').getByRole('button', { name: `10:30 AM - ${lead.full_name}` })).toBeVisible();

    // Opening the form again starts empty.
    await page.getByRole('button', { name: 'Schedule', exact: true }).click();
    await expect(dialog.getByRole('combobox', { name: 'Lead' })).toHaveValue('');
    await page.keyboard.press('Escape');
    await expect(dialog).toBeHidden();
  });

  test('calendar: Sunday first, today highlighted, previous / Today / next', async ({ page }) => {
    await signInAsAdmin(page);
    await page.goto('/dashboard/appointments');
    await expect(page.getByRole('heading', { level: 1, name: 'Appointments' })).toBeVisible();
    await expect(page.getByRole('button', { name: 'Calendar', exact: true })).toHaveAttribute('aria-pressed', 'true');
    await expect(page.getByRole('columnheader')).toHaveText(['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat']);

    // "Today" is the business time zone's day, as the server names the zone.
    const { time_zone } = (await (await page.request.get('/api/appointments?from=2000-01-01&to=2000-01-01')).json()) as { time_zone: string };
    const today = new Intl.DateTimeFormat('en-CA', { timeZone: time_zone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(new Date());
    const [year, month] = today.split('-').map(Number) as [number, number];
    const title = (y: number, m: number) => new Date(Date.UTC(y, m - 1, 1)).toLocaleString('en-US', { month: 'long', year: 'numeric', timeZone: 'UTC' });

    await expect(page.getByRole('heading', { level: 2, name: title(year, month) })).toBeVisible();
    const current = page.locator('td[aria-current="date"]');
    await expect(current).toHaveCount(1);
    await expect(current).toHaveAttribute('data-date', today);
    await expect(current).toContainText('(today)');

    const firstCell = page.locator('tbody td').first();
    const isSunday = async () => new Date(`${await firstCell.getAttribute('data-date')}T12:00:00Z`).getUTCDay() === 0;
    expect(await isSunday()).toBe(true);

    await page.getByRole('button', { name: 'Next month' }).click();
    const next = month === 12 ? [year + 1, 1] : [year, month + 1];
    await expect(page.getByRole('heading', { level: 2, name: title(next[0]!, next[1]!) })).toBeVisible();
    await expect(page).toHaveURL(new RegExp(`month=${next[0]}-${String(next[1]).padStart(2, '0')}`));
    expect(await isSunday()).toBe(true);
    await expect(page.locator(`td[data-date="${next[0]}-${String(next[1]).padStart(2, '0')}-01"]`)).toHaveCount(1);

    await page.getByRole('button', { name: 'Previous month' }).click();
    await page.getByRole('button', { name: 'Previous month' }).click();
    const previous = month === 1 ? [year - 1, 12] : [year, month - 1];
    await expect(page.getByRole('heading', { level: 2, name: title(previous[0]!, previous[1]!) })).toBeVisible();

    await page.getByRole('button', { name: 'Today' }).click();
    await expect(page.getByRole('heading', { level: 2, name: title(year, month) })).toBeVisible();
    await expect(page.locator('td[aria-current="date"]')).toHaveAttribute('data-date', today);
  });

  test('a day with 5 appointments shows 3 and "+2 more", which lists all 5', async ({ page }) => {
    await signInAsAdmin(page);
    const lead = await createLead(page, 'Busy Lead');
    const times = ['16:00', '08:15', '12:00', '09:45', '14:30'];
    for (const time of times) await createAppointment(page, { lead_id: lead.id, date: '2101-05-12', time });
    await page.goto('/dashboard/appointments?month=2101-05');

    const cell = dayCell(page, '2101-05-12');
    await expect(cell.getByRole('listitem')).toHaveCount(3);
    const shown = cell.getByRole('listitem').getByRole('button');
    for (const [i, time] of ['8:15 AM', '9:45 AM', '12:00 PM'].entries()) {
      await expect(shown.nth(i)).toHaveAccessibleName(`${time} - ${lead.full_name}`);
      await expect(shown.nth(i)).toHaveText(`${time} - ${lead.full_name}`, { useInnerText: true });
    }
    const more = cell.getByRole('button', { name: /^\+2 more/ });
    await expect(more).toHaveText('+2 more');
    await more.click();
    const popover = page.getByRole('dialog', { name: 'Appointments on May 12, 2101' });
    await expect(popover.getByRole('listitem')).toHaveText(['8:15 AM', '9:45 AM', '12:00 PM', '2:30 PM', '4:00 PM'].map((t) => `${t} - ${lead.full_name}`));
    await popover.getByRole('button', { name: `4:00 PM - ${lead.full_name}` }).click();
    const details = page.getByRole('dialog', { name: 'Appointment Details' });
    await expect(details).toContainText('May 12, 2101');
    await expect(details).toContainText('4:00 PM');
  });

  test('the list is ascending by date and time; details; delete from the details', async ({ page }) => {
    await signInAsAdmin(page);
    const first = await createLead(page, 'List Lead A');
    const second = await createLead(page, 'List Lead B');
    await createAppointment(page, { lead_id: second.id, date: '2101-07-20', time: '09:00', type: 'On-site' });
    await createAppointment(page, { lead_id: first.id, date: '2101-07-09', time: '15:30', type: 'Zoom', notes: 'Gate code 4321' });
    await createAppointment(page, { lead_id: second.id, date: '2101-07-09', time: '08:05', type: 'Call' });
    await page.goto('/dashboard/appointments?month=2101-07');
    await page.getByRole('button', { name: 'List', exact: true }).click();

    const rows = page.locator('tbody tr');
    await expect(rows).toHaveCount(3);
    await expect(rows.locator('td:first-child')).toHaveText(['Jul 9, 21018:05 AM', 'Jul 9, 21013:30 PM', 'Jul 20, 21019:00 AM']);
    await expect(rows.nth(1)).toContainText(first.full_name);
    await expect(rows.nth(1)).toContainText(first.email);
    await expect(rows.nth(1)).toContainText('Gate code 4321');
    await expect(rows.nth(0)).toContainText('No notes');
    await expect(rows.nth(2).getByText('On-site', { exact: true })).toBeVisible();

    // The view survives a reload.
    await page.reload();
    await expect(page.getByRole('button', { name: 'List', exact: true })).toHaveAttribute('aria-pressed', 'true');
    await expect(rows).toHaveCount(3);

    await rows.nth(1).getByRole('button', { name: /^View Details/ }).click();
    const details = page.getByRole('dialog', { name: 'Appointment Details' });
    for (const text of [first.full_name, first.email, first.phone, 'July 9, 2101', '3:30 PM', 'Zoom', 'Gate code 4321']) await expect(details).toContainText(text);
    const ics = details.getByRole('link', { name: 'Add to calendar (.ics)' });
    const icsResponse = await page.request.get((await ics.getAttribute('href'))!);
    expect(icsResponse.status()).toBe(200);
    expect(await icsResponse.text()).toContain('BEGIN:VCALENDAR');

    await details.getByRole('button', { name: 'Delete appointment' }).click();
    const confirm = page.getByRole('alertdialog');
    await expect(confirm).toContainText(DELETE_CONFIRMATION);
    await confirm.getByRole('button', { name: 'Delete' }).click();
    await expect(page.getByRole('status').filter({ hasText: 'Appointment deleted successfully' })).toBeVisible();
    await expect(details).toBeHidden();
    await expect(rows).toHaveCount(2);
    await expect(page.getByText(first.full_name)).toHaveCount(0);
  });

  test('deletes from the list after the confirmation; the list fits a 360 px screen', async ({ page }) => {
    await page.setViewportSize({ width: 360, height: 740 });
    await signInAsAdmin(page);
    const lead = await createLead(page, 'Delete Lead');
    await createAppointment(page, { lead_id: lead.id, date: '2101-09-03', time: '11:00', notes: 'A rather long note about the site visit and the survey' });
    await page.goto('/dashboard/appointments?month=2101-09');
    await page.getByRole('button', { name: 'List', exact: true }).click();
    await expect(page.locator('tbody tr')).toHaveCount(1);
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    expect(overflow).toBeLessThanOrEqual(0);

    // Cancelling keeps it.
    await page.getByRole('button', { name: new RegExp(`^Delete appointment with ${lead.full_name}`) }).click();
    await page.getByRole('alertdialog').getByRole('button', { name: 'Cancel' }).click();
    await expect(page.locator('tbody tr')).toHaveCount(1);

    await page.getByRole('button', { name: new RegExp(`^Delete appointment with ${lead.full_name}`) }).click();
    const confirm = page.getByRole('alertdialog');
    await expect(confirm).toContainText(DELETE_CONFIRMATION);
    await confirm.getByRole('button', { name: 'Delete' }).click();
    await expect(page.getByRole('status').filter({ hasText: 'Appointment deleted successfully' })).toBeVisible();
    await expect(page.getByText('No appointments scheduled')).toBeVisible();
  });

  test('the calendar feed URL is shown once, serves iCalendar, and stops working when revoked', async ({ page }) => {
    await signInAsAdmin(page);
    await page.goto('/dashboard/appointments');
    await page.getByRole('button', { name: 'Calendar feed' }).click();
    const dialog = page.getByRole('dialog', { name: 'Calendar feed' });
    await dialog.getByRole('button', { name: /Create (feed URL|new URL)/ }).click();
    const url = await dialog.getByLabel('Your feed URL').inputValue();
    expect(url).toMatch(/\/api\/calendar\/[A-Za-z0-9_-]{43}\/appointments\.ics$/);
    await expect(dialog).toContainText('replaces any earlier feed URL');
    const feed = await page.request.get(url);
    expect(feed.status()).toBe(200);
    expect(await feed.text()).toContain('BEGIN:VCALENDAR');

    await dialog.getByRole('button', { name: 'Revoke' }).click();
    await page.getByRole('alertdialog').getByRole('button', { name: 'Revoke' }).click();
    await expect(page.getByRole('status').filter({ hasText: 'Calendar feed revoked' })).toBeVisible();
    await expect(dialog).toContainText('No feed URL is active.');
    expect((await page.request.get(url)).status()).toBe(404);
  });

  test('axe finds no serious or critical violations in the calendar, the list and the open lead picker', async ({ page }) => {
    await signInAsAdmin(page);
    const lead = await createLead(page, 'Axe Lead');
    for (const time of ['08:00', '09:00', '10:00', '11:00']) await createAppointment(page, { lead_id: lead.id, date: '2101-11-05', time, type: 'Zoom' });
    await page.goto('/dashboard/appointments?month=2101-11');
    await expect(dayCell(page, '2101-11-05').getByRole('button', { name: /^\+1 more/ })).toBeVisible();
    expect(await seriousViolations(page)).toEqual([]);

    await page.getByRole('button', { name: 'List', exact: true }).click();
    await expect(page.locator('tbody tr')).toHaveCount(4);
    expect(await seriousViolations(page)).toEqual([]);

    await page.getByRole('button', { name: 'Schedule', exact: true }).click();
    const dialog = page.getByRole('dialog', { name: 'Schedule Appointment' });
    await dialog.getByRole('button', { name: 'Schedule Appointment' }).click();
    await expect(dialog.getByText('Date is required')).toBeVisible();
    await dialog.getByRole('combobox', { name: 'Lead' }).fill(lead.full_name);
    await expect(dialog.getByRole('option', { name: new RegExp(lead.full_name) })).toBeVisible();
    await dialog.getByRole('combobox', { name: 'Lead' }).press('ArrowDown');
    expect(await seriousViolations(page)).toEqual([]);
  });
});
