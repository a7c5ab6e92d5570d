import { randomUUID } from 'node:crypto';
import type { APIRequestContext, Page } from '@playwright/test';
import ICAL from 'ical.js';
import { SITE_NAME, createLead, expect, fillLeadForm, openPage, test } from '../fixtures.ts';
import { SLOW } from '../slow.ts';

/*
 * Email end to end: the browser does what a person does, the server sends through SMTP, and
 * the mail sink the suite runs (scripts/mail-sink.ts) shows what arrived. These run against
 * the PGlite server and, in the email-postgres project, the PostgreSQL one. The sink holds
 * every server's mail: each test reads only the addresses it made (its leads', its account's).
 */
type Caught = {
  envelope: { to: string[] };
  subject: string;
  from: string;
  replyTo: string | null;
  text: string;
  attachments: { filename: string; contentType: string; content: string }[];
};

const MAIL_SINK = `http://127.0.0.1:${process.env.E2E_MAIL_HTTP_PORT}`;
const tag = () => randomUUID().slice(0, 8);

async function mailTo(request: APIRequestContext, address: string): Promise<Caught[]> {
  const all = (await (await request.get(`${MAIL_SINK}/messages`)).json()) as Caught[];
  return all.filter((m) => m.envelope.to.includes(address));
}

const subjectsTo = async (request: APIRequestContext, address: string) => (await mailTo(request, address)).map((m) => m.subject);

function invitation(mail: Caught) {
  const ics = mail.attachments.find((a) => a.filename === 'invite.ics')!;
  const calendar = new ICAL.Component(ICAL.parse(ics.content));
  const event = calendar.getFirstSubcomponent('vevent')!;
  return [calendar.getFirstPropertyValue('method'), event.getFirstPropertyValue('sequence'), event.getFirstPropertyValue('uid')];
}

test('the visitor who sends the form hears back at once, and the admins hear of the lead', async ({ page, request, newAdmin }) => {
  // An admin of the test's own, who gets an email for each new lead (as every account does, until they turn it off).
  const admin = await newAdmin();
  const email = `visitor.${tag()}@example.com`;
  const name = `Vera Visitor ${tag()}`;
  await openPage(page, '/');
  await fillLeadForm(page, { name, email, phone: '(240) 555-0133', propertyType: 'Land', message: 'Ten acres' });
  // No wait here: the form itself holds the submission until its token is LEAD_MIN_FILL_SECONDS old.
  await page.locator('#contact form').getByRole('button', { name: 'Submit Request' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Thank you for your interest!' })).toBeVisible();

  await expect.poll(() => subjectsTo(request, email), { timeout: SLOW.mail }).toEqual([`We received your request: ${SITE_NAME}`]);
  await expect.poll(() => subjectsTo(request, admin.email), { timeout: SLOW.mail }).toContain(`New lead: ${name}`);
  const [note] = (await mailTo(request, admin.email)).filter((m) => m.subject === `New lead: ${name}`);
  expect(note!.text).toContain(email);
  expect(note!.text).toContain('Ten acres');
  expect(note!.text).toMatch(/\/dashboard\/leads\/[0-9a-f-]{36}/);
});

async function scheduleThroughTheForm(page: Page, lead: { full_name: string }, date: string, time: string) {
  await page.goto(`/dashboard/appointments?month=${date.slice(0, 7)}`);
  await page.getByRole('button', { name: 'Schedule', exact: true }).click();
  const dialog = page.getByRole('dialog', { name: 'Schedule Appointment' });
  const combobox = dialog.getByRole('combobox', { name: 'Lead' });
  await combobox.fill(lead.full_name);
  await expect(dialog.getByRole('option', { name: new RegExp(lead.full_name) })).toHaveCount(1);
  // Only the match: until the search answers, the newest leads stay listed (others' too, made meanwhile).
  await expect(dialog.getByRole('listbox', { name: 'Leads' }).getByRole('option')).toHaveCount(1);
  await combobox.press('ArrowDown');
  await combobox.press('Enter');
  await dialog.getByLabel('Date').fill(date);
  await dialog.getByLabel('Time').fill(time);
  await dialog.getByLabel('Type').selectOption('Zoom');
  await dialog.getByRole('button', { name: 'Schedule Appointment' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Appointment scheduled successfully' })).toBeVisible();
}

test('scheduling, moving and deleting an appointment sends the lead an invitation, its update and its cancellation', async ({
  page,
  request,
  login,
}) => {
  await login();
  const full_name = `Ivy Invitee ${tag()}`;
  const email = `invitee.${tag()}@example.com`;
  await createLead(page.request, { full_name, email, phone: '(301) 555-0177', property_types: ['commercial'] });

  await scheduleThroughTheForm(page, { full_name }, '2102-04-07', '10:30');
  // Moving it: Edit in its details, the Schedule form prefilled.
  await page.getByRole('button', { name: 'List', exact: true }).click();
  await page.getByRole('button', { name: new RegExp(`^View Details for ${full_name}`) }).click();
  await page.getByRole('dialog', { name: 'Appointment Details' }).getByRole('button', { name: 'Edit' }).click();
  const edit = page.getByRole('dialog', { name: 'Edit Appointment' });
  await expect(edit.getByLabel('Time')).toHaveValue('10:30');
  await edit.getByLabel('Date').fill('2102-04-09');
  await edit.getByLabel('Time').fill('14:00');
  await edit.getByRole('button', { name: 'Save Changes' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Appointment updated successfully' })).toBeVisible();
  await page.goto('/dashboard/appointments?month=2102-04');
  await page.getByRole('button', { name: 'List', exact: true }).click();
  await page.getByRole('button', { name: new RegExp(`^Delete appointment with ${full_name}`) }).click();
  await page.getByRole('alertdialog').getByRole('button', { name: 'Delete' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Appointment deleted successfully' })).toBeVisible();

  await expect
    .poll(() => subjectsTo(request, email), { timeout: SLOW.mail })
    .toEqual([
      `Confirmed: your Zoom call with ${SITE_NAME}, Fri, Apr 7, 10:30 AM`,
      `Updated: your Zoom call with ${SITE_NAME}, Sun, Apr 9, 2:00 PM`,
      `Cancelled: your Zoom call with ${SITE_NAME}, Sun, Apr 9, 2:00 PM`,
    ]);
  const events = (await mailTo(request, email)).map(invitation);
  expect(events.map(([method, sequence]) => [method, sequence])).toEqual([
    ['REQUEST', 0],
    ['REQUEST', 1],
    ['CANCEL', 2],
  ]);
  expect(new Set(events.map(([, , uid]) => uid)).size).toBe(1);
});

test('Settings → Email sends a test email and shows it sent; the account menu keeps the email preferences', async ({
  page,
  request,
  login,
}) => {
  const admin = await login();
  await page.goto('/dashboard');
  await page.getByRole('link', { name: 'Settings' }).click();
  await expect(page).toHaveURL(/\/dashboard\/settings\/email$/);
  await expect(page.getByRole('heading', { name: 'Email is on' })).toBeVisible();
  await page.getByRole('button', { name: 'Send a test email' }).click();
  await expect(page.getByRole('status').filter({ hasText: `Test email queued to ${admin.email}` })).toBeVisible();
  // To the account's own address: one test email, this one.
  await expect
    .poll(async () => (await subjectsTo(request, admin.email)).filter((s) => s === `Test email from ${SITE_NAME}`), { timeout: SLOW.mail })
    .toHaveLength(1);
  const row = page
    .getByRole('listitem')
    .filter({ hasText: `Test email from ${SITE_NAME}` })
    .first();
  await expect(row.getByText('Sent', { exact: true })).toBeVisible();

  await page.getByRole('button', { name: /^Account: signed in as/ }).click();
  const appointmentsBox = page.getByRole('dialog', { name: 'Account' }).getByRole('checkbox', { name: /appointment changes/ });
  await expect(appointmentsBox).not.toBeChecked();
  await appointmentsBox.check();
  await page.reload();
  await page.getByRole('button', { name: /^Account: signed in as/ }).click();
  await expect(page.getByRole('dialog', { name: 'Account' }).getByRole('checkbox', { name: /appointment changes/ })).toBeChecked();
  await page
    .getByRole('dialog', { name: 'Account' })
    .getByRole('checkbox', { name: /appointment changes/ })
    .uncheck();
  await page.keyboard.press('Escape');
});

test('an admin emails a lead from their page: it arrives under their name with the lead’s reply address, and the timeline shows it sent', async ({
  page,
  request,
  login,
}) => {
  const email = `written.${tag()}@example.com`;
  const name = `Wes Written ${tag()}`;
  const admin = await login();
  // Their signature, from the account page, goes under what they write.
  await page.goto('/dashboard/account');
  const signature = page.getByRole('form', { name: 'Email signature' });
  await signature.getByLabel('Signature').fill(`${admin.name}\n${SITE_NAME}`);
  await signature.getByRole('button', { name: 'Save signature' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Signature saved' })).toBeVisible();
  const { id } = await createLead(page.request, { full_name: name, email, phone: '(410) 555-0177', property_types: ['land'] });
  await page.goto(`/dashboard/leads/${id}`);
  await page.getByRole('button', { name: 'Send email' }).click();
  const dialog = page.getByRole('dialog', { name: `Email ${name}` });
  await expect(dialog.getByLabel('To')).toHaveValue(email);
  await dialog.getByLabel('Subject').fill('Your site visit');
  await dialog.getByLabel('Message').fill('Hi Wes,\n\nThe notes from the visit: https://example.com/visit/1\n\nErin');
  await dialog.getByRole('button', { name: 'Send' }).click();
  await expect(page.getByRole('status').filter({ hasText: `Email to ${email} is on its way` })).toBeVisible();
  await expect(dialog).toBeHidden();

  await expect.poll(() => subjectsTo(request, email), { timeout: SLOW.mail }).toContain('Your site visit');
  const [mail] = (await mailTo(request, email)).filter((m) => m.subject === 'Your site visit');
  expect(mail!.from).toBe(`"${admin.name} at ${SITE_NAME}" <hello@keystone.test>`);
  expect(mail!.replyTo).toMatch(new RegExp(`^"${admin.name} at ${SITE_NAME}" <replies\\+[a-z0-9]{10}@keystone\\.test>$`));
  expect(mail!.text).toBe(`Hi Wes,\n\nThe notes from the visit: https://example.com/visit/1\n\nErin\n\n-- \n${admin.name}\n${SITE_NAME}\n`);

  // The timeline says who wrote it, and, live, that it was sent.
  const entry = page
    .getByRole('list', { name: 'Timeline, newest first' })
    .getByRole('listitem')
    .filter({ hasText: `${admin.name} emailed: Your site visit` });
  // Sent is the outbox's word, which comes once the mail is out (SLOW.mail).
  await expect(entry).toContainText('Sent', { timeout: SLOW.mail });
  await expect(entry).toContainText(`To ${email}`);

  // They ask not to be written to: marked, Send email is off and says why, after a reload too.
  await page.getByRole('checkbox', { name: 'Do not email' }).check();
  await expect(page.getByRole('status').filter({ hasText: 'Marked Do not email' })).toBeVisible();
  await page.reload();
  await expect(page.getByRole('checkbox', { name: 'Do not email' })).toBeChecked();
  await expect(page.getByRole('button', { name: 'Send email' })).toBeDisabled();
  await expect(page.getByRole('button', { name: 'Send email' })).toHaveAccessibleDescription('Marked Do not email');
});

test('an owner writes a template with merge fields, and a message from it reaches the lead filled in, with a booking link that opens their booking page', async ({
  page,
  request,
  login,
}) => {
  const email = `templated.${tag()}@example.com`;
  const name = `Tess Templated ${tag()}`;
  const templateName = `Site visit ${tag()}`;
  await login();
  await page.goto('/dashboard/settings/email-templates');
  await page.getByRole('button', { name: 'New template' }).click();
  const editor = page.getByRole('dialog', { name: 'New template' });
  await editor.getByLabel('Name', { exact: true }).fill(templateName);
  await editor.getByLabel('Subject').fill('Your site visit');
  // A field we cannot fill is refused with the ones there are; nothing is saved.
  await editor.getByLabel('Message').fill('Dear {{firstname}},');
  await editor.getByRole('button', { name: 'Save template' }).click();
  await expect(editor.getByText('Unknown merge field {{firstname}}: use {{first_name}}')).toBeVisible();
  // The merge-field buttons put fields in where the cursor is.
  const message = editor.getByLabel('Message');
  await message.fill('Hi , pick a time for the visit: ');
  await message.evaluate((el: HTMLTextAreaElement) => el.setSelectionRange(3, 3));
  await editor.getByRole('button', { name: /^Insert first name/ }).click();
  await message.press('End');
  await editor.getByRole('button', { name: /^Insert booking link/ }).click();
  await expect(message).toHaveValue('Hi {{first_name}}, pick a time for the visit: {{booking_link}}');
  await editor.getByRole('button', { name: 'Save template' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Template added' })).toBeVisible();
  await expect(page.getByRole('list', { name: 'Email templates' }).getByText(templateName)).toBeVisible();

  const { id } = await createLead(page.request, { full_name: name, email, phone: '(410) 555-0188', property_types: ['land'] });
  await page.goto(`/dashboard/leads/${id}`);
  await page.getByRole('button', { name: 'Send email' }).click();
  const dialog = page.getByRole('dialog', { name: `Email ${name}` });
  await dialog.getByLabel('Template').selectOption({ label: templateName });
  await expect(dialog.getByLabel('Message')).toHaveValue('Hi Tess, pick a time for the visit: {{booking_link}}');
  await expect(dialog.getByText(`{{booking_link}} becomes a booking link for ${name}, good for 7 days, when you send.`)).toBeVisible();
  await dialog.getByRole('button', { name: 'Send' }).click();
  await expect(page.getByRole('status').filter({ hasText: `Email to ${email} is on its way` })).toBeVisible();

  await expect.poll(() => subjectsTo(request, email), { timeout: SLOW.mail }).toContain('Your site visit');
  const [mail] = (await mailTo(request, email)).filter((m) => m.subject === 'Your site visit');
  const link = /http:\/\/127\.0\.0\.1:\d+\/booking\/[A-Za-z0-9_-]{43}/.exec(mail!.text)?.[0];
  expect(mail!.text.startsWith('Hi Tess, pick a time for the visit: http'), mail!.text).toBe(true);
  expect(link, 'the message carries a booking link').toBeDefined();
  // The lead opens it: their own booking page, greeting them by name.
  const visitor = await page.context().browser()!.newPage();
  await visitor.goto(link!);
  await expect(visitor.getByText('Hello Tess,')).toBeVisible();
  await visitor.close();
});
