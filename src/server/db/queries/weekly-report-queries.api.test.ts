import { sql } from 'drizzle-orm';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ensureAdmin } from '../../auth/accounts.ts';
import { createTestApp, signIn } from '../../test/test-app.ts';
import { rowsOf, useTestDatabase } from '../../test/database.ts';
import { mailTo } from '../../test/mail-sink.ts';
import { useMailSink } from '../../test/use-mail-sink.ts';
import { execute } from '../sql.ts';
import { queueMailOf } from './emails-queries.ts';
import { lastCompleteWeek, queueWeeklyReports, sourceLabel, weekDueAt } from './weekly-report-queries.ts';

/**
 * The weekly report: when the job queues it (Monday from 8:00 in the business time zone, for
 * the week just ended), to whom (active accounts that opted in), how often (once per week and
 * admin, however many runs and processes), what it says (the figures of two seeded weeks, as
 * they arrive through SMTP), and Send now.
 */
const TZ = 'America/New_York';
const database = useTestDatabase();
const mailSink = useMailSink();
let t: ReturnType<typeof createTestApp>;
let ann: string;

// Monday November 25, 2030: the report covers Monday 18 to Sunday 24, compared with 11 to 17 (EST, UTC−5).
const MONDAY_0759 = new Date('2030-11-25T12:59:59Z');
const MONDAY_0800 = new Date('2030-11-25T13:00:00Z');
const WEDNESDAY = new Date('2030-11-27T15:00:00Z');
const THURSDAY = new Date('2030-11-28T15:00:00Z');
const NEXT_MONDAY_0800 = new Date('2030-12-02T13:00:00Z');

const run = (now: Date) => queueWeeklyReports(database.db, { now, timeZone: TZ, mail: queueMailOf(t.config.mail) });
const queued = () =>
  rowsOf<{ to_address: string; dedupe_key: string | null; from: string }>(
    database.db,
    sql`select to_address, dedupe_key, data->>'from' as from from emails where kind = 'weekly-report' order by to_address, created_at`,
  );

afterEach(async () => {
  await t.outbox.stop();
});

const HOSTILE = 'x"><script>alert(1)</script>.example';

beforeEach(async () => {
  await execute(database.db, sql`truncate users, sessions, leads, appointments, notifications, emails, analytics_hourly_visits cascade`);
  mailSink.sink.messages.length = 0;
  t = createTestApp(database, {
    SMTP_URL: mailSink.sink.url,
    MAIL_FROM: '"Keystone Due Diligence" <hello@keystone.test>',
    SITE_NAME: 'Keystone Due Diligence',
    PUBLIC_URL: 'https://crm.keystone.test',
    BUSINESS_TIME_ZONE: TZ,
  });
  // Ann (owner) and Bob (staff) asked for it; Carl did not; Dora did, but is deactivated.
  ann = (await ensureAdmin(database.db, 'ann@keystone.test', 'ann-password')).user.id;
  await ensureAdmin(database.db, 'bob@keystone.test', 'bob-password', 'staff');
  await ensureAdmin(database.db, 'carl@keystone.test', 'carl-password');
  await ensureAdmin(database.db, 'dora@keystone.test', 'dora-password');
  await execute(
    database.db,
    sql`update users set email_weekly_report = true where email in ('ann@keystone.test', 'bob@keystone.test', 'dora@keystone.test')`,
  );
  await execute(database.db, sql`update users set deactivated_at = now() where email = 'dora@keystone.test'`);
  await seedTwoWeeks();
});

/** Visitors by the hour of their first visit and referring site ('' = direct). */
const visits = (rows: [string, string, number][]) =>
  execute(
    database.db,
    sql`insert into analytics_hourly_visits (hour, source, utm_source, utm_medium, utm_campaign, landing_page, visitors)
    values ${sql.join(
      rows.map(([hour, source, n]) => sql`(${hour}::timestamptz, ${source}, '', '', '', '/', ${n})`),
      sql`, `,
    )}`,
  );

type SeedLead = {
  name: string;
  created: string;
  visit?: { hour: string; source: string };
  status?: string;
  fee?: number;
  followUp?: string;
  call?: 'scheduled' | 'cancelled';
};
let callHour = 9;
async function lead(l: SeedLead): Promise<void> {
  const [row] = await rowsOf<{ id: string }>(
    database.db,
    sql`
    insert into leads (full_name, email, phone, property_types, created_at, status, estimated_fee_cents, follow_up_on,
      submission_id, analytics_session_id, source, visit_hour)
    values (${l.name}, ${`${l.name
      .toLowerCase()
      .replace(/\W+/g, '.')
      .replace(/^\.|\.$/g, '')}@example.com`}, '(301) 555-0100', array['land'], ${l.created}::timestamptz,
      ${l.status ?? 'New'}, ${l.fee ?? null}, ${l.followUp ?? null}::date,
      ${l.visit ? sql`gen_random_uuid()` : sql`null`}, ${l.visit ? crypto.randomUUID() : null}, ${l.visit?.source ?? null}, ${l.visit?.hour ?? null}::timestamptz)
    returning id`,
  );
  if (l.call) {
    await execute(
      database.db,
      sql`insert into appointments (lead_id, date, time, type, status)
      values (${row!.id}, '2030-12-10', ${`${String(callHour++).padStart(2, '0')}:00`}, 'Call', ${l.call})`,
    );
  }
}

/**
 * Last week (Nov 18–24): 91 visitors (one on Sunday 23:30, none counted from the Monday
 * after), 6 leads, 3 calls booked (a cancelled one does not count), 5 clients, $10,520.50 in
 * fees; google.com and the hostile host won 2 clients each, staff entered 1, direct 0.
 * The week before (Nov 11–17): 41 visitors (one on Sunday 23:00), 2 leads, 1 call, 1 client, $2,000.
 */
async function seedTwoWeeks() {
  callHour = 9;
  await visits([
    ['2030-11-19T15:00:00Z', '', 50],
    ['2030-11-20T15:00:00Z', 'google.com', 30],
    ['2030-11-21T15:00:00Z', HOSTILE, 10],
    ['2030-11-25T04:00:00Z', 'google.com', 1], // Sunday 23:00 in New York
    ['2030-11-25T05:00:00Z', 'google.com', 7], // Monday 00:00: this week
    ['2030-11-12T15:00:00Z', 'google.com', 40],
    ['2030-11-18T04:00:00Z', '', 1], // Sunday 17th, 23:00
  ]);
  const google = { hour: '2030-11-20T15:00:00Z', source: 'google.com' };
  const hostile = { hour: '2030-11-21T15:00:00Z', source: HOSTILE };
  await lead({
    name: 'Gina Google',
    created: '2030-11-20T16:00:00Z',
    visit: google,
    status: 'Converted',
    fee: 500_000,
    call: 'scheduled',
    followUp: '2030-11-26',
  });
  await lead({ name: 'Glen Google', created: '2030-11-20T17:00:00Z', visit: google, status: 'Converted', fee: 250_050, call: 'scheduled' });
  await lead({
    name: 'Dan Direct',
    created: '2030-11-19T16:00:00Z',
    visit: { hour: '2030-11-19T15:00:00Z', source: '' },
    status: 'Contacted',
    call: 'cancelled',
    followUp: '2030-11-20',
  });
  await lead({
    name: 'Hal <b>Hostile</b>',
    created: '2030-11-21T16:00:00Z',
    visit: hostile,
    status: 'Converted',
    fee: 1000,
    call: 'scheduled',
  });
  await lead({ name: 'Hana Hostile', created: '2030-11-21T17:00:00Z', visit: hostile, status: 'Converted', fee: 1000 });
  await lead({ name: 'Sam Staff', created: '2030-11-22T16:00:00Z', status: 'Converted', fee: 300_000, followUp: '2030-11-25' });
  await lead({ name: 'Tess Thisweek', created: '2030-11-25T06:00:00Z', status: 'Converted', fee: 999_900 }); // Monday 01:00: this week
  await lead({
    name: 'Pia Previous',
    created: '2030-11-12T16:00:00Z',
    visit: { hour: '2030-11-12T15:00:00Z', source: 'google.com' },
    status: 'Converted',
    fee: 200_000,
    call: 'scheduled',
  });
  await lead({ name: 'Otto Offline', created: '2030-11-14T16:00:00Z', followUp: '2030-11-24' });
}

describe('the week due', () => {
  it('is the week just ended, from Monday 8:00 in the business time zone, across daylight saving time', () => {
    expect(weekDueAt(MONDAY_0759, TZ)).toBeUndefined();
    expect(weekDueAt(MONDAY_0800, TZ)).toEqual({ from: '2030-11-18', to: '2030-11-24', timeZone: TZ });
    expect(weekDueAt(new Date('2030-12-01T23:00:00Z'), TZ)).toEqual({ from: '2030-11-18', to: '2030-11-24', timeZone: TZ }); // Sunday evening
    // Clocks went forward on Sunday March 10, 2030: 8:00 is 12:00 UTC.
    expect(weekDueAt(new Date('2030-03-11T11:59:00Z'), TZ)).toBeUndefined();
    expect(weekDueAt(new Date('2030-03-11T12:00:00Z'), TZ)?.from).toBe('2030-03-04');
    expect(weekDueAt(new Date('2030-11-25T13:00:00Z'), 'America/Los_Angeles')).toBeUndefined(); // 5:00 in Los Angeles
    // Send now takes the last complete week, before 8:00 too.
    expect(lastCompleteWeek(MONDAY_0759, TZ)).toEqual({ from: '2030-11-18', to: '2030-11-24', timeZone: TZ });
  });
});

describe('a source', () => {
  it('reads as people say it', () => {
    expect(sourceLabel({ origin: 'referrer', value: 'Direct' })).toBe('Direct');
    expect(sourceLabel({ origin: 'referrer', value: 'google.com' })).toBe('google.com');
    expect(sourceLabel({ origin: 'offline', value: '' })).toBe('Offline / entered by staff');
    expect(sourceLabel({ origin: 'unrecorded', value: '' })).toBe('Website, visit not recorded');
  });
});

describe('the weekly report job', () => {
  it('queues nothing before Monday 8:00 and the week just ended from then, to the active admins who opted in', async () => {
    expect(await run(MONDAY_0759)).toBe(0);
    expect(await queued()).toEqual([]);
    expect(await run(MONDAY_0800)).toBe(2);
    expect(await queued()).toEqual([
      { to_address: 'ann@keystone.test', dedupe_key: `weekly-report:2030-11-18:${ann}`, from: '2030-11-18' },
      {
        to_address: 'bob@keystone.test',
        dedupe_key: expect.stringMatching(/^weekly-report:2030-11-18:[0-9a-f-]{36}$/),
        from: '2030-11-18',
      },
    ]);
  });

  it('sends the exact figures of the week and the change from the week before, sources and follow-ups, escaped in HTML', async () => {
    await run(MONDAY_0800);
    await t.outbox.flush();
    const [mail] = mailTo(mailSink.sink.messages, 'ann@keystone.test');
    expect(mail!.parsed.subject).toBe('Weekly report: Nov 18 – Nov 24, 2030');
    const text = mail!.parsed.text!;
    expect(text).toContain(
      [
        'Visitors: 91 (up 50 from 41)',
        'Leads: 6 (up 4 from 2)',
        'Calls booked: 3 (up 2 from 1)',
        'Clients won: 5 (up 4 from 1)',
        'Fees: $10,520.50 (up $8,520.50 from $2,000)',
      ].join('\n'),
    );
    expect(text).toContain(
      `Top sources by clients\n${['google.com: 2 clients, $7,500.50 in fees', `${HOSTILE}: 2 clients, $20 in fees`, 'Offline / entered by staff: 1 client, $3,000 in fees'].join('\n')}\n`,
    );
    expect(text).not.toMatch(/^Direct:/m); // no client came direct
    expect(text).toContain('3 leads have follow-ups due on or before Monday, November 25, 2030:');
    expect(text).toContain('Dan Direct: Wed, Nov 20, 2030\nOtto Offline: Sun, Nov 24, 2030\nSam Staff: Mon, Nov 25, 2030\n');
    expect(text).not.toContain('Gina Google: ');
    expect(text).toContain('https://crm.keystone.test/dashboard/analytics?period=custom&from=2030-11-18&to=2030-11-24');
    const html = String(mail!.parsed.html);
    expect(html).not.toContain('<script>');
    expect(html).toContain('x&quot;&gt;&lt;script&gt;alert(1)&lt;/script&gt;.example');
    expect(mailTo(mailSink.sink.messages, 'bob@keystone.test')).toHaveLength(1);
    expect(mailTo(mailSink.sink.messages, 'carl@keystone.test')).toHaveLength(0);
    expect(mailTo(mailSink.sink.messages, 'dora@keystone.test')).toHaveLength(0);
  });

  it('forgets a lead deleted after the report was queued: its name leaves the stored report', async () => {
    await run(MONDAY_0800);
    const owner = await signIn(t.json, 'carl@keystone.test', 'carl-password');
    const [dan] = await rowsOf<{ id: string }>(database.db, sql`select id from leads where full_name = 'Dan Direct'`);
    expect((await t.json('DELETE', `/api/leads/${dan!.id}`, undefined, { cookie: owner })).status).toBe(200);
    const stored = await rowsOf<{ data: string }>(database.db, sql`select data::text as data from emails where kind = 'weekly-report'`);
    expect(stored.length).toBeGreaterThan(0);
    for (const { data } of stored) {
      expect(data).not.toContain('Dan Direct');
      expect(data).toContain('Otto Offline');
    }
  });

  it('is queued once per admin and week, however many runs, and again the next week', async () => {
    expect(await run(MONDAY_0800)).toBe(2);
    expect(await run(MONDAY_0800)).toBe(0);
    expect(await run(WEDNESDAY)).toBe(0);
    expect(await queued()).toHaveLength(2);
    // Carl opts in on Wednesday: he gets that week's report at the next run, nobody else again.
    const carl = await signIn(t.json, 'carl@keystone.test', 'carl-password');
    const res = await t.json('PATCH', '/api/account/preferences', { email_weekly_report: true }, { cookie: carl });
    expect(await res.json()).toEqual({
      email_new_leads: true,
      email_appointments: false,
      email_weekly_report: true,
      email_replies: false,
      email_task_digest: false,
    });
    expect(await run(WEDNESDAY)).toBe(1);
    expect((await queued()).map((e) => e.to_address)).toEqual(['ann@keystone.test', 'bob@keystone.test', 'carl@keystone.test']);
    expect(await run(NEXT_MONDAY_0800)).toBe(3);
    expect((await queued()).filter((e) => e.from === '2030-11-25')).toHaveLength(3);
  });

  it('two processes running it at once queue one each', async () => {
    const results = await Promise.all([run(MONDAY_0800), run(MONDAY_0800), run(MONDAY_0800)]);
    expect(results.reduce((a, b) => a + b, 0)).toBe(2);
    expect((await queued()).map((e) => e.to_address)).toEqual(['ann@keystone.test', 'bob@keystone.test']);
  });

  it('a server down on Monday morning sends it when it is back that week, and never an older week', async () => {
    expect(await run(THURSDAY)).toBe(2);
    expect((await queued()).map((e) => e.from)).toEqual(['2030-11-18', '2030-11-18']);
  });
});

describe('POST /api/email/weekly-report (Send now)', () => {
  it("queues the last complete week's report to the signed-in owner alone, at once", async () => {
    const cookie = await signIn(t.json, 'carl@keystone.test', 'carl-password'); // opted out: Send now still sends
    const res = await t.json('POST', '/api/email/weekly-report', undefined, { cookie });
    expect(res.status).toBe(202);
    const { id } = (await res.json()) as { id: string };
    const rows = await rowsOf<{ id: string; to_address: string; dedupe_key: string | null }>(
      database.db,
      sql`select id, to_address, dedupe_key from emails where kind = 'weekly-report'`,
    );
    expect(rows).toEqual([{ id, to_address: 'carl@keystone.test', dedupe_key: null }]);
    await t.outbox.flush();
    expect(mailSink.sink.messages.map((m) => m.envelope.to)).toEqual([['carl@keystone.test']]);
    expect(mailSink.sink.messages[0]!.parsed.subject).toMatch(/^Weekly report: /);
    // Twice is twice: it is a person asking, not the job.
    expect((await t.json('POST', '/api/email/weekly-report', undefined, { cookie })).status).toBe(202);
    expect(await rowsOf(database.db, sql`select 1 from emails where kind = 'weekly-report'`)).toHaveLength(2);
    // And the Monday job still queues the opted-in admins' reports.
    expect(await run(MONDAY_0800)).toBe(2);
  });

  it('is refused to staff, and while email is off', async () => {
    const staff = await signIn(t.json, 'bob@keystone.test', 'bob-password');
    expect((await t.json('POST', '/api/email/weekly-report', undefined, { cookie: staff })).status).toBe(403);
    const off = createTestApp(database, { BUSINESS_TIME_ZONE: TZ });
    const owner = await signIn(off.json, 'ann@keystone.test', 'ann-password');
    const res = await off.json('POST', '/api/email/weekly-report', undefined, { cookie: owner });
    expect(res.status).toBe(422);
    expect(await rowsOf(database.db, sql`select 1 from emails where kind = 'weekly-report'`)).toEqual([]);
  });
});
