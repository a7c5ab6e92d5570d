import { request as apiRequest, type APIRequestContext, type Page } from '@playwright/test';
import { expect, test } from '../fixtures.ts';
import { ownServerForFile, signInOn } from '../own-server.ts';
import { seriousViolations } from '../axe.ts';

/*
 * Tasks on a server of their own (they count every task of a person): on a lead's page a task
 * is added through the dialog, shows in the Tasks card and as the Next step, is edited,
 * completed (the timeline says so), reopened and deleted. My tasks lists overdue, today's,
 * upcoming and done ones with their counts; a tick moves one to Done; the owner looks at
 * another person's and at anyone's, and so does a staff member; the URL keeps the list. The Overview's My tasks counts
 * them. At 1280 px and on a 390 px phone; axe on the dialog and on My tasks. (Logging a call is
 * pipeline.spec.ts's.)
 *
 * The business time zone (and the browser's) is a fixed offset where it is about noon now, so
 * yesterday, today and the days ahead stay what they are for the whole run at any hour.
 */
const OFFSET = 12 - new Date().getUTCHours(); // -11..12: local time is 12:00–12:59 when the file loads
const TIME_ZONE = OFFSET === 0 ? 'Etc/GMT' : OFFSET > 0 ? `Etc/GMT-${OFFSET}` : `Etc/GMT+${-OFFSET}`;
const UTC_OFFSET = `${OFFSET < 0 ? '-' : '+'}${String(Math.abs(OFFSET)).padStart(2, '0')}:00`;
/** The business day `days` from today, as 'yyyy-mm-dd'. */
const day = (days: number) => new Date(Date.now() + OFFSET * 3_600_000 + days * 86_400_000).toISOString().slice(0, 10);
/** That day at `time` ('HH:MM') in the business time zone, as the API takes it. */
const dueAt = (days: number, time: string) => `${day(days)}T${time}:00${UTC_OFFSET}`;
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
/** A day as the Next step card writes it: "Nov 25", with the year when it is not this year's. */
const shortDate = (on: string) => {
  const [year, month, date] = on.split('-').map(Number) as [number, number, number];
  return `${MONTHS[month - 1]} ${date}${on.slice(0, 4) === day(0).slice(0, 4) ? '' : `, ${year}`}`;
};

const OWNER = { email: `tasks.${Date.now()}@own.test`, password: 'tasks-password-1', name: 'Olive Owner' };
const STAFF = { email: `sam.tasks.${Date.now()}@own.test`, password: 'sam-password-12', name: 'Sam Staff' };
// Email off: the invitation's link is answered, to accept here.
const ownServer = ownServerForFile({
  ADMIN_EMAIL: OWNER.email,
  ADMIN_PASSWORD: OWNER.password,
  ADMIN_NAME: OWNER.name,
  BUSINESS_TIME_ZONE: TIME_ZONE,
  SMTP_URL: '',
});
test.use({ timezoneId: TIME_ZONE });

let api: APIRequestContext;
const ids = { owner: '', staff: '' };

test.beforeAll(async () => {
  const server = ownServer();
  api = await apiRequest.newContext({ baseURL: server.baseURL, extraHTTPHeaders: { origin: server.baseURL } });
  expect((await api.post('/api/auth/login', { data: OWNER })).status()).toBe(200);
  const invite = await api.post('/api/team/invites', { data: { email: STAFF.email, role: 'staff' } });
  expect(invite.status(), await invite.text()).toBe(201);
  const token = ((await invite.json()) as { link: string }).link.split('/invite/')[1];
  const staff = await apiRequest.newContext({ baseURL: server.baseURL, extraHTTPHeaders: { origin: server.baseURL } });
  const accepted = await staff.post('/api/auth/invites/accept', {
    data: { token, display_name: STAFF.name, password: STAFF.password, confirm: STAFF.password },
  });
  expect(accepted.status(), await accepted.text()).toBe(201);
  await staff.dispose();
  const { admins } = (await (await api.get('/api/admins')).json()) as { admins: { id: string; display_name: string }[] };
  ids.owner = admins.find((a) => a.display_name === OWNER.name)!.id;
  ids.staff = admins.find((a) => a.display_name === STAFF.name)!.id;
});
test.afterAll(async () => {
  await api?.dispose();
});

async function createLead(fullName: string): Promise<string> {
  const created = await api.post('/api/leads', {
    data: {
      full_name: fullName,
      email: `${fullName.toLowerCase().replace(/\W+/g, '.')}.${Date.now()}@example.com`,
      phone: '(410) 555-0172',
      property_types: ['land'],
    },
  });
  expect(created.status(), await created.text()).toBe(201);
  return ((await created.json()) as { id: string }).id;
}

async function createTask(leadId: string, task: { title: string; due_at: string; assignee_id: string; type?: string }) {
  const created = await api.post(`/api/leads/${leadId}/tasks`, { data: { type: 'call', ...task } });
  expect(created.status(), await created.text()).toBe(201);
  return ((await created.json()) as { id: string }).id;
}

type Counts = { overdue: number; today: number; upcoming: number; done: number };
/** How many tasks each of a person's lists holds now, as the page will count them. */
async function countsOf(assignee: string): Promise<Counts> {
  return ((await (await api.get(`/api/tasks?bucket=today&assignee=${assignee}`)).json()) as { counts: Counts }).counts;
}

const overflow = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
const toast = (page: Page, text: string) => page.getByRole('status').filter({ hasText: text });

for (const width of [1280, 390]) {
  test(`a task on a lead's page: added, the next step, edited, completed, reopened, deleted (${width} px)`, async ({ page }) => {
    const server = ownServer();
    await page.setViewportSize({ width, height: 900 });
    await signInOn(page, server, OWNER);
    const name = `Tia Tasks ${width}`;
    const id = await createLead(name);
    const title = `Call about the survey ${width}`;
    const on = day(2);

    await page.goto(`${server.baseURL}/dashboard/leads/${id}`);
    const card = page.getByRole('region', { name: 'Tasks', exact: true });
    const nextStep = page.getByRole('region', { name: 'Next step', exact: true });
    await expect(card.getByText('No open tasks.')).toBeVisible();
    await expect(nextStep.getByText('No next step set.')).toBeVisible();

    // By keyboard: the button opens the dialog, its fields are labelled, Enter sends it.
    const add = card.getByRole('button', { name: 'Add task' });
    await add.focus();
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('dialog', { name: `Add a task for ${name}` });
    await expect(dialog).toBeVisible();
    await expect(dialog.getByLabel('Type')).toHaveValue('call');
    await expect(dialog.getByLabel('Time')).toHaveValue('09:00');
    await dialog.getByRole('button', { name: 'Add task' }).click();
    await expect(dialog.getByText('Title is required')).toBeVisible();
    await expect(dialog.getByText('Choose when it is due')).toBeVisible();
    expect(await seriousViolations(page, { include: '[role="dialog"]' })).toEqual([]);
    expect(await seriousViolations(page)).toEqual([]);
    await dialog.getByLabel('Title').fill(title);
    await dialog.getByLabel('Due date').fill(on);
    await dialog.getByLabel('Time').fill('14:30');
    await dialog.getByLabel('Assigned to').selectOption({ label: OWNER.name });
    await dialog.getByLabel('Title').press('Enter');
    await expect(dialog).toBeHidden();
    await expect(toast(page, 'Task added.')).toBeVisible();
    // Focus goes back to the button that opened the dialog.
    await expect(add).toBeFocused();
    const row = card.getByTestId('task').filter({ hasText: title });
    await expect(row).toContainText(`Call: ${title}`);
    await expect(row).toContainText(OWNER.name);
    // The earliest open task is the next step.
    await expect(nextStep.getByTestId('next-step')).toHaveText(`Follow up on ${shortDate(on)}: ${title}`);

    // Edited: a new title, and a day later.
    await card.getByRole('button', { name: `Edit Call: ${title}` }).click();
    const edit = page.getByRole('dialog', { name: 'Edit task' });
    await expect(edit.getByLabel('Title')).toHaveValue(title);
    await expect(edit.getByLabel('Due date')).toHaveValue(on);
    await expect(edit.getByLabel('Time')).toHaveValue('14:30');
    const renamed = `${title} and the fee`;
    await edit.getByLabel('Title').fill(renamed);
    await edit.getByLabel('Due date').fill(day(3));
    await edit.getByRole('button', { name: 'Save' }).click();
    await expect(edit).toBeHidden();
    await expect(toast(page, 'Task saved.')).toBeVisible();
    await expect(card.getByRole('button', { name: `Edit Call: ${renamed}` })).toBeFocused();
    await expect(nextStep.getByTestId('next-step')).toHaveText(`Follow up on ${shortDate(day(3))}: ${renamed}`);

    // Completed with its checkbox: off the open list and the next step, on the timeline.
    // By keyboard: once its row is gone, the keyboard goes on from the card's heading.
    await card.getByRole('checkbox', { name: `Mark Call: ${renamed} done` }).focus();
    await page.keyboard.press('Space');
    await expect(toast(page, 'Task done.')).toBeVisible();
    await expect(card.getByText('No open tasks.')).toBeVisible();
    await expect(card.getByRole('heading', { name: 'Tasks' })).toBeFocused();
    await expect(nextStep.getByText('No next step set.')).toBeVisible();
    const timeline = page.getByRole('list', { name: 'Timeline, newest first' });
    await expect(timeline.getByText(`${OWNER.name} completed a task: Call: ${renamed}`)).toBeVisible();

    // Reopened from the done ones: the next step again.
    await card.getByRole('button', { name: 'Show done tasks (1)' }).click();
    await card.getByRole('checkbox', { name: `Reopen Call: ${renamed}` }).uncheck();
    await expect(toast(page, 'Task reopened.')).toBeVisible();
    await expect(card.getByRole('checkbox', { name: `Mark Call: ${renamed} done` })).not.toBeChecked();
    await expect(nextStep.getByTestId('next-step')).toHaveText(`Follow up on ${shortDate(day(3))}: ${renamed}`);

    // Deleted, after asking.
    await card.getByRole('button', { name: `Delete Call: ${renamed}` }).click();
    const confirm = page.getByRole('alertdialog', { name: 'Delete this task?' });
    await expect(confirm).toContainText(`Call: ${renamed} will be removed.`);
    await confirm.getByRole('button', { name: 'Delete' }).click();
    await expect(confirm).toBeHidden();
    await expect(toast(page, 'Task deleted.')).toBeVisible();
    await expect(card.getByText('No open tasks.')).toBeVisible();
    await expect(nextStep.getByText('No next step set.')).toBeVisible();
    await expect(add).toBeFocused();
    expect(await overflow(page)).toBeLessThanOrEqual(0);
  });

  test(`My tasks: the four lists, a task done from the list, anyone's, the Overview's counts (${width} px)`, async ({ page }) => {
    const server = ownServer();
    await page.setViewportSize({ width, height: 900 });
    const lead = await createLead(`Max Mytasks ${width}`);
    const mine = await countsOf(ids.owner);
    const overdue = `Chase the title report ${width}`;
    const today = `Send the engagement letter ${width}`;
    const upcoming = `Walk the site ${width}`;
    const done = `Book the surveyor ${width}`;
    const sams = `Call the lender ${width}`;
    await createTask(lead, { title: overdue, due_at: dueAt(-1, '10:00'), assignee_id: ids.owner, type: 'email' });
    // Today, later than it is now (about noon): not overdue.
    await createTask(lead, { title: today, due_at: dueAt(0, '18:00'), assignee_id: ids.owner });
    await createTask(lead, { title: upcoming, due_at: dueAt(3, '10:00'), assignee_id: ids.owner, type: 'meeting' });
    const doneId = await createTask(lead, { title: done, due_at: dueAt(-2, '09:00'), assignee_id: ids.owner });
    expect((await api.patch(`/api/leads/${lead}/tasks/${doneId}`, { data: { done: true } })).status()).toBe(200);
    await createTask(lead, { title: sams, due_at: dueAt(0, '17:00'), assignee_id: ids.staff });

    await signInOn(page, server, OWNER);
    // The Overview: my overdue and today's, and the way to all of them.
    const panel = page.getByRole('region', { name: 'My tasks', exact: true });
    await expect(panel.getByTestId('my-task-counts')).toHaveText(`${mine.overdue + 1} overdue · ${mine.today + 1} due today`);
    await expect(panel.getByText(`Email: ${overdue}`)).toBeVisible();
    await expect(panel.getByText(`Call: ${today}`)).toBeVisible();
    await expect(panel.getByText(`Call: ${sams}`)).toHaveCount(0);
    await panel.getByRole('link', { name: 'View all tasks' }).click();
    await expect(page).toHaveURL(/\/dashboard\/tasks$/);
    await expect(page.getByRole('heading', { level: 1, name: 'My tasks' })).toBeVisible();

    const lists = page.getByRole('navigation', { name: 'Task lists' });
    const listButton = (label: string) => lists.getByRole('button', { name: new RegExp(`^${label}`) });
    // Today's by default.
    await expect(listButton('Today')).toHaveAttribute('aria-pressed', 'true');
    await expect(listButton('Overdue')).toHaveText(`Overdue (${mine.overdue + 1})`);
    await expect(listButton('Today')).toHaveText(`Today (${mine.today + 1})`);
    await expect(listButton('Upcoming')).toHaveText(`Upcoming (${mine.upcoming + 1})`);
    await expect(listButton('Done')).toHaveText(`Done (${mine.done + 1})`);
    const todayList = page.getByRole('list', { name: 'Today tasks' });
    await expect(todayList.getByTestId('task').filter({ hasText: today })).toContainText(`Max Mytasks ${width}`);
    await expect(todayList.getByText(`Call: ${sams}`)).toHaveCount(0);
    expect(await seriousViolations(page)).toEqual([]);
    expect(await overflow(page)).toBeLessThanOrEqual(0);

    await listButton('Overdue').click();
    await expect(page).toHaveURL(/[?&]bucket=overdue/);
    await expect(page.getByRole('list', { name: 'Overdue tasks' }).getByText(`Email: ${overdue}`)).toBeVisible();
    await listButton('Upcoming').click();
    await expect(page).toHaveURL(/[?&]bucket=upcoming/);
    await expect(page.getByRole('list', { name: 'Upcoming tasks' }).getByText(`Meeting: ${upcoming}`)).toBeVisible();
    // A reload keeps the list.
    await page.reload();
    await expect(listButton('Upcoming')).toHaveAttribute('aria-pressed', 'true');
    await expect(page.getByRole('list', { name: 'Upcoming tasks' }).getByText(`Meeting: ${upcoming}`)).toBeVisible();

    // Done from today's list: off it, onto Done.
    await listButton('Today').click();
    await page
      .getByRole('list', { name: 'Today tasks' })
      .getByRole('checkbox', { name: `Mark Call: ${today} done` })
      .focus();
    await page.keyboard.press('Space');
    await expect(toast(page, 'Task done.')).toBeVisible();
    await expect(listButton('Today')).toHaveText(`Today (${mine.today})`);
    await expect(listButton('Done')).toHaveText(`Done (${mine.done + 2})`);
    await expect(page.getByText(`Call: ${today}`)).toHaveCount(0);
    await expect(page.getByRole('heading', { level: 1 })).toBeFocused();
    await listButton('Done').click();
    await expect(page).toHaveURL(/[?&]bucket=done/);
    const doneList = page.getByRole('list', { name: 'Done tasks' });
    await expect(doneList.getByRole('checkbox', { name: `Reopen Call: ${today}` })).toBeChecked();
    await expect(doneList.getByRole('checkbox', { name: `Reopen Call: ${done}` })).toBeChecked();

    // The owner looks at Sam's today, then at anyone's: the list stays in the URL.
    await listButton('Today').click();
    const whose = page.getByLabel('Whose tasks');
    await whose.selectOption({ label: STAFF.name });
    await expect(page).toHaveURL(new RegExp(`[?&]assignee=${ids.staff}`));
    await expect(page).toHaveURL(/[?&]bucket=today/);
    await expect(page.getByRole('heading', { level: 1, name: 'Tasks' })).toBeVisible();
    const samsToday = page.getByRole('list', { name: 'Today tasks' });
    await expect(samsToday.getByTestId('task').filter({ hasText: sams })).toContainText(STAFF.name);
    await expect(samsToday.getByText(`Email: ${overdue}`)).toHaveCount(0);
    const staffCounts = await countsOf(ids.staff);
    await expect(listButton('Today')).toHaveText(`Today (${staffCounts.today})`);
    await whose.selectOption({ label: 'Anyone’s' });
    await expect(page).toHaveURL(/[?&]assignee=anyone/);
    await expect(page).toHaveURL(/[?&]bucket=today/);
    const anyones = await countsOf('anyone');
    await expect(listButton('Today')).toHaveText(`Today (${anyones.today})`);
    await expect(page.getByRole('list', { name: 'Today tasks' }).getByTestId('task').filter({ hasText: sams })).toContainText(STAFF.name);
    await listButton('Overdue').click();
    await expect(page.getByRole('list', { name: 'Overdue tasks' }).getByTestId('task').filter({ hasText: overdue })).toContainText(
      OWNER.name,
    );
    await page.reload();
    await expect(whose).toHaveValue('anyone');
    await expect(listButton('Overdue')).toHaveAttribute('aria-pressed', 'true');
    expect(await seriousViolations(page)).toEqual([]);
    expect(await overflow(page)).toBeLessThanOrEqual(0);

    // Back on the Overview: today's is done.
    await page.goto(`${server.baseURL}/dashboard`);
    await expect(panel.getByTestId('my-task-counts')).toHaveText(`${mine.overdue + 1} overdue · ${mine.today} due today`);
    await expect(panel.getByText(`Call: ${today}`)).toHaveCount(0);
  });

  test(`staff look at the owner's tasks and at anyone's on My tasks, as they may on any lead (${width} px)`, async ({ page }) => {
    const server = ownServer();
    await page.setViewportSize({ width, height: 900 });
    const lead = await createLead(`Stella Staffview ${width}`);
    const olives = `Order the flood certificate ${width}`;
    await createTask(lead, { title: olives, due_at: dueAt(0, '18:00'), assignee_id: ids.owner });

    await signInOn(page, server, STAFF);
    await page.goto(`${server.baseURL}/dashboard/tasks`);
    await expect(page.getByRole('heading', { level: 1, name: 'My tasks' })).toBeVisible();
    await expect(page.getByRole('button', { name: /^Today/ })).toHaveAttribute('aria-pressed', 'true');
    await expect(page.getByText(`Call: ${olives}`)).toHaveCount(0);

    const whose = page.getByLabel('Whose tasks');
    await whose.selectOption({ label: OWNER.name });
    await expect(page).toHaveURL(new RegExp(`[?&]assignee=${ids.owner}`));
    await expect(page.getByRole('heading', { level: 1, name: 'Tasks' })).toBeVisible();
    const todays = page.getByRole('list', { name: 'Today tasks' }).getByTestId('task').filter({ hasText: olives });
    await expect(todays).toContainText(OWNER.name);
    await expect(todays).toContainText(`Stella Staffview ${width}`);
    await whose.selectOption({ label: 'Anyone’s' });
    await expect(page).toHaveURL(/[?&]assignee=anyone/);
    await expect(todays).toContainText(OWNER.name);
    expect(await seriousViolations(page)).toEqual([]);
    expect(await overflow(page)).toBeLessThanOrEqual(0);
  });
}
