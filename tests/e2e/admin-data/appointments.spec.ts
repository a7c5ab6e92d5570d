import { randomUUID } from 'node:crypto';
import { createAppointment as schedule, createLead as addLead, expect, onQuietServer, test, type AppointmentInput } from '../fixtures.ts';
import type { Locator, Page } from '@playwright/test';
import { seriousViolations } from '../axe.ts';

const DELETE_CONFIRMATION = 'Are you sure you want to delete this appointment? This action cannot be undone.';

/*
 * Each test works as an account of its own, which hosts the appointments it makes (so they
 * overlap nobody else's), with leads of its own (unique names), in a month of its own far in
 * the future; a view that counts a day's or a month's appointments is read with the Person
 * filter set to that account, so only the test's own are there.
 */
const unique = (label: string) => `${label} ${randomUUID().slice(0, 8)}`;

type Lead = { id: string; full_name: string; email: string; phone: string };

async function createLead(page: Page, label: string): Promise<Lead> {
  const full_name = unique(label);
  const email = `${full_name.replace(/\W+/g, '.').toLowerCase()}@example.com`;
  return addLead(page.request, { full_name, email, phone: '(301) 555-0188', property_types: ['land'] });
}

const createAppointment = (page: Page, input: AppointmentInput) => schedule(page.request, input);

const dayCell = (page: Page, date: string) => page.locator(`td[data-date="${date}"]`);

/** The text is shown whole: not cut by its box (no ellipsis, no clipping). */
async function expectWhole(text: Locator) {
  await expect(text).toBeVisible();
  expect(await text.evaluate((el) => el.scrollWidth <= el.clientWidth && el.getBoundingClientRect().width > 0)).toBe(true);
}

/** Nothing is wider than the screen (no sideways scrolling). */
async function expectFitsTheScreen(page: Page) {
  expect(await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).toBeLessThanOrEqual(0);
}

/** The element lies within the screen's width. */
async function expectOnScreen(page: Page, locator: Locator) {
  const box = (await locator.boundingBox())!;
  expect(box.x).toBeGreaterThanOrEqual(0);
  expect(box.x + box.width).toBeLessThanOrEqual(page.viewportSize()!.width);
}

test.describe('appointments', () => {
  // A browser far from the business time zone (UTC+14): wall-clock dates and times, and
  // "today", must still read as the business's.
  test.use({ timezoneId: 'Pacific/Kiritimati' });

  test('schedules an appointment: each validation message, then success', async ({ page, login }) => {
    await login();
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

  test('calendar: Sunday first, today highlighted, previous / Today / next', async ({ page, login }) => {
    await login();
    await page.goto('/dashboard/appointments');
    await expect(page.getByRole('heading', { level: 1, name: 'Appointments' })).toBeVisible();
    await expect(page.getByRole('button', { name: 'Month', exact: true })).toHaveAttribute('aria-pressed', 'true');
    await expect(page.getByRole('columnheader')).toHaveText(['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat']);

    // "Today" is the business time zone's day, as the server names the zone.
    const { time_zone } = (await (await page.request.get('/api/appointments?from=2000-01-01&to=2000-01-01')).json()) as {
      time_zone: string;
    };
    const today = new Intl.DateTimeFormat('en-CA', { timeZone: time_zone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(
      new Date(),
    );
    const [year, month] = today.split('-').map(Number) as [number, number];
    const title = (y: number, m: number) =>
      new Date(Date.UTC(y, m - 1, 1)).toLocaleString('en-US', { month: 'long', year: 'numeric', timeZone: 'UTC' });

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
    await expect(page).toHaveURL(new RegExp(`date=${next[0]}-${String(next[1]).padStart(2, '0')}-\\d\\d`));
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

  test('a day with 5 appointments shows 3 and "+2 more", which lists all 5', async ({ page, login }) => {
    const me = await login();
    const lead = await createLead(page, 'Busy Lead');
    const times = ['16:00', '08:15', '12:00', '09:45', '14:30'];
    for (const time of times) await createAppointment(page, { lead_id: lead.id, date: '2101-05-12', time });
    await page.goto(`/dashboard/appointments?month=2101-05&person=${me.id}`);

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
    await expect(popover.getByRole('listitem')).toHaveText(
      ['8:15 AM', '9:45 AM', '12:00 PM', '2:30 PM', '4:00 PM'].map((t) => `${t} - ${lead.full_name}`),
    );
    await popover.getByRole('button', { name: `4:00 PM - ${lead.full_name}` }).click();
    const details = page.getByRole('dialog', { name: 'Appointment Details' });
    await expect(details).toContainText('May 12, 2101');
    await expect(details).toContainText('4:00 PM');
  });

  test('the list is ascending by date and time; details; delete from the details', async ({ page, login }) => {
    const me = await login();
    const first = await createLead(page, 'List Lead A');
    const second = await createLead(page, 'List Lead B');
    await createAppointment(page, { lead_id: second.id, date: '2101-07-20', time: '09:00', type: 'On-site' });
    await createAppointment(page, { lead_id: first.id, date: '2101-07-09', time: '15:30', type: 'Zoom', notes: 'Gate code 4321' });
    await createAppointment(page, { lead_id: second.id, date: '2101-07-09', time: '08:05', type: 'Call' });
    await page.goto(`/dashboard/appointments?month=2101-07&person=${me.id}`);
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

    await rows
      .nth(1)
      .getByRole('button', { name: /^View Details/ })
      .click();
    const details = page.getByRole('dialog', { name: 'Appointment Details' });
    for (const text of [first.full_name, first.email, first.phone, 'July 9, 2101', '3:30 PM', 'Zoom', 'Gate code 4321'])
      await expect(details).toContainText(text);
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

  test('deletes from the list after the confirmation; the list fits a 360 px screen', async ({ page, login }) => {
    await page.setViewportSize({ width: 360, height: 740 });
    const me = await login();
    const lead = await createLead(page, 'Delete Lead');
    await createAppointment(page, {
      lead_id: lead.id,
      date: '2101-09-03',
      time: '11:00',
      notes: 'A rather long note about the site visit and the survey',
    });
    await page.goto(`/dashboard/appointments?month=2101-09&person=${me.id}`);
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

  test('the calendar feed URL is shown once, serves iCalendar, and stops working when revoked', async ({ page, login }) => {
    await login();
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

  // Each width has months of its own (2102), so its appointments neither overlap nor show in the other's.
  for (const [width, months] of [
    [1280, { week: '2102-02', month: '2102-05', toast: '2102-07' }],
    [390, { week: '2102-03', month: '2102-06', toast: '2102-08' }],
  ] as const) {
    test.describe(`at ${width} px`, () => {
      test.use({ viewport: { width, height: 844 } });

      test('Week and Agenda name every lead in full, open from the keyboard, and keep view and date through reload and back / forward', async ({
        page,
        login,
      }) => {
        await login();
        const long = await createLead(page, 'Christopher Montgomery-Whitfield');
        const other = await createLead(page, 'Ada Lovelace');
        // The 15th is a Wednesday in both months: its week is the 12th to the 18th.
        const wednesday = `${months.week}-15`;
        await createAppointment(page, { lead_id: long.id, date: wednesday, time: '09:00', type: 'Zoom' });
        await createAppointment(page, { lead_id: other.id, date: `${months.week}-17`, time: '14:30', type: 'Call' });
        const monthName = months.week === '2102-02' ? 'Feb' : 'Mar';

        await page.goto(`/dashboard/appointments?view=week&date=${wednesday}`);
        await expect(page.getByRole('button', { name: 'Week', exact: true })).toHaveAttribute('aria-pressed', 'true');
        const weekTitle = `${monthName} 12 – 18, 2102`;
        await expect(page.getByRole('heading', { level: 2, name: weekTitle })).toBeVisible();
        await expect(page.getByRole('list', { name: weekTitle }).locator(':scope > li')).toHaveCount(7);
        const zoom = page.getByRole('button', { name: `9:00 AM - ${long.full_name}, Zoom` });
        await expect(zoom).toBeVisible();
        await expect(page.locator(`li[data-date="${wednesday}"]`)).toContainText(long.full_name);
        await expectWhole(zoom.getByText(long.full_name, { exact: true }));
        await expect(page.getByRole('list', { name: 'Legend' })).toBeVisible();
        await expectFitsTheScreen(page);

        // A control in the tab order: Enter opens the same details as a click.
        await zoom.focus();
        await page.keyboard.press('Enter');
        const details = page.getByRole('dialog', { name: 'Appointment Details' });
        await expect(details).toContainText(`${monthName === 'Feb' ? 'February' : 'March'} 15, 2102`);
        await expect(details).toContainText('9:00 AM');
        await page.keyboard.press('Escape');
        await expect(details).toBeHidden();
        await expect(zoom).toBeFocused();

        await page.getByRole('button', { name: 'Agenda', exact: true }).click();
        await expect(page).toHaveURL(new RegExp(`\\?view=agenda&date=${wednesday}$`));
        const agendaTitle = `${monthName} 15 – 21, 2102`;
        await expect(page.getByRole('heading', { level: 2, name: agendaTitle })).toBeVisible();
        const agendaZoom = page.getByRole('button', { name: `9:00 AM - ${long.full_name}, Zoom` });
        await expect(agendaZoom).toContainText('9:00 AM – 9:30 AM');
        await expectWhole(agendaZoom.getByText(long.full_name, { exact: true }));
        await expect(page.getByRole('button', { name: `2:30 PM - ${other.full_name}, Call` })).toBeVisible();
        await expectFitsTheScreen(page);

        await page.reload();
        await expect(page.getByRole('button', { name: 'Agenda', exact: true })).toHaveAttribute('aria-pressed', 'true');
        await expect(page.getByRole('heading', { level: 2, name: agendaTitle })).toBeVisible();

        await page.goBack();
        await expect(page.getByRole('button', { name: 'Week', exact: true })).toHaveAttribute('aria-pressed', 'true');
        await expect(page.getByRole('heading', { level: 2, name: weekTitle })).toBeVisible();
        await page.goForward();
        await expect(page.getByRole('heading', { level: 2, name: agendaTitle })).toBeVisible();
        await page.getByRole('button', { name: 'Next 7 days' }).click();
        await expect(page).toHaveURL(new RegExp(`date=${months.week}-22$`));
        await page.goBack();
        await expect(page.getByRole('heading', { level: 2, name: agendaTitle })).toBeVisible();
      });

      test('Month shows each time and lead name, cut to the cell, with the full text on hover and keyboard focus', async ({
        page,
        login,
      }) => {
        const me = await login();
        const lead = await createLead(page, 'Maximilian Featherstonehaugh');
        // The first Saturday and Sunday of the month: the grid's right and left edges.
        const saturday = months.month === '2102-05' ? '2102-05-06' : '2102-06-03';
        const sunday = months.month === '2102-05' ? '2102-05-07' : '2102-06-04';
        await createAppointment(page, { lead_id: lead.id, date: saturday, time: '10:00', type: 'On-site' });
        await createAppointment(page, { lead_id: lead.id, date: sunday, time: '16:15', type: 'Call' });
        await page.goto(`/dashboard/appointments?view=month&date=${months.month}-01&person=${me.id}`);

        const label = `10:00 AM - ${lead.full_name}`;
        const entry = dayCell(page, saturday).getByRole('button', { name: label, exact: true });
        await expect(entry).toBeVisible();
        // The name shows beside the time, however narrow the cell (cut with an ellipsis, never to nothing).
        const visible = await entry.evaluate((button) => (button as HTMLElement).innerText);
        expect(visible).toContain(width >= 1280 ? '10:00 AM' : '10:00a');
        expect(visible).toContain(lead.full_name);
        const name = entry.getByText(width >= 1280 ? label : lead.full_name, { exact: true }).first();
        expect((await name.boundingBox())!.width).toBeGreaterThan(30);

        const fullText = entry.getByTestId('appointment-full-text');
        await expect(fullText).toBeHidden();
        await entry.hover();
        await expect(fullText).toBeVisible();
        await expect(fullText).toHaveText(label);
        await expectOnScreen(page, fullText);
        await page.mouse.move(0, 0);
        await expect(fullText).toBeHidden();

        // From the keyboard: Tab from the month's controls reaches it first; Escape hides the text.
        await page.getByRole('button', { name: 'Next month' }).focus();
        await page.keyboard.press('Tab');
        await expect(entry).toBeFocused();
        await expect(fullText).toBeVisible();
        await page.keyboard.press('Escape');
        await expect(fullText).toBeHidden();
        await page.keyboard.press('Tab');
        const sundayEntry = dayCell(page, sunday).getByRole('button', { name: `4:15 PM - ${lead.full_name}` });
        await expect(sundayEntry).toBeFocused();
        await expect(sundayEntry.getByTestId('appointment-full-text')).toBeVisible();
        await expectOnScreen(page, sundayEntry.getByTestId('appointment-full-text'));
        await page.keyboard.press('Enter');
        await expect(page.getByRole('dialog', { name: 'Appointment Details' })).toContainText('4:15 PM');
      });

      // Another lead's live toast: on the worker's quiet server, where no other test's lead comes in
      // meanwhile with a toast of its own.
      test.describe('with no other lead coming in', () => {
        onQuietServer();

        test('a live notification waits behind the person’s own toast, which stays 5 s', async ({ page, login }) => {
          await login();
          const lead = await createLead(page, 'Toast Lead');
          const date = `${months.toast}-12`;
          await createAppointment(page, { lead_id: lead.id, date, time: '11:00' });
          await page.clock.install();
          await page.goto(`/dashboard/appointments?view=agenda&date=${date}`);
          const entry = page.getByRole('button', { name: new RegExp(`^11:00 AM - ${lead.full_name}`) });
          await entry.click();
          const cancel = page.getByRole('dialog', { name: 'Appointment Details' }).getByRole('button', { name: 'Cancel appointment' });
          await expect(cancel).toBeVisible();
          // The page's clock stands still from here: it moves only when the test moves it.
          await page.clock.pauseAt((await page.evaluate(() => Date.now())) + 1_000);
          const tick = () => page.clock.runFor(50);
          // The moment the person's own toast appears, on the page's clock.
          const shown = page.evaluate(
            () =>
              new Promise<number>((resolve) => {
                const observer = new MutationObserver(() => {
                  if (![...document.querySelectorAll('[role="status"]')].some((el) => el.textContent?.includes('Appointment cancelled')))
                    return;
                  observer.disconnect();
                  resolve(Date.now());
                });
                observer.observe(document.body, { childList: true, subtree: true, characterData: true });
              }),
          );
          await cancel.click();
          const own = page.getByRole('status').filter({ hasText: 'Appointment cancelled' });
          await expect
            .poll(async () => {
              await tick();
              return own.count();
            })
            .toBe(1);
          const shownAt = await shown;
          // Closed, and focus back on the appointment (the dialog gives it back on a timer).
          await page.keyboard.press('Escape');
          await expect
            .poll(async () => {
              await tick();
              return entry.evaluate((el) => el === document.activeElement);
            })
            .toBe(true);

          // Another lead comes in: every admin is notified, live.
          const newcomer = await createLead(page, 'Live Newcomer');
          await page.getByRole('button', { name: /^Notifications/ }).click();
          const panel = page.getByRole('dialog', { name: 'Notifications' });
          await expect
            .poll(async () => {
              await tick(); // the bell's list updates on a timer
              return panel.getByText(`New lead: ${newcomer.full_name}`).count();
            })
            .toBe(1);
          // The panel takes focus (and starts listening for Escape) in an effect, which runs on an
          // animation frame: on this paused clock, only once the test moves it.
          await expect
            .poll(async () => {
              await tick();
              return panel.evaluate((el) => el.contains(document.activeElement));
            })
            .toBe(true);
          await page.keyboard.press('Escape');
          await expect
            .poll(async () => {
              await tick();
              return panel.count();
            })
            .toBe(0);
          const live = page.getByRole('status').filter({ hasText: `New lead: ${newcomer.full_name}` });
          const ranSoFar = (await page.evaluate(() => Date.now())) - shownAt;
          expect(ranSoFar).toBeLessThan(4_000);
          await expect(own).toBeVisible();
          await expect(live).toHaveCount(0);

          await page.clock.runFor(4_500 - ranSoFar);
          await expect(own).toBeVisible();
          await expect(live).toHaveCount(0);

          await page.clock.runFor(1_000);
          await expect(own).toHaveCount(0);
          await expect(live).toBeVisible();
          await expect(live).toContainText('New Lead');
        });
      });
    });
  }

  test('a phone opens the Agenda and a wider screen the Month; an unknown view or date falls back to them', async ({ page, login }) => {
    await login();
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto('/dashboard/appointments');
    await expect(page.getByRole('button', { name: 'Agenda', exact: true })).toHaveAttribute('aria-pressed', 'true');
    await expect(page.locator('li[aria-current="date"]')).toContainText('Today');
    await page.goto('/dashboard/appointments?view=week');
    await expect(page.getByRole('button', { name: 'Week', exact: true })).toHaveAttribute('aria-pressed', 'true');

    await page.setViewportSize({ width: 1280, height: 800 });
    await page.goto('/dashboard/appointments?view=decade&date=2102-13-45');
    await expect(page.getByRole('button', { name: 'Month', exact: true })).toHaveAttribute('aria-pressed', 'true');
    await expect(page.locator('td[aria-current="date"]')).toHaveCount(1);
  });

  test('axe finds no serious or critical violations in the Month, Week and Agenda', async ({ page, login }) => {
    const me = await login();
    const lead = await createLead(page, 'Axe Lead');
    for (const time of ['08:00', '09:00', '10:00', '11:00'])
      await createAppointment(page, { lead_id: lead.id, date: '2101-11-05', time, type: 'Zoom' });
    await page.goto(`/dashboard/appointments?month=2101-11&person=${me.id}`);
    await expect(dayCell(page, '2101-11-05').getByRole('button', { name: /^\+1 more/ })).toBeVisible();
    expect(await seriousViolations(page)).toEqual([]);

    for (const view of ['week', 'agenda']) {
      await page.goto(`/dashboard/appointments?view=${view}&date=2101-11-05&person=${me.id}`);
      await expect(page.locator('li[data-date="2101-11-05"]').getByRole('button')).toHaveCount(4);
      expect(await seriousViolations(page)).toEqual([]);
    }
  });

  // Its own test: four axe scans and a picker in one test ran past the time limit on a busy machine.
  test('axe finds no serious or critical violations in the list and the open lead picker', async ({ page, login }) => {
    const me = await login();
    const lead = await createLead(page, 'Axe Picker Lead');
    for (const time of ['08:00', '09:00']) await createAppointment(page, { lead_id: lead.id, date: '2101-12-14', time, type: 'Call' });
    await page.goto(`/dashboard/appointments?month=2101-12&person=${me.id}`);
    await page.getByRole('button', { name: 'List', exact: true }).click();
    await expect(page.locator('tbody tr')).toHaveCount(2);
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
