import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { request, type APIRequestContext, type Page } from '@playwright/test';
import { startDovecot } from '../../src/server/test/dovecot.ts';
import { startServer } from '../../src/server/test/process.ts';
import { expect, postPublicLead, test as base } from './fixtures.ts';
import { copyMigrated } from './own-server.ts';
import { SLOW } from './slow.ts';

/**
 * A built server of its own (fresh PGlite data directory, one admin) seeded with realistic
 * leads, appointments, notifications and analytics, for the specs that look at every page
 * (accessibility, screenshots). Its data cannot disturb the counts other specs check on
 * the shared e2e server, nor theirs these pages. One per worker.
 */
export type Showcase = {
  origin: string;
  admin: { email: string; password: string };
  /** The month (YYYY-MM) of the seeded appointments (UTC, the business time zone here). */
  month: string;
  /** The day (YYYY-MM-DD) of the first of them: the Week and the Agenda open on it. */
  appointmentsFrom: string;
  /** A lead to open in the Edit Lead modal, and an appointment of it to open the details of. */
  lead: { id: string; full_name: string };
  appointment: { id: string; time: string };
  /** The private page of a call a visitor booked (/booking/<token>). */
  bookingPath: string;
  /** A pending invitation's page (/invite/<token>); it shows on the team page too. */
  invitePath: string;
};

const LEADS = [
  {
    full_name: 'Maria Alvarez',
    email: 'maria.alvarez@example.com',
    phone: '(301) 555-0142',
    property_types: ['multifamily'],
    message: '12-unit building in Frederick, MD.',
    status: 'Contacted',
  },
  {
    full_name: 'James Whitfield',
    email: 'j.whitfield@example.com',
    phone: '(240) 555-0199',
    property_types: ['commercial'],
    message: 'Retail strip, Phase I ESA needed.',
    status: 'Converted',
  },
  {
    full_name: 'Priya Natarajan',
    email: 'priya.n@example.com',
    phone: '(410) 555-0117',
    property_types: ['single-family'],
    message: '',
    status: 'New',
  },
  {
    full_name: 'Daniel Okafor',
    email: 'daniel.okafor@example.com',
    phone: '(202) 555-0183',
    property_types: ['land'],
    message: '40 acres near Hagerstown.',
    status: 'Dropped',
  },
  {
    full_name: 'Sophie Laurent',
    email: 'sophie.laurent@example.com',
    phone: '(301) 555-0166',
    property_types: ['multifamily'],
    message: 'Duplex, closing in 30 days.',
    status: 'New',
  },
];
/** Sent through the public form endpoint: each also notifies the admin (the bell). */
const PUBLIC_LEADS = [
  { full_name: 'Ethan Brooks', email: 'ethan.brooks@example.com', phone: '(443) 555-0104', property_types: ['single-family'] },
  { full_name: 'Grace Kim', email: 'grace.kim@example.com', phone: '(571) 555-0128', property_types: ['commercial'] },
];

const BROWSER_UA = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36';

async function ok(res: Awaited<ReturnType<APIRequestContext['get']>>, status: number) {
  expect(res.status(), await res.text()).toBe(status);
  return res.json().catch(() => undefined) as Promise<unknown>;
}

const ymd = (d: Date) => d.toISOString().slice(0, 10);

/** A visitor who sent the form and booked the last open time: the private page of that call. */
async function seedBooking(api: APIRequestContext): Promise<string> {
  const lead = {
    full_name: 'Olivia Chen',
    email: 'olivia.chen@example.com',
    phone: '(301) 555-0190',
    property_types: ['multifamily'],
    submission_id: crypto.randomUUID(),
  };
  const { booking_token } = (await ok(await postPublicLead(api, lead), 201)) as { booking_token: string };
  const from = ymd(new Date());
  const to = ymd(new Date(Date.now() + 30 * 86_400_000));
  const { slots } = (await ok(await api.get(`/api/public/availability?from=${from}&to=${to}`), 200)) as { slots: string[] };
  await ok(await api.post('/api/public/bookings', { data: { booking_token, start: slots.at(-1), type: 'Zoom' } }), 201);
  return `/booking/${booking_token}`;
}

const mail = (from: string, subject: string, body: string) =>
  [`From: ${from}`, 'To: hello@keystone.test', `Subject: ${subject}`, 'Content-Type: text/plain; charset=utf-8', '', body, ''].join('\r\n');

/** Mail in the reply mailbox: a reply from the lead the pages open (read there), one from another lead (left unread), two for the Inbox. */
const MAIL = [
  mail(
    'Maria Alvarez <maria.alvarez@example.com>',
    'Re: Rent roll and leases',
    'Hi Dana,\n\nThe rent roll is attached; the two vacant units were leased last week.\n\nMaria',
  ),
  mail('Priya Natarajan <priya.n@example.com>', 'Inspection date', 'Could the inspection move to Thursday morning?'),
  mail(
    'Tom Reyes <tom.reyes@example.org>',
    'Phase I for a gas station',
    'We are buying a former gas station in Dover, DE. Do you do Phase I?',
  ),
  mail('Offers <deals@promo.example>', 'Grow your leads 10x', 'Click here for our offer.'),
];

async function seed(api: APIRequestContext, admin: Showcase['admin']): Promise<Omit<Showcase, 'origin' | 'admin'>> {
  await ok(await api.post('/api/auth/login', { data: admin }), 200);
  const leads: { id: string; full_name: string }[] = [];
  for (const { status, ...lead } of LEADS) {
    const created = (await ok(await api.post('/api/leads', { data: lead }), 201)) as { id: string; full_name: string };
    if (status !== 'New') await ok(await api.patch(`/api/leads/${created.id}`, { data: { contacted: true, status } }), 200);
    leads.push(created);
  }
  for (const lead of PUBLIC_LEADS) {
    await ok(await postPublicLead(api, { ...lead, submission_id: crypto.randomUUID() }, { 'user-agent': BROWSER_UA }), 201);
  }

  // Five appointments in the coming days (UTC, the business time zone here), all in one
  // month, so the Overview's 7-day list and one calendar month show them all: from tomorrow,
  // or from the 1st of next month when tomorrow + 2 days would cross into it.
  const DAY = 86_400_000;
  const today = Date.UTC(new Date().getUTCFullYear(), new Date().getUTCMonth(), new Date().getUTCDate());
  let start = new Date(today + DAY);
  if (ymd(start).slice(0, 7) !== ymd(new Date(today + 3 * DAY)).slice(0, 7))
    start = new Date(Date.UTC(start.getUTCFullYear(), start.getUTCMonth() + 1, 1));
  const month = ymd(start).slice(0, 7);
  const day = (offset: number) => ymd(new Date(start.getTime() + offset * DAY));
  const plan = [
    { lead: 0, offset: 0, time: '09:30', type: 'Call', notes: 'Go over the rent roll.' },
    { lead: 1, offset: 1, time: '14:00', type: 'On-site', notes: 'Site walk; gate code 4321.' },
    { lead: 2, offset: 2, time: '11:15', type: 'Zoom', notes: '' },
    { lead: 4, offset: 2, time: '16:00', type: 'Call', notes: 'Lender questions.' },
    { lead: 3, offset: 0, time: '15:00', type: 'On-site', notes: '' },
  ] as const;
  let appointment: Showcase['appointment'] | undefined;
  for (const a of plan) {
    const created = (await ok(
      await api.post('/api/appointments', {
        data: { lead_id: leads[a.lead]!.id, date: day(a.offset), time: a.time, type: a.type, notes: a.notes },
      }),
      201,
    )) as { id: string };
    appointment ??= { id: created.id, time: a.time };
  }

  // The first lead's deal and next step (due today), and a note where the notes API exists, for the lead page.
  const worked = leads[0]!.id;
  await ok(
    await api.patch(`/api/leads/${worked}`, {
      data: {
        property_address: '210 N Market St, Frederick, MD 21701',
        target_closing_date: day(30),
        estimated_fee_cents: 1_250_000,
        follow_up_on: ymd(new Date(today)),
        follow_up_note: 'Send the zoning report',
      },
    }),
    200,
  );
  // My tasks: one overdue, one due tonight, two ahead and one done, on other leads than the
  // first (its next step stays the one above), for the admin.
  const { admins } = (await ok(await api.get('/api/admins'), 200)) as { admins: { id: string }[] };
  const at = (offset: number, time: string) => `${ymd(new Date(today + offset * DAY))}T${time}:00Z`;
  const tasks = [
    { lead: 2, type: 'email', title: 'Send the engagement letter', due_at: at(-1, '15:00') },
    { lead: 4, type: 'call', title: 'Confirm the closing date with the lender', due_at: at(0, '23:59') },
    { lead: 1, type: 'meeting', title: 'Walk the site with the surveyor', due_at: at(1, '10:00') },
    { lead: 3, type: 'todo', title: 'Check the wetlands map', due_at: at(3, '14:00') },
    { lead: 2, type: 'call', title: 'Ask for the seller’s disclosures', due_at: at(-2, '11:00'), done: true },
  ] as const;
  for (const { lead, done, ...task } of tasks.map((t) => ({ done: false, ...t }))) {
    const leadId = leads[lead]!.id;
    const made = (await ok(await api.post(`/api/leads/${leadId}/tasks`, { data: { ...task, assignee_id: admins[0]!.id } }), 201)) as {
      id: string;
    };
    if (done) await ok(await api.patch(`/api/leads/${leadId}/tasks/${made.id}`, { data: { done: true } }), 200);
  }
  const note = await api.post(`/api/leads/${worked}/notes`, {
    data: { body: 'Spoke with Maria: she wants the rent roll checked first.\nListing: https://example.com/listing/210-n-market' },
  });
  expect([201, 404]).toContain(note.status());

  // Two visits to three pages, as the tracker sends them.
  for (const [i, page] of ['/', '/privacy', '/careers', '/'].entries()) {
    const session_id = `ShowcaseSession${String(i).padStart(4, '0')}${randomBytes(4).toString('hex')}`;
    for (const data of [
      { session_id, event_type: 'pageview', page_path: page },
      { session_id, event_type: 'time_spent', page_path: page, time_spent: 20 + i * 15 },
    ]) {
      await ok(await api.post('/api/public/events', { data, headers: { 'user-agent': BROWSER_UA } }), 204);
    }
  }
  const invite = (await ok(await api.post('/api/team/invites', { data: { email: 'new.analyst@example.com', role: 'staff' } }), 201)) as {
    link: string;
  };
  await seedApiKeys(api);
  return {
    month,
    appointmentsFrom: day(0),
    lead: leads[0]!,
    appointment: appointment!,
    bookingPath: await seedBooking(api),
    invitePath: new URL(invite.link).pathname,
  };
}

/** Settings → Integrations: a key used once by a partner's form (last used shown), and one never used. */
async function seedApiKeys(api: APIRequestContext): Promise<void> {
  const used = (await ok(
    await api.post('/api/api-keys', { data: { name: 'Partner site form', scopes: ['leads:read', 'leads:write'] } }),
    201,
  )) as { key: string };
  await ok(await api.get('/api/leads?limit=1', { headers: { authorization: `Bearer ${used.key}` } }), 200);
  await ok(
    await api.post('/api/api-keys', { data: { name: 'Monthly report script', scopes: ['analytics:read', 'appointments:read'] } }),
    201,
  );
}

export const test = base.extend<object, { showcase: Showcase }>({
  showcase: [
    // eslint-disable-next-line no-empty-pattern
    async ({}, use) => {
      const dataDir = mkdtempSync(path.join(tmpdir(), 'e2e-showcase-'));
      // The run's migrated, empty database (own-server.ts): no migrating again.
      await copyMigrated(dataDir);
      const admin = { email: 'showcase-admin@example.com', password: randomBytes(12).toString('hex') };
      // The reply mailbox: replies on a lead's page, unread ones on the lists and the Overview, the Inbox.
      const dovecot = await startDovecot(['replies']);
      // Only what the server needs, so a DATABASE_URL in the environment cannot leak in.
      const server = await startServer(
        {
          NODE_ENV: 'test',
          DATA_DIR: dataDir,
          LOG_LEVEL: 'warn',
          BUSINESS_TIME_ZONE: 'UTC',
          LEAD_MIN_FILL_SECONDS: '1',
          // The states below send the form from the browser, once per viewport and spec.
          LEAD_RATE_LIMIT: '0',
          // The seed books from here many times: the website's booking limits off.
          BOOKING_RATE_LIMIT: '0',
          BOOKING_HOLD_ABOVE_PER_HOUR: '0',
          // The seed sends X-Forwarded-For from here: a proxy this server trusts (no set-up banner).
          TRUST_PROXY: '127.0.0.1',
          ADMIN_EMAIL: admin.email,
          ADMIN_PASSWORD: admin.password,
          // The name the pages show for the admin (owners, notes, the timeline, the audit log).
          ADMIN_NAME: 'Dana Whitaker',
          MAIL_REPLY_TO: 'replies@keystone.test',
          IMAP_URL: dovecot.urlOf('replies'),
          IMAP_POLL_SECONDS: '1',
        },
        { entry: 'built', isolated: true },
      );
      const origin = server.url;
      try {
        // It seeds through the admin API as the dashboard would: with the site's Origin.
        const api = await request.newContext({ baseURL: origin, extraHTTPHeaders: { 'x-forwarded-for': '10.9.9.9', origin } });
        const seeded = await seed(api, admin);
        for (const raw of MAIL) dovecot.deliver('replies', raw);
        // The reply reader's looks at Dovecot (SLOW.imap).
        await expect
          .poll(async () => ((await (await api.get('/api/inbox')).json()) as { open: number }).open, { timeout: SLOW.imap })
          .toBe(2);
        await api.dispose();
        await use({ origin, admin, ...seeded });
      } finally {
        await server.stop();
        await dovecot.stop();
        rmSync(dataDir, { recursive: true, force: true });
      }
    },
    { scope: 'worker', timeout: SLOW.serverStart },
  ],
});

export { expect };

/** Signs in on the showcase server through the login page; lands on the Overview. */
export async function signIn(page: Page, showcase: Showcase) {
  await page.goto(`${showcase.origin}/login`);
  await page.getByLabel('Email').fill(showcase.admin.email);
  await page.getByLabel('Password').fill(showcase.admin.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Dashboard Overview' })).toBeVisible();
}

export const VIEWPORTS = {
  desktop: { width: 1280, height: 800 },
  mobile: { width: 360, height: 740 },
} as const;
export type ViewportName = keyof typeof VIEWPORTS;

/**
 * Every page and state the accessibility and screenshot specs visit, in order, each opened
 * from the previous one (signed in after `login`). `open` leaves the page ready to look at.
 */
export type PageState = { name: string; open: (page: Page, showcase: Showcase) => Promise<void> };

const closeDialog = async (page: Page) => {
  await page.keyboard.press('Escape');
  await expect(page.getByRole('dialog')).toHaveCount(0);
};

/** The lead form sent from the browser: the thanks above the time picker, a time picked. */
async function openPicker(page: Page, s: Showcase) {
  await page.goto(`${s.origin}/#contact`);
  await expect(page.locator('html[data-hydrated="true"]')).toHaveCount(1);
  const form = page.locator('#contact form');
  await form.getByLabel('Full name').fill('Noah Patel');
  await form.getByLabel('Email').fill(`noah.${randomBytes(3).toString('hex')}@example.com`);
  await form.getByLabel('Phone').fill('(301) 555-0175');
  await form.getByLabel('Property type').selectOption({ label: 'Land' });
  // No wait here: the form itself holds the submission until its token is LEAD_MIN_FILL_SECONDS old.
  await form.getByRole('button', { name: 'Submit Request' }).click();
  await expect(page.getByRole('group', { name: 'Day', exact: true })).toBeVisible();
  await page
    .getByRole('group', { name: /^Time on / })
    .getByRole('radio')
    .first()
    .check();
  await page.getByRole('heading', { name: 'Pick a time for your free call' }).scrollIntoViewIfNeeded();
}

export const PUBLIC_STATES: PageState[] = [
  {
    name: 'landing',
    open: async (page, s) => {
      await page.goto(`${s.origin}/`);
      await expect(page.locator('html[data-hydrated="true"]')).toHaveCount(1);
    },
  },
  {
    name: 'not-found',
    open: async (page, s) => {
      await page.goto(`${s.origin}/no-such-page`);
      await expect(page.locator('html[data-hydrated="true"]')).toHaveCount(1);
    },
  },
  {
    name: 'privacy',
    open: async (page, s) => {
      await page.goto(`${s.origin}/privacy`);
      await expect(page.locator('html[data-hydrated="true"]')).toHaveCount(1);
    },
  },
  {
    name: 'booking-picker',
    open: openPicker,
  },
  {
    // From the picker just shown, its time picked. The showcase server has email off: the
    // confirmation says no email went, and offers Add to calendar.
    name: 'booking-confirmation',
    open: async (page) => {
      await page.getByRole('button', { name: 'Confirm' }).click();
      await expect(page.getByRole('heading', { name: 'Your free call is booked' })).toBeFocused();
      await expect(page.getByRole('group', { name: 'Add to calendar' })).toBeVisible();
    },
  },
  {
    name: 'booking-page',
    open: async (page, s) => {
      await page.goto(`${s.origin}${s.bookingPath}`);
      await expect(page.getByRole('button', { name: 'Move my call' })).toBeVisible();
    },
  },
  {
    name: 'login',
    open: async (page, s) => {
      await page.goto(`${s.origin}/login`);
      await expect(page.getByRole('heading', { level: 1, name: 'Admin Login' })).toBeVisible();
    },
  },
  {
    name: 'invite',
    open: async (page, s) => {
      await page.goto(`${s.origin}${s.invitePath}`);
      await expect(page.getByText('You are invited as Staff. Give your name and choose a password to create your account.')).toBeVisible();
    },
  },
  {
    name: 'forgot-password',
    open: async (page, s) => {
      await page.goto(`${s.origin}/forgot-password`);
      await expect(page.getByRole('heading', { level: 1, name: 'Forgot your password?' })).toBeVisible();
    },
  },
  {
    name: 'reset-link-used',
    open: async (page, s) => {
      await page.goto(`${s.origin}/reset-password/${'A'.repeat(43)}`);
      await expect(page.getByRole('alert')).toContainText('This reset link is not valid any more');
    },
  },
  {
    // The admin exists: a set-up link says it does not work, and where to go.
    name: 'setup-link-used',
    open: async (page, s) => {
      await page.goto(`${s.origin}/setup/${'A'.repeat(43)}`);
      await expect(page.getByRole('alert')).toContainText('This set-up link is not valid');
    },
  },
];

export const DASHBOARD_STATES: PageState[] = [
  {
    name: 'overview',
    open: async (page, s) => {
      await page.goto(`${s.origin}/dashboard`);
      await expect(page.getByRole('region', { name: 'Recent Leads' }).getByRole('listitem').first()).toBeVisible();
      await expect(page.getByRole('region', { name: 'Upcoming Appointments' }).getByRole('listitem').first()).toBeVisible();
      // A lead's reply nobody has read.
      await expect(page.getByRole('region', { name: 'Replies to read' }).getByRole('link', { name: 'Priya Natarajan' })).toBeVisible();
    },
  },
  {
    name: 'leads',
    open: async (page, s) => {
      await page.goto(`${s.origin}/dashboard/leads`);
      // A table from 640 px, a card per lead below.
      await expect(page.getByRole('link', { name: s.lead.full_name, exact: true })).toBeVisible();
      await expect(page.getByText('1 new reply').first()).toBeVisible();
    },
  },
  {
    name: 'leads-selected',
    open: async (page, s) => {
      await page.getByRole('checkbox', { name: `Select ${s.lead.full_name}` }).check();
      await expect(page.getByRole('region', { name: 'Selected leads' })).toBeVisible();
    },
  },
  {
    name: 'leads-add-modal',
    open: async (page) => {
      await page.getByRole('button', { name: 'Add Lead' }).click();
      const dialog = page.getByRole('dialog', { name: 'Add Lead' });
      // With the validation messages showing.
      await dialog.getByRole('button', { name: 'Add Lead' }).click();
      await expect(dialog.getByText('Name is required')).toBeVisible();
    },
  },
  {
    name: 'leads-edit-modal',
    open: async (page, s) => {
      await closeDialog(page);
      await page.getByRole('button', { name: `Edit ${s.lead.full_name}` }).click();
      await expect(page.getByRole('dialog', { name: 'Edit Lead' }).getByLabel('Full Name')).toHaveValue(s.lead.full_name);
    },
  },
  {
    // The import's preview of a file with a row in error (a preview stores nothing).
    name: 'leads-import',
    open: async (page, s) => {
      await page.goto(`${s.origin}/dashboard/leads/import`);
      const csv = [
        'Full Name,E-mail,Phone,Property Type,Status,Estimated Fee',
        'Dana Whitfield,dana@example.com,(301) 555-0150,Single Family,New,"$1,250.00"',
        'Eli Brooks,eli-at-example,(301) 555-0151,Condo,Hot,',
        'Fay Morgan,fay@example.com,(240) 555-0152,Multifamily,Contacted,900',
      ].join('\r\n');
      await page.getByLabel('CSV file').setInputFiles({ name: 'october-leads.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) });
      await page.getByRole('button', { name: 'Preview' }).click();
      await expect(page.getByRole('region', { name: /The first 3 rows/ }).getByText('Email: Invalid email address')).toBeVisible();
    },
  },
  {
    name: 'lead-page',
    open: async (page, s) => {
      await page.goto(`${s.origin}/dashboard/leads/${s.lead.id}`);
      await expect(page.getByRole('heading', { level: 1, name: s.lead.full_name })).toBeVisible();
      await expect(page.getByTestId('next-step')).toContainText('Send the zoning report');
      // The timeline has loaded (its entries, or its error where the API is missing).
      await expect(page.getByRole('region', { name: 'Timeline' }).getByRole('status')).toHaveCount(0);
      // Their reply, read from the mailbox.
      await expect(page.getByText('Maria Alvarez wrote: Re: Rent roll and leases')).toBeVisible();
    },
  },
  {
    // Mail that matched no lead.
    name: 'inbox',
    open: async (page, s) => {
      await page.goto(`${s.origin}/dashboard/inbox`);
      await expect(page.getByRole('list', { name: 'Waiting mail' }).getByRole('article')).toHaveCount(2);
    },
  },
  {
    // Putting one on a lead's page: the search.
    name: 'inbox-add-to-lead',
    open: async (page) => {
      await page.getByRole('article', { name: 'Phase I for a gas station' }).getByRole('button', { name: 'Add to a lead' }).click();
      const dialog = page.getByRole('dialog', { name: 'Add to a lead' });
      await dialog.getByLabel('Find a lead').fill('a');
      await expect(dialog.getByRole('list', { name: 'Leads found' }).getByRole('listitem').first()).toBeVisible();
    },
  },
  {
    // Writing to the lead, sent empty: each field's message under it.
    name: 'lead-send-email-modal',
    open: async (page, s) => {
      await page.goto(`${s.origin}/dashboard/leads/${s.lead.id}`);
      await page.getByRole('button', { name: 'Send email' }).click();
      const dialog = page.getByRole('dialog', { name: `Email ${s.lead.full_name}` });
      await dialog.getByRole('button', { name: 'Send' }).click();
      await expect(dialog.getByText('Subject is required')).toBeVisible();
    },
  },
  {
    // A template chosen: its subject and message filled in for this lead, the booking link said.
    name: 'lead-send-email-template',
    open: async (page, s) => {
      const dialog = page.getByRole('dialog', { name: `Email ${s.lead.full_name}` });
      await dialog.getByLabel('Template').selectOption({ label: 'First reply' });
      await expect(dialog.getByLabel('Subject')).toHaveValue(`Your free call with us, ${s.lead.full_name.split(' ')[0]}`);
      await expect(dialog.getByText('becomes a booking link for')).toBeVisible();
    },
  },
  {
    // The Month (a phone opens the Agenda unless the URL names the view).
    name: 'appointments-calendar',
    open: async (page, s) => {
      await page.goto(`${s.origin}/dashboard/appointments?view=month&date=${s.month}-01`);
      await expect(page.locator('td[data-date]').getByRole('button').first()).toBeVisible();
    },
  },
  {
    name: 'appointments-week',
    open: async (page, s) => {
      await page.goto(`${s.origin}/dashboard/appointments?view=week&date=${s.appointmentsFrom}`);
      await expect(page.locator('li[data-date]').getByRole('button').first()).toBeVisible();
    },
  },
  {
    name: 'appointments-agenda',
    open: async (page, s) => {
      await page.goto(`${s.origin}/dashboard/appointments?view=agenda&date=${s.appointmentsFrom}`);
      await expect(page.locator('li[data-date]').getByRole('button').first()).toBeVisible();
    },
  },
  {
    name: 'appointments-schedule-modal',
    open: async (page) => {
      await page.getByRole('button', { name: 'Schedule', exact: true }).click();
      const dialog = page.getByRole('dialog', { name: 'Schedule Appointment' });
      await dialog.getByRole('button', { name: 'Schedule Appointment' }).click();
      await expect(dialog.getByText('Date is required')).toBeVisible();
    },
  },
  {
    name: 'appointments-bulk-cancel-modal',
    open: async (page) => {
      await closeDialog(page);
      await page.getByRole('button', { name: 'Cancel website bookings…' }).click();
      const dialog = page.getByRole('dialog', { name: 'Cancel website bookings' });
      await dialog.getByRole('radio', { name: 'Booked in a time window' }).check();
      await expect(dialog.getByRole('status')).toHaveText(/will be cancelled|No upcoming website bookings match/);
    },
  },
  {
    name: 'appointments-list',
    open: async (page) => {
      await closeDialog(page);
      await page.getByRole('button', { name: 'List', exact: true }).click();
      await expect(page.locator('tbody tr').nth(4)).toBeVisible(); // five seeded, and the booking-confirmation state's own
    },
  },
  {
    name: 'appointment-details',
    open: async (page, s) => {
      await page
        .locator('tbody tr')
        .filter({ hasText: s.lead.full_name })
        .getByRole('button', { name: /^View Details/ })
        .click();
      await expect(page.getByRole('dialog', { name: 'Appointment Details' })).toContainText(s.lead.full_name);
    },
  },
  {
    name: 'analytics',
    open: async (page, s) => {
      await closeDialog(page);
      await page.goto(`${s.origin}/dashboard/analytics`);
      await expect(page.getByText('/careers').first()).toBeVisible();
      await expect(page.getByRole('heading', { name: 'Funnel' })).toBeVisible();
      await expect(page.getByRole('region', { name: 'How we count' })).toBeVisible();
    },
  },
  {
    name: 'analytics-custom-range',
    open: async (page, s) => {
      const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);
      await page.goto(`${s.origin}/dashboard/analytics?period=custom&from=${day(-60)}&to=${day(0)}&group=utm`);
      await expect(page.getByRole('form', { name: 'Custom range' })).toBeVisible();
      await expect(page.getByRole('heading', { name: 'Sources' })).toBeVisible();
      await expect(page.getByText('Loading sources...')).toHaveCount(0);
    },
  },
  {
    name: 'leads-from-analytics',
    open: async (page, s) => {
      await page.goto(`${s.origin}/dashboard/leads?origin=offline&visit_from=2020-01-01&visit_to=2030-12-31`);
      await expect(page.getByRole('status').filter({ hasText: 'From Analytics: Offline / entered by staff' })).toBeVisible();
    },
  },
  {
    name: 'settings-email',
    open: async (page, s) => {
      await page.keyboard.press('Escape');
      await page.goto(`${s.origin}/dashboard/settings/email`);
      await expect(page.getByRole('heading', { name: 'Email is off' })).toBeVisible();
      await expect(page.getByRole('heading', { name: 'Weekly report' })).toBeVisible();
      await expect(page.getByText('New lead: Grace Kim').first()).toBeVisible();
    },
  },
  {
    name: 'settings-email-templates',
    open: async (page, s) => {
      await page.goto(`${s.origin}/dashboard/settings/email-templates`);
      await expect(page.getByRole('list', { name: 'Email templates' }).getByText('Follow-up after a call')).toBeVisible();
    },
  },
  {
    // A template open for editing, previewed with a real lead.
    name: 'settings-email-template-edit',
    open: async (page) => {
      await page.getByRole('button', { name: 'Edit First reply' }).click();
      const dialog = page.getByRole('dialog', { name: 'Edit template' });
      await dialog.getByRole('button', { name: 'Preview', exact: true }).click();
      await expect(dialog.getByText(/^Subject: Your free call with us, /)).toBeVisible();
    },
  },
  {
    // The pipeline: stages by status (some with the seed's leads in them), lost reasons.
    name: 'settings-pipeline',
    open: async (page, s) => {
      await page.keyboard.press('Escape');
      await page.goto(`${s.origin}/dashboard/settings/pipeline`);
      await expect(page.getByRole('list', { name: 'Contacted stages' }).getByText('Proposal sent')).toBeVisible();
      await expect(page.getByRole('list', { name: 'Lost reasons' }).getByText('Chose another firm')).toBeVisible();
    },
  },
  {
    // Integrations: the API keys, one used by a partner's form (its last use), one never used.
    name: 'settings-integrations',
    open: async (page, s) => {
      await page.goto(`${s.origin}/dashboard/settings/integrations`);
      await expect(page.getByTestId('api-key').filter({ hasText: 'Partner site form' })).toContainText('last used');
      await expect(page.getByTestId('api-key').filter({ hasText: 'Monthly report script' })).toContainText('never used');
    },
  },
  {
    // The pipeline board: the seed's open deals in their stages (one stage at a time on a phone), the forecast.
    name: 'pipeline-board',
    open: async (page, s) => {
      await page.goto(`${s.origin}/dashboard/pipeline`);
      await expect(page.getByTestId('expected-fees')).toBeVisible();
      await expect(page.getByTestId('board-card').filter({ hasText: 'Priya Natarajan' })).toBeVisible();
    },
  },
  {
    // My tasks: today's, with how many each list holds (the seed's overdue, today's, upcoming and done).
    name: 'my-tasks',
    open: async (page, s) => {
      await page.goto(`${s.origin}/dashboard/tasks`);
      await expect(page.getByRole('heading', { level: 1, name: 'My tasks' })).toBeVisible();
      const lists = page.getByRole('navigation', { name: 'Task lists' });
      await expect(lists.getByRole('button', { name: /^Upcoming/ })).toHaveText('Upcoming (2)');
      await expect(lists.getByRole('button', { name: /^Today/ })).toHaveAttribute('aria-pressed', 'true');
      await expect(page.getByRole('list', { name: 'Today tasks' }).or(page.getByText('No tasks due today.'))).toBeVisible();
    },
  },
  {
    name: 'settings-booking',
    open: async (page, s) => {
      await page.goto(`${s.origin}/dashboard/settings/booking`);
      await expect(page.getByRole('heading', { level: 2, name: 'Booking' })).toBeVisible();
      await expect(page.getByText('All times are in the business time zone, UTC.')).toBeVisible();
      await expect(page.getByLabel('Monday opening time')).toHaveValue('09:00');
    },
  },
  {
    name: 'settings-website',
    open: async (page, s) => {
      await page.goto(`${s.origin}/dashboard/settings/website`);
      await expect(page.getByRole('heading', { level: 2, name: 'Website' })).toBeVisible();
      await expect(page.getByLabel('Headline', { exact: true })).toHaveValue('Real estate due diligence you can close on');
      await expect(page.getByRole('complementary', { name: 'Preview' })).toContainText('Real estate due diligence you can close on');
    },
  },
  {
    name: 'settings-team',
    open: async (page, s) => {
      await page.goto(`${s.origin}/dashboard/settings/team`);
      await expect(page.getByTestId('team-member').filter({ hasText: s.admin.email })).toBeVisible();
      await expect(page.getByTestId('team-invite').filter({ hasText: 'new.analyst@example.com' })).toBeVisible();
    },
  },
  {
    name: 'account',
    open: async (page, s) => {
      await page.goto(`${s.origin}/dashboard/account`);
      await expect(page.getByRole('heading', { level: 1, name: 'Your account' })).toBeVisible();
      await expect(page.getByTestId('account-session').first()).toContainText('This device');
      await expect(page.getByRole('checkbox', { name: /Email me about new leads/ })).toBeEnabled();
    },
  },
  {
    // Your own hours, being edited: a second stretch on Monday (a lunch break).
    name: 'account-working-hours',
    open: async (page, s) => {
      await page.goto(`${s.origin}/dashboard/account`);
      const hours = page.getByRole('form', { name: 'Working hours' });
      await hours.getByRole('radio', { name: 'My own hours' }).check();
      await hours.getByRole('button', { name: 'Add hours on Monday' }).click();
      await expect(hours.getByRole('textbox', { name: 'Monday from' }).or(hours.getByLabel('Monday from'))).toHaveCount(2);
      await hours.scrollIntoViewIfNeeded();
    },
  },
  {
    // Calendars: connecting one by its iCal link (the dialog; nothing is fetched until Connect).
    name: 'account-connect-calendar-modal',
    open: async (page, s) => {
      await page.goto(`${s.origin}/dashboard/account`);
      const calendars = page.getByRole('region', { name: 'Calendars' });
      await expect(calendars).toContainText('No calendars connected.');
      await calendars.getByRole('button', { name: 'Connect a calendar' }).click();
      await expect(page.getByRole('dialog', { name: 'Connect a calendar' }).getByLabel('iCal link', { exact: true })).toBeVisible();
    },
  },
  {
    // The same dialog for a CalDAV account: server address, username and app password.
    name: 'account-connect-caldav-modal',
    open: async (page, s) => {
      await page.goto(`${s.origin}/dashboard/account`);
      await page.getByRole('region', { name: 'Calendars' }).getByRole('button', { name: 'Connect a calendar' }).click();
      const dialog = page.getByRole('dialog', { name: 'Connect a calendar' });
      await dialog.getByRole('radio', { name: /CalDAV account/ }).check();
      await expect(dialog.getByLabel('App password')).toBeVisible();
    },
  },
  {
    name: 'account-two-factor-setup',
    open: async (page, s) => {
      await page.goto(`${s.origin}/dashboard/account`);
      await page.getByRole('button', { name: 'Set up two-factor' }).click();
      await expect(page.getByRole('img', { name: 'QR code to scan with your authenticator app' })).toBeVisible();
    },
  },
  {
    name: 'settings-security',
    open: async (page, s) => {
      await page.goto(`${s.origin}/dashboard/settings/security`);
      await expect(page.getByRole('switch', { name: /Require two-factor authentication for everyone/ })).toBeVisible();
    },
  },
  {
    name: 'settings-audit',
    open: async (page, s) => {
      await page.goto(`${s.origin}/dashboard/settings/audit`);
      await expect(page.getByTestId('audit-entry').first()).toBeVisible();
    },
  },
  {
    name: 'account-menu',
    open: async (page) => {
      await page.getByRole('button', { name: /^Account: signed in as/ }).click();
      const menu = page.getByRole('dialog', { name: 'Account' });
      await expect(menu.getByRole('checkbox', { name: /Email me about new leads/ })).toBeEnabled();
    },
  },
  {
    name: 'notifications',
    open: async (page) => {
      const bell = page.getByRole('button', { name: /^Notifications/ });
      await expect(bell).toHaveAccessibleName(/unread/);
      await bell.click();
      const panel = page.getByRole('dialog', { name: 'Notifications' });
      await expect(panel.getByText(/New lead: Grace Kim/)).toBeVisible();
      await expect(panel).toBeFocused();
      // Under the bell and whole on any screen: at least 8 px from either edge.
      const box = (await panel.boundingBox())!;
      const width = page.viewportSize()!.width;
      expect(box.x).toBeGreaterThanOrEqual(8);
      expect(box.x + box.width).toBeLessThanOrEqual(width - 8 + 0.5);
    },
  },
];

/**
 * The Leads Manager's filters unfolded on a phone (360 px only; at desktop size they are always
 * shown, and the `leads` state is the folded phone view).
 */
export const MOBILE_LEAD_FILTERS: PageState = {
  name: 'leads-filters-open',
  open: async (page, s) => {
    await page.goto(`${s.origin}/dashboard/leads`);
    await expect(page.getByRole('link', { name: s.lead.full_name, exact: true })).toBeVisible();
    const filters = page.getByRole('button', { name: /^Filters/ });
    await expect(filters).toHaveAttribute('aria-expanded', 'false');
    await filters.click();
    await expect(filters).toHaveAttribute('aria-expanded', 'true');
    await expect(page.getByRole('combobox', { name: 'Filter by status' })).toBeVisible();
  },
};

/** The mobile sidebar, open (360 px only). */
export const MOBILE_SIDEBAR: PageState = {
  name: 'sidebar-open',
  open: async (page, s) => {
    await page.goto(`${s.origin}/dashboard`);
    const toggle = page.getByRole('button', { name: 'Toggle menu' });
    await toggle.click();
    await expect(toggle).toHaveAttribute('aria-expanded', 'true');
    await expect(page.getByRole('navigation', { name: 'Dashboard' }).getByRole('link', { name: 'Leads' })).toBeInViewport();
  },
};
