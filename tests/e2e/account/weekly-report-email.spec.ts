import { expect, test } from '../fixtures.ts';
import { startOwnServer, type OwnServer } from '../own-server.ts';
import { SLOW } from '../slow.ts';

/*
 * The weekly report on a server of its own, so last week holds only the leads this spec puts
 * there and the figures are exact: an owner turns the report on in the account menu, imports
 * leads dated last week and the week before, clicks Send now in Settings → Email, and the
 * report arrives at the suite's mail sink with those figures.
 */
type Caught = { envelope: { to: string[] }; subject: string; text: string };
const MAIL_SINK = `http://127.0.0.1:${process.env.E2E_MAIL_HTTP_PORT}`;
const OWNER = { email: `weekly.${Date.now()}@own.test`, password: 'weekly-password-1' };
const TZ = 'America/New_York';
let server: OwnServer;

test.beforeAll(async () => {
  test.setTimeout(SLOW.serverStart);
  server = await startOwnServer({ ADMIN_EMAIL: OWNER.email, ADMIN_PASSWORD: OWNER.password, BUSINESS_TIME_ZONE: TZ });
});
test.afterAll(async () => {
  await server?.stop();
});

/** Today in the business time zone, and the Monday of the last complete week. */
function lastWeek() {
  const today = new Intl.DateTimeFormat('en-CA', { timeZone: TZ, year: 'numeric', month: '2-digit', day: '2-digit' }).format(new Date());
  const day = (offset: number) => new Date(Date.parse(`${today}T00:00:00Z`) + offset * 86_400_000).toISOString().slice(0, 10);
  const weekday = (new Date(`${today}T00:00:00Z`).getUTCDay() + 6) % 7; // 0 = Monday
  return { monday: day(-weekday - 7), sunday: day(-weekday - 1), wednesday: day(-weekday - 5), weekBeforeWednesday: day(-weekday - 12) };
}

test('an owner opts in to the weekly report, clicks Send now and receives last week’s figures', async ({ page, request }, testInfo) => {
  test.skip(testInfo.project.name === 'email-postgres', 'runs on a server of its own: once is enough');
  await page.goto(`${server.baseURL}/login`);
  await page.getByLabel('Email').fill(OWNER.email);
  await page.getByLabel('Password').fill(OWNER.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Dashboard Overview' })).toBeVisible();

  // Opting in, where the other email preferences are; it is saved.
  await page.getByRole('button', { name: /^Account: signed in as/ }).click();
  const weekly = page.getByRole('dialog', { name: 'Account' }).getByRole('checkbox', { name: /Weekly report/ });
  await expect(weekly).not.toBeChecked();
  await weekly.check();
  await page.reload();
  await page.getByRole('button', { name: /^Account: signed in as/ }).click();
  await expect(page.getByRole('dialog', { name: 'Account' }).getByRole('checkbox', { name: /Weekly report/ })).toBeChecked();
  await page.keyboard.press('Escape');

  // Last week: 3 leads, 2 of them clients ($5,000 and $1,250.50); the week before: 1 lead, a $2,000 client.
  const week = lastWeek();
  const row = (name: string, date: string, status: string, fee: string | null) => ({
    full_name: name,
    email: `${name.toLowerCase().replace(/\W+/g, '.')}@example.com`,
    phone: '(301) 555-0150',
    property_type: 'Land',
    status,
    estimated_fee: fee,
    created_at: `${date}T17:00:00Z`,
  });
  const imported = await page.request.post(`${server.baseURL}/api/leads/import`, {
    headers: { origin: server.baseURL },
    data: {
      rows: [
        row('Wendy Won', week.wednesday, 'Converted', '$5,000'),
        row('Walt Won', week.wednesday, 'Converted', '1250.50'),
        row('Nina New', week.wednesday, 'New', null),
        row('Pete Previous', week.weekBeforeWednesday, 'Converted', '2000'),
      ],
      duplicates: 'skip',
      dry_run: false,
    },
  });
  expect(imported.status(), await imported.text()).toBe(200);

  await page.goto(`${server.baseURL}/dashboard/settings/email`);
  await expect(page.getByRole('heading', { name: 'Weekly report' })).toBeVisible();
  await expect(page.getByText(/^Every Monday at 8:00 AM/)).toBeVisible();
  await page.getByRole('button', { name: 'Send now' }).click();
  await expect(page.getByRole('status').filter({ hasText: `Weekly report queued to ${OWNER.email}` })).toBeVisible();

  const reports = async () =>
    ((await (await request.get(`${MAIL_SINK}/messages`)).json()) as Caught[]).filter(
      (m) => m.envelope.to.includes(OWNER.email) && m.subject.startsWith('Weekly report: '),
    );
  await expect.poll(async () => (await reports()).length, { timeout: SLOW.mail }).toBe(1);
  const [mail] = await reports();
  expect(mail!.text).toContain(
    [
      'Visitors: 0 (same as the week before)',
      'Leads: 3 (up 2 from 1)',
      'Calls booked: 0 (same as the week before)',
      'Clients won: 2 (up 1 from 1)',
      'Fees: $6,250.50 (up $4,250.50 from $2,000)',
    ].join('\n'),
  );
  expect(mail!.text).toContain('Top sources by clients\nOffline / entered by staff: 2 clients, $6,250.50 in fees');
  expect(mail!.text).toContain(`${server.baseURL}/dashboard/analytics?period=custom&from=${week.monday}&to=${week.sunday}`);
  // The page lists it as sent.
  await expect(
    page
      .getByRole('listitem')
      .filter({ hasText: /^Weekly report: / })
      .getByText('Sent', { exact: true }),
  ).toBeVisible();
});
