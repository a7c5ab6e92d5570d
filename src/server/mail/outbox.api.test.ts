import { sql } from 'drizzle-orm';
import ICAL from 'ical.js';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ensureAdmin } from '../auth/accounts.ts';
import { queueLeadReminders } from '../db/queries/appointments-queries.ts';
import { createLead } from '../db/queries/leads-queries.ts';
import { execute } from '../db/sql.ts';
import { createTestApp, signIn, validLead } from '../test/test-app.ts';
import { rowsOf, useTestDatabase } from '../test/database.ts';
import { saveWebsiteContent } from '../db/queries/website-queries.ts';
import { defaultWebsiteContent } from '#shared/website-content';
import { mailTo, startMailSink, type ReceivedMail } from '../test/mail-sink.ts';
import { useMailSink } from '../test/use-mail-sink.ts';

/**
 * Email end to end through a real SMTP server: what the product queues in the same statement
 * as the change, what the outbox sends, and what arrives (parsed with mailparser; the
 * invitations with ical.js).
 */
const database = useTestDatabase();
const smtp = useMailSink();
const { refused } = smtp;
let t: ReturnType<typeof createTestApp>;
let cookie: string;
// A route nudges the outbox without waiting: let what it started finish inside its own test.
afterEach(async () => {
  await t.outbox.stop();
});
beforeEach(async () => {
  await execute(
    database.db,
    sql`truncate users, sessions, leads, appointments, notifications, emails, rate_limits, website_settings, public_mail_spends cascade`,
  );
  smtp.sink.messages.length = 0;
  refused.clear();
  t = createTestApp(database, {
    SMTP_URL: smtp.sink.url,
    MAIL_FROM: '"Keystone Due Diligence" <hello@keystone.test>',
    MAIL_REPLY_TO: 'team@keystone.test',
    SITE_NAME: 'Keystone Due Diligence',
    SITE_EMAIL: 'info@keystone.test',
    SITE_PHONE: '(301) 555-0100',
    PUBLIC_URL: 'https://crm.keystone.test',
    BUSINESS_TIME_ZONE: 'America/New_York',
  });
  await ensureAdmin(database.db, 'ann@keystone.test', 'ann-password');
  await ensureAdmin(database.db, 'bob@keystone.test', 'bob-password');
  cookie = await signIn(t.json, 'ann@keystone.test', 'ann-password');
});

const statuses = () =>
  rowsOf<{ kind: string; to_address: string; status: string; last_error: string | null; attempts: number }>(
    database.db,
    sql`select kind, to_address, status, last_error, attempts from emails order by created_at, to_address`,
  );

async function submitLead(overrides: Record<string, unknown> = {}) {
  const lead = validLead({ full_name: 'Jane Doe', email: 'jane@example.com', ...overrides });
  const res = await t.json('POST', '/api/public/leads', lead);
  expect(res.status).toBe(201);
  return lead;
}

/** The addresses of a message's To header. */
const addresses = (mail: ReceivedMail) => [mail.parsed.to ?? []].flat().flatMap((to) => to.value);

function calendarOf(mail: ReceivedMail) {
  const attachment = mail.parsed.attachments.find((a) => a.filename === 'invite.ics');
  expect(attachment, 'an invite.ics attachment').toBeDefined();
  const text = attachment!.content.toString('utf8');
  const calendar = new ICAL.Component(ICAL.parse(text));
  const event = calendar.getFirstSubcomponent('vevent')!;
  return {
    method: calendar.getFirstPropertyValue('method'),
    uid: event.getFirstPropertyValue('uid'),
    sequence: event.getFirstPropertyValue('sequence'),
    status: event.getFirstPropertyValue('status'),
    start: (event.getFirstPropertyValue('dtstart') as ICAL.Time).toJSDate().toISOString(),
    attendee: String(event.getFirstPropertyValue('attendee')),
    organizer: String(event.getFirstPropertyValue('organizer')),
    contentType: mail.parsed.attachments.find((a) => a.contentType === 'text/calendar'),
  };
}

describe('the firm’s brand and contact block in every message', () => {
  it('is the one saved in Settings → Website, read when the message is sent', async () => {
    await submitLead();
    await t.outbox.flush();
    await smtp.sink.waitFor((m) => m.length === 3);
    expect(mailTo(smtp.sink.messages, 'jane@example.com')[0]!.parsed.text).toContain('Frederick, MD');

    smtp.sink.messages.length = 0;
    await saveWebsiteContent(database.db, { ...defaultWebsiteContent('Keystone Due Diligence'), city: 'Annapolis, MD' });
    await submitLead({ full_name: 'Jim Doe', email: 'jim@example.com' });
    await t.outbox.flush();
    await smtp.sink.waitFor((m) => m.length === 3);
    for (const mail of smtp.sink.messages) {
      expect(mail.parsed.text).toContain('Annapolis, MD');
      expect(mail.parsed.text).not.toContain('Frederick, MD');
    }
  });

  it('names the brand, email and phone saved in Settings → Website, while the sender, the Message-IDs and the invitation’s UID stay MAIL_FROM’s', async () => {
    await submitLead();
    await t.outbox.flush();
    await smtp.sink.waitFor((m) => m.length === 3);
    const [lead] = await rowsOf<{ id: string }>(database.db, sql`select id from leads`);
    const created = await t.json(
      'POST',
      '/api/appointments',
      { lead_id: lead!.id, date: '2031-01-15', time: '10:00', type: 'Call' },
      { cookie },
    );
    const { id } = (await created.json()) as { id: string };
    await t.outbox.flush();
    const [before] = mailTo(await smtp.sink.waitFor((m) => m.length === 4), 'jane@example.com').slice(-1);
    expect(before!.parsed.subject).toBe('Confirmed: your call with Keystone Due Diligence, Wed, Jan 15, 10:00 AM');

    smtp.sink.messages.length = 0;
    await saveWebsiteContent(database.db, {
      ...defaultWebsiteContent('Keystone Due Diligence'),
      site_name: 'Chesapeake Underwriting',
      email: 'desk@chesapeake.test',
      phone: '(443) 555-0142',
    });
    await t.json('PATCH', `/api/appointments/${id}`, { date: '2031-07-15', time: '10:00' }, { cookie });
    await t.outbox.flush();
    const [after] = mailTo(await smtp.sink.waitFor((m) => m.length === 1), 'jane@example.com');
    expect(after!.parsed.subject).toBe('Updated: your call with Chesapeake Underwriting, Tue, Jul 15, 10:00 AM');
    for (const part of ['Chesapeake Underwriting', '(443) 555-0142', 'desk@chesapeake.test']) expect(after!.parsed.text).toContain(part);
    expect(after!.parsed.text).not.toContain('Keystone Due Diligence');
    // The sender and the domain of the Message-ID and of the event's UID are MAIL_FROM's, so the calendar updates the same event.
    expect(after!.parsed.from?.value).toEqual([{ name: 'Keystone Due Diligence', address: 'hello@keystone.test' }]);
    expect(after!.parsed.messageId).toMatch(/@keystone\.test>$/);
    expect(calendarOf(after!).uid).toBe(calendarOf(before!).uid);
    expect(calendarOf(after!).uid).toBe(`${id}@keystone.test`);
    expect(calendarOf(after!).organizer).toBe('mailto:hello@keystone.test');
  });
});

describe('a new lead', () => {
  it('is announced to every admin and acknowledged to the person, in plain text and HTML, with nothing remote in them', async () => {
    await submitLead({ message: 'A 12-unit building <b>in</b> Baltimore.', phone: '(410) 555-0142', property_types: ['multifamily'] });
    await t.outbox.flush();
    await smtp.sink.waitFor((m) => m.length === 3);

    const [lead] = await rowsOf<{ id: string }>(database.db, sql`select id from leads`);
    for (const admin of ['ann@keystone.test', 'bob@keystone.test']) {
      const [mail] = mailTo(smtp.sink.messages, admin);
      expect(mail!.parsed.subject).toBe('New lead: Jane Doe');
      expect(mail!.parsed.from?.value).toEqual([{ name: 'Keystone Due Diligence', address: 'hello@keystone.test' }]);
      expect(mail!.parsed.replyTo?.value).toEqual([{ name: '', address: 'team@keystone.test' }]);
      const text = mail!.parsed.text!;
      for (const part of ['Jane Doe', 'jane@example.com', '(410) 555-0142', 'Multifamily', 'A 12-unit building <b>in</b> Baltimore.'])
        expect(text).toContain(part);
      expect(text).toContain(`https://crm.keystone.test/dashboard/leads/${lead!.id}`);
      expect(mail!.parsed.html).toContain('A 12-unit building &lt;b&gt;in&lt;/b&gt; Baltimore.');
      expect(mail!.parsed.html).not.toMatch(/<img|src=|url\(/i);
    }
    const [ack] = mailTo(smtp.sink.messages, 'jane@example.com');
    expect(ack!.parsed.subject).toBe('We received your request: Keystone Due Diligence');
    // Mail a visitor caused goes to the bare address: the name they typed is no display name.
    expect(addresses(ack!)).toEqual([{ name: '', address: 'jane@example.com' }]);
    expect(ack!.parsed.text).toContain('within one business day');
    expect(ack!.parsed.text).toContain('(301) 555-0100');
    expect(ack!.parsed.text).toContain('info@keystone.test');
    expect(ack!.parsed.html).toMatch(/<html/);

    // Each message went out under the Message-ID it was queued with.
    const ids = await rowsOf<{ message_id: string }>(
      database.db,
      sql`select message_id from emails where status = 'sent' order by message_id`,
    );
    expect(smtp.sink.messages.map((m) => m.parsed.messageId).sort()).toEqual(ids.map((r) => r.message_id));
    expect(ids.every((r) => /^<[0-9a-f-]{36}@keystone\.test>$/.test(r.message_id))).toBe(true);
  });

  it('is acknowledged once for a double click or a retry of the same form', async () => {
    const lead = await submitLead();
    expect((await t.json('POST', '/api/public/leads', lead)).status).toBe(201);
    expect((await t.json('POST', '/api/public/leads', lead)).status).toBe(201);
    await t.outbox.flush();
    await smtp.sink.waitFor((m) => m.length === 3);
    expect(mailTo(smtp.sink.messages, 'jane@example.com')).toHaveLength(1);
    expect(await statuses()).toHaveLength(3);
  });

  it('forgets what was written to or about a lead when the lead is deleted', async () => {
    await submitLead();
    const [lead] = await rowsOf<{ id: string }>(database.db, sql`select id from leads`);
    expect(await statuses()).toHaveLength(3);
    expect((await t.json('DELETE', `/api/leads/${lead!.id}`, undefined, { cookie })).status).toBe(200);
    expect(await statuses()).toEqual([]);
  });

  it('respects an admin who turned the new-lead email off, and does not write to the admin who typed the lead in', async () => {
    const res = await t.json(
      'PATCH',
      '/api/account/preferences',
      { email_new_leads: false },
      { cookie: await signIn(t.json, 'bob@keystone.test', 'bob-password') },
    );
    expect(await res.json()).toEqual({
      email_new_leads: false,
      email_appointments: false,
      email_weekly_report: false,
      email_replies: false,
      email_task_digest: false,
    });
    // Ann adds a lead herself: Bob opted out, Ann typed it, and a lead entered by staff is not acknowledged.
    expect((await t.json('POST', '/api/leads', validLead({ submission_id: undefined, fill_ms: undefined }), { cookie })).status).toBe(201);
    await t.outbox.flush();
    expect(await statuses()).toEqual([]);
    // A public lead: Ann hears of it, Bob does not.
    await submitLead({ email: 'second@example.com' });
    await t.outbox.flush();
    await smtp.sink.waitFor((m) => m.length === 2);
    expect(smtp.sink.messages.flatMap((m) => m.envelope.to).sort()).toEqual(['ann@keystone.test', 'second@example.com']);
  });

  it('writes nothing to a deactivated account, whatever it chose (a former colleague gets no lead or appointment details)', async () => {
    await execute(
      database.db,
      sql`update users set email_new_leads = true, email_appointments = true, deactivated_at = now() where email = 'bob@keystone.test'`,
    );
    await submitLead({ email: 'third@example.com' });
    const [lead] = await rowsOf<{ id: string }>(database.db, sql`select id from leads`);
    await t.json('POST', '/api/appointments', { lead_id: lead!.id, date: '2031-03-03', time: '09:30', type: 'Call' }, { cookie });
    await t.outbox.flush();
    expect(await rowsOf(database.db, sql`select 1 from emails where to_address = 'bob@keystone.test'`)).toEqual([]);
    expect((await rowsOf(database.db, sql`select 1 from emails where to_address = 'ann@keystone.test'`)).length).toBeGreaterThan(0);
  });

  it('cannot add a header or a recipient, whatever the person typed as their name', async () => {
    const name = 'Eve "Mallory", Jr.\r\nBcc: thief@evil.test\r\nX-Injected: yes 李雷 🏠';
    await submitLead({ full_name: name, email: 'eve@example.com' });
    await t.outbox.flush();
    await smtp.sink.waitFor((m) => m.length === 3);
    for (const mail of smtp.sink.messages) {
      const headers = mail.raw.slice(0, mail.raw.indexOf('\r\n\r\n'));
      expect(mail.envelope.to).toHaveLength(1);
      expect(headers).not.toMatch(/^X-Injected:/im);
      expect(headers).not.toMatch(/^Bcc:/im);
      expect(mail.parsed.bcc).toBeUndefined();
    }
    const [ack] = mailTo(smtp.sink.messages, 'eve@example.com');
    expect(addresses(ack!).map((a) => a.address)).toEqual(['eve@example.com']);
    const [toAnn] = mailTo(smtp.sink.messages, 'ann@keystone.test');
    expect(toAnn!.parsed.subject).toBe('New lead: Eve "Mallory", Jr. Bcc: thief@evil.test X-Injected: yes 李雷 🏠');
    expect(smtp.sink.messages.flatMap((m) => m.envelope.to)).not.toContain('thief@evil.test');
  });
});

describe('appointments', () => {
  async function leadId() {
    await submitLead({ full_name: 'Jane Doe', email: 'jane@example.com' });
    await t.outbox.flush();
    await smtp.sink.waitFor((m) => m.length === 3);
    smtp.sink.messages.length = 0;
    return (await rowsOf<{ id: string }>(database.db, sql`select id from leads`))[0]!.id;
  }

  it('send the lead an invitation, its update and its cancellation that calendars apply in place, at the right moment', async () => {
    const lead = await leadId();
    // Winter and summer: 10:00 in New York is 15:00 UTC in January and 14:00 UTC in July.
    const created = await t.json(
      'POST',
      '/api/appointments',
      { lead_id: lead, date: '2031-01-15', time: '10:00', type: 'Call' },
      { cookie },
    );
    const { id } = (await created.json()) as { id: string };
    await t.outbox.flush();
    await t.json('PATCH', `/api/appointments/${id}`, { date: '2031-07-15', time: '10:00' }, { cookie });
    await t.outbox.flush();
    await t.json('PATCH', `/api/appointments/${id}`, { notes: 'Staff notes only: the lead is not told' }, { cookie });
    await t.outbox.flush();
    await t.json('DELETE', `/api/appointments/${id}`, undefined, { cookie });
    await t.outbox.flush();
    const mails = mailTo(await smtp.sink.waitFor((m) => m.length === 3), 'jane@example.com');

    expect(mails.map((m) => m.parsed.subject)).toEqual([
      'Confirmed: your call with Keystone Due Diligence, Wed, Jan 15, 10:00 AM',
      'Updated: your call with Keystone Due Diligence, Tue, Jul 15, 10:00 AM',
      'Cancelled: your call with Keystone Due Diligence, Tue, Jul 15, 10:00 AM',
    ]);
    const events = mails.map(calendarOf);
    expect(events.map((e) => [e.method, e.sequence, e.status, e.start])).toEqual([
      ['REQUEST', 0, 'CONFIRMED', '2031-01-15T15:00:00.000Z'],
      ['REQUEST', 1, 'CONFIRMED', '2031-07-15T14:00:00.000Z'],
      ['CANCEL', 2, 'CANCELLED', '2031-07-15T14:00:00.000Z'],
    ]);
    expect(new Set(events.map((e) => e.uid))).toEqual(new Set([`${id}@keystone.test`]));
    expect(events[0]!.attendee).toBe('mailto:jane@example.com');
    expect(events[0]!.organizer).toBe('mailto:hello@keystone.test');
    expect(mails[0]!.parsed.text).toContain('Wednesday, January 15, 2031 at 10:00 AM EST');
    expect(mails[1]!.parsed.text).toContain('Tuesday, July 15, 2031 at 10:00 AM EDT');
  });

  it('send admins who opted in the same event, and none for an appointment already past', async () => {
    await t.json('PATCH', '/api/account/preferences', { email_appointments: true }, { cookie });
    const lead = await leadId();
    await t.json(
      'POST',
      '/api/appointments',
      { lead_id: lead, date: '2031-03-03', time: '09:30', type: 'Zoom', notes: 'Bring the rent roll' },
      { cookie },
    );
    await t.json('POST', '/api/appointments', { lead_id: lead, date: '2020-03-03', time: '09:30', type: 'Zoom' }, { cookie });
    await t.outbox.flush();
    await smtp.sink.waitFor((m) => m.length === 2);
    const [staff] = mailTo(smtp.sink.messages, 'ann@keystone.test');
    expect(staff!.parsed.subject).toBe('Scheduled: Zoom with Jane Doe, Mon, Mar 3, 9:30 AM');
    expect(staff!.parsed.text).toContain('Bring the rent roll');
    expect(calendarOf(staff!).uid).toBe(calendarOf(mailTo(smtp.sink.messages, 'jane@example.com')[0]!).uid);
    expect(mailTo(smtp.sink.messages, 'bob@keystone.test')).toEqual([]);
  });
});

describe('the lead reminder', () => {
  const appointmentIn = async (hours: number) => {
    await submitLead();
    const [lead] = await rowsOf<{ id: string }>(database.db, sql`select id from leads`);
    const [row] = await rowsOf<{ id: string }>(
      database.db,
      sql`
      insert into appointments (lead_id, date, time, type)
      select ${lead!.id}, (t at time zone 'America/New_York')::date, (t at time zone 'America/New_York')::time, 'Call'
      from (select date_trunc('minute', now() + make_interval(hours => ${hours})) as t) x
      returning id`,
    );
    return row!.id;
  };
  const mail = { domain: 'keystone.test', sending: true, timeZone: 'America/New_York', leadReminderHours: 24 };

  it('is queued once, a day ahead, however often the job runs', async () => {
    await appointmentIn(20);
    expect(await queueLeadReminders(database.db, mail)).toBe(1);
    expect(await queueLeadReminders(database.db, mail)).toBe(0);
    await t.outbox.flush();
    await smtp.sink.waitFor((m) => mailTo(m, 'jane@example.com').some((x) => x.parsed.subject?.startsWith('Reminder:')));
    expect(mailTo(smtp.sink.messages, 'jane@example.com').filter((x) => x.parsed.subject?.startsWith('Reminder:'))).toHaveLength(1);
  });

  it('waits until the day before, and is not sent for an appointment made inside that day (the confirmation says it all)', async () => {
    await appointmentIn(30);
    expect(await queueLeadReminders(database.db, mail)).toBe(0);
    const lead = (await rowsOf<{ id: string }>(database.db, sql`select id from leads`))[0]!.id;
    const soon = new Date(Date.now() + 3 * 3600_000).toLocaleString('sv-SE', { timeZone: 'America/New_York' });
    await t.json(
      'POST',
      '/api/appointments',
      { lead_id: lead, date: soon.slice(0, 10), time: soon.slice(11, 16), type: 'Call' },
      { cookie },
    );
    expect(await queueLeadReminders(database.db, mail)).toBe(0);
  });
});

describe('delivery outcomes', () => {
  it('marks a message the server refuses for good as failed with its reply, and sends the others', async () => {
    refused.set('bob@keystone.test', '550 5.1.1 <bob@keystone.test>: Recipient address rejected');
    await submitLead();
    await t.outbox.flush();
    await smtp.sink.waitFor((m) => m.length === 2);
    const rows = await statuses();
    expect(rows.find((r) => r.to_address === 'bob@keystone.test')).toMatchObject({ status: 'failed', attempts: 1 });
    expect(rows.find((r) => r.to_address === 'bob@keystone.test')!.last_error).toMatch(/^550 .*Recipient address rejected/);
    expect(
      rows
        .filter((r) => r.status === 'sent')
        .map((r) => r.to_address)
        .sort(),
    ).toEqual(['ann@keystone.test', 'jane@example.com']);
  });

  it('tries a message refused for now (4xx) again later, and a failed one again when asked', async () => {
    refused.set('bob@keystone.test', '451 4.3.0 Try again later');
    await submitLead();
    await t.outbox.flush();
    const [bob] = await rowsOf<{ id: string; status: string; attempts: number; later: boolean }>(
      database.db,
      sql`select id, status, attempts, next_attempt_at > now() + interval '40 seconds' as later from emails where to_address = 'bob@keystone.test'`,
    );
    expect(bob).toMatchObject({ status: 'queued', attempts: 1, later: true });

    await execute(database.db, sql`update emails set status = 'failed' where id = ${bob!.id}`);
    refused.clear();
    const retried = await t.json('POST', `/api/email/${bob!.id}/retry`, undefined, { cookie });
    expect(retried.status).toBe(200);
    await t.outbox.flush();
    await smtp.sink.waitFor((m) => mailTo(m, 'bob@keystone.test').length === 1);
    const again = await t.json('POST', `/api/email/${bob!.id}/retry`, undefined, { cookie });
    expect(again.status).toBe(422);
  });

  it('keeps the whole queue, counting no attempt, while the server cannot be reached', async () => {
    const closed = await startMailSink();
    await closed.close(); // a port nobody listens on
    const offline = createTestApp(database, { SMTP_URL: closed.url });
    expect((await offline.json('POST', '/api/public/leads', validLead())).status).toBe(201);
    await offline.outbox.flush();
    const rows = await statuses();
    expect(rows).toHaveLength(3);
    for (const row of rows) expect(row).toMatchObject({ status: 'queued', attempts: 0 });
    expect(rows.map((r) => r.last_error).find(Boolean)).toMatch(/ECONNREFUSED/);
    await offline.outbox.stop();
  });

  it('records mail as not sent, and why, when email is off', async () => {
    const off = createTestApp(database, {});
    expect((await off.json('POST', '/api/public/leads', validLead())).status).toBe(201);
    await off.outbox.flush();
    for (const row of await statuses()) expect(row).toMatchObject({ status: 'not_sent', last_error: expect.stringContaining('SMTP_URL') });
    const overview = (await (await off.json('GET', '/api/email', undefined, { cookie })).json()) as {
      enabled: boolean;
      messages: { to: string; status: string }[];
    };
    expect(overview.enabled).toBe(false);
    expect(overview.messages.map((m) => m.to)).toContain('jane@example.com');
    // Nothing to test or retry without a mail server: a clear 422, and nothing queued.
    const [unsent] = await statuses();
    for (const path of [
      '/api/email/test',
      `/api/email/${(await rowsOf<{ id: string }>(database.db, sql`select id from emails limit 1`))[0]!.id}/retry`,
    ]) {
      const res = await off.json('POST', path, undefined, { cookie });
      expect(res.status).toBe(422);
      expect(((await res.json()) as { error: { message: string } }).error.message).toBe(
        'Email is off: set SMTP_URL and restart the server to send email.',
      );
    }
    expect(await statuses()).toHaveLength(3);
    expect(unsent!.status).toBe('not_sent');
  });

  it('marks mail queued before a restart without SMTP_URL as not sent', async () => {
    const lead = { full_name: 'Jane Investor', email: 'jane@example.com', phone: '(301) 555-0199', property_types: ['land' as const] };
    await createLead(database.db, lead, { mail: { domain: 'keystone.test', sending: true, acknowledge: true } });
    expect((await statuses()).map((r) => r.status)).toEqual(['queued', 'queued', 'queued']);
    const off = createTestApp(database, {});
    await off.outbox.flush();
    for (const row of await statuses()) expect(row).toMatchObject({ status: 'not_sent', last_error: expect.stringContaining('SMTP_URL') });
    expect(smtp.sink.messages).toHaveLength(0);
  });
});

describe('the Email settings API', () => {
  it('shows the server without its password, the sender and the newest messages, and sends a test email to the admin', async () => {
    const secret = createTestApp(database, {
      SMTP_URL: `smtp://mailer:s3cret-pass@127.0.0.1:${smtp.sink.port}`,
      MAIL_FROM: 'Keystone <hello@keystone.test>',
    });
    const res = await secret.json('POST', '/api/email/test', undefined, { cookie });
    expect(res.status).toBe(202);
    await secret.outbox.flush();
    await smtp.sink.waitFor((m) => mailTo(m, 'ann@keystone.test').length === 1);
    expect(smtp.sink.messages[0]!.parsed.subject).toBe('Test email from Keystone Due Diligence');
    const overview = await (await secret.json('GET', '/api/email', undefined, { cookie })).text();
    expect(overview).not.toContain('s3cret-pass');
    expect(JSON.parse(overview)).toMatchObject({
      enabled: true,
      transport: `smtp://mailer@127.0.0.1:${smtp.sink.port}`,
      from: '"Keystone" <hello@keystone.test>',
      messages: [{ kind: 'test', to: 'ann@keystone.test', subject: 'Test email from Keystone Due Diligence', status: 'sent' }],
    });
  });
});
