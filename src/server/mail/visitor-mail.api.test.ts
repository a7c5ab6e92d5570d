import { sql } from 'drizzle-orm';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Availability } from '#shared/schemas/booking';
import { addDays, zonedParts } from '#shared/zoned-time';
import { ensureAdmin } from '../auth/accounts.ts';
import { appointmentMailOf, queueLeadReminders } from '../db/queries/appointments-queries.ts';
import { saveBookingSettings } from '../db/queries/bookings-queries.ts';
import { newEmail, publicMailBudgetLeft, PUBLIC_MAIL_BUDGET_REASON, visitorBudget } from '../db/queries/emails-queries.ts';
import { execute } from '../db/sql.ts';
import { createTestApp, signIn, validLead } from '../test/test-app.ts';
import { OPEN_EVERY_DAY } from '../test/open-every-day.ts';
import { rowsOf, useTestDatabase } from '../test/database.ts';
import { mailTo } from '../test/mail-sink.ts';
import { useMailSink } from '../test/use-mail-sink.ts';

/**
 * Mail that website visitors cause (docs/security.md, "Mail that visitors cause"): at most
 * PUBLIC_MAIL_PER_ADDRESS_PER_DAY (5) messages to one outside address in 24 hours, whatever
 * they do; the rest recorded not sent, with why, while the actions themselves still work; one
 * acknowledgement per address per 30 days; the bare address in To:; and a booking's private
 * link gone from the stored message once it is sent, and never in the person's export.
 * Through the real outbox and a real SMTP server.
 */
const TZ = 'America/New_York';
const VICTIM = 'victim@example.net';
const TYPED_NAME = 'Visit http://evil.example/prize';
const database = useTestDatabase();
const mailSink = useMailSink();
let t: ReturnType<typeof createTestApp>;
let cookie: string;

afterEach(async () => {
  await t.outbox.stop();
});
beforeEach(async () => {
  await execute(
    database.db,
    sql`truncate users, sessions, leads, appointments, booking_settings, booking_tokens, notifications, emails, rate_limits, public_mail_spends cascade`,
  );
  mailSink.sink.messages.length = 0;
  t = createTestApp(database, {
    SMTP_URL: mailSink.sink.url,
    MAIL_FROM: '"Keystone Due Diligence" <hello@keystone.test>',
    PUBLIC_URL: 'https://crm.keystone.test',
    BUSINESS_TIME_ZONE: TZ,
    // The shipped defaults: 10 forms per IP per hour, 5 visitor emails per address per day.
    LEAD_RATE_LIMIT: '10',
  });
  await ensureAdmin(database.db, 'ann@keystone.test', 'ann-password');
  await execute(database.db, sql`update users set email_new_leads = false, email_appointments = false`);
  cookie = await signIn(t.json, 'ann@keystone.test', 'ann-password');
  await saveBookingSettings(database.db, OPEN_EVERY_DAY);
  await execute(database.db, sql`update user_availability set holidays_off = false`);
});

const day = (n: number) => addDays(zonedParts(Date.now(), TZ).date, n);

async function form(email: string, overrides: Record<string, unknown> = {}): Promise<string> {
  const res = await t.json('POST', '/api/public/leads', validLead({ full_name: TYPED_NAME, email, ...overrides }));
  expect(res.status).toBe(201);
  return ((await res.json()) as { booking_token: string }).booking_token;
}

async function openSlots(from: number, to: number): Promise<string[]> {
  const res = await t.json('GET', `/api/public/availability?from=${day(from)}&to=${day(to)}`);
  expect(res.status).toBe(200);
  return ((await res.json()) as Availability).slots;
}

const victimRows = () =>
  rowsOf<{ kind: string; status: string; to_name: string | null; last_error: string | null; data: Record<string, unknown> }>(
    database.db,
    sql`select kind, status, to_name, last_error, data from emails where to_address = ${VICTIM} order by created_at, id`,
  );

describe('one outside address, 120 public actions from one IP in a minute', () => {
  it('receives at most 5 emails; every action still succeeds; the rest are recorded not sent with why; To: is the bare address', async () => {
    const slots = await openSlots(1, 10);
    expect(slots.length).toBeGreaterThanOrEqual(110);
    const statuses: number[] = [];
    // 10 forms (the per-IP limit), each answering a booking link...
    const tokens: string[] = [];
    for (let i = 0; i < 10; i++) tokens.push(await form(i % 2 === 0 ? VICTIM : ` Victim@Example.NET `));
    statuses.push(...tokens.map(() => 201));
    // ...10 bookings, one per link...
    for (const [i, token] of tokens.entries()) {
      statuses.push((await t.json('POST', '/api/public/bookings', { booking_token: token, start: slots[i], type: 'Call' })).status);
    }
    // ...and 100 moves, 10 per link (the per-link limit).
    for (const [i, token] of tokens.entries()) {
      for (let j = 0; j < 10; j++) {
        statuses.push((await t.json('PATCH', `/api/public/bookings/${token}`, { start: slots[10 + i * 10 + j], type: 'Call' })).status);
      }
    }
    expect(statuses).toHaveLength(120);
    expect(statuses).toEqual([...Array<number>(10).fill(201), ...Array<number>(10).fill(201), ...Array<number>(100).fill(200)]);

    await t.outbox.flush();
    const delivered = mailTo(mailSink.sink.messages, VICTIM);
    expect(delivered).toHaveLength(5);
    expect(delivered.map((m) => m.parsed.subject!.split(':')[0])).toEqual([
      'We received your request',
      'Confirmed',
      'Confirmed',
      'Confirmed',
      'Confirmed',
    ]);
    // Only the address in To:, never the name the visitor typed.
    for (const mail of delivered) {
      expect([mail.parsed.to].flat().flatMap((to) => to!.value)).toEqual([{ name: '', address: VICTIM }]);
      expect(mail.raw).not.toContain('evil.example/prize"');
      expect(mail.raw).toMatch(/^To: victim@example\.net\r?$/m);
    }

    // Nothing lost: every message is stored, the 115 not sent with the reason staff see.
    const rows = await victimRows();
    expect(rows).toHaveLength(120);
    expect(rows.filter((r) => r.status === 'sent')).toHaveLength(5);
    const notSent = rows.filter((r) => r.status === 'not_sent');
    expect(notSent).toHaveLength(115);
    expect(
      notSent.filter((r) => r.kind === 'lead-acknowledgement').every((r) => r.last_error!.includes('one per address per 30 days')),
    ).toBe(true);
    expect(notSent.filter((r) => r.kind === 'appointment')).toHaveLength(106);
    expect(notSent.filter((r) => r.kind === 'appointment').every((r) => r.last_error!.startsWith(PUBLIC_MAIL_BUDGET_REASON))).toBe(true);
    expect(rows.every((r) => r.to_name === null)).toBe(true);
    // The messages not sent keep no private link either.
    expect(rows.some((r) => 'manage_path' in r.data)).toBe(false);
    expect(await publicMailBudgetLeft(database.db, VICTIM, 5)).toBe(0);

    // Staff's own mail to the person is not capped: an appointment they schedule is sent.
    const [lead] = await rowsOf<{ id: string }>(database.db, sql`select id from leads where email = ${VICTIM}`);
    const made = await t.json('POST', '/api/appointments', { lead_id: lead!.id, date: day(20), time: '11:00', type: 'Call' }, { cookie });
    expect(made.status).toBe(201);
    await t.outbox.flush();
    expect(mailTo(mailSink.sink.messages, VICTIM)).toHaveLength(6);
    expect(mailTo(mailSink.sink.messages, VICTIM)[5]!.parsed.subject).toMatch(/^Confirmed: /);
  });

  it('PUBLIC_MAIL_PER_ADDRESS_PER_DAY=0 turns the budget off (the acknowledgement rule stays)', async () => {
    t = createTestApp(database, {
      SMTP_URL: mailSink.sink.url,
      PUBLIC_URL: 'https://crm.keystone.test',
      BUSINESS_TIME_ZONE: TZ,
      PUBLIC_MAIL_PER_ADDRESS_PER_DAY: '0',
    });
    const slots = await openSlots(1, 3);
    for (let i = 0; i < 7; i++) {
      const token = await form(VICTIM);
      expect((await t.json('POST', '/api/public/bookings', { booking_token: token, start: slots[i], type: 'Call' })).status).toBe(201);
    }
    await t.outbox.flush();
    expect(mailTo(mailSink.sink.messages, VICTIM)).toHaveLength(8); // 1 acknowledgement, 7 confirmations
    expect(await publicMailBudgetLeft(database.db, VICTIM, 0)).toBe(Infinity);
  });

  it('does not cap a team member’s own address', async () => {
    const slots = await openSlots(1, 3);
    for (let i = 0; i < 7; i++) {
      const token = await form('Ann@keystone.test');
      expect((await t.json('POST', '/api/public/bookings', { booking_token: token, start: slots[i], type: 'Call' })).status).toBe(201);
    }
    await t.outbox.flush();
    expect(mailTo(mailSink.sink.messages, 'ann@keystone.test')).toHaveLength(8);
    expect(await publicMailBudgetLeft(database.db, 'ann@keystone.test', 5)).toBe(Infinity);
  });
});

describe('what counts as mail a visitor caused', () => {
  it('the reminder of a call booked online, not of one staff scheduled', async () => {
    const token = await form(VICTIM);
    const [slot] = await openSlots(3, 3);
    expect((await t.json('POST', '/api/public/bookings', { booking_token: token, start: slot, type: 'Call' })).status).toBe(201);
    const [lead] = await rowsOf<{ id: string }>(database.db, sql`select id from leads where email = ${VICTIM}`);
    expect(
      (await t.json('POST', '/api/appointments', { lead_id: lead!.id, date: day(4), time: '11:00', type: 'Zoom' }, { cookie })).status,
    ).toBe(201);
    // A week's notice reaches both.
    expect(await queueLeadReminders(database.db, { ...appointmentMailOf(t.config), leadReminderHours: 7 * 24 })).toBe(2);
    const reminders = await rowsOf<{ source: string; visitor_budget: number | null; to_name: string | null }>(
      database.db,
      sql`select a.source, e.visitor_budget, e.to_name from emails e join appointments a on a.id = (e.data->>'appointment_id')::uuid
          where e.kind = 'appointment-reminder' order by a.source`,
    );
    expect(reminders).toEqual([
      { source: 'booking', visitor_budget: 5, to_name: null },
      { source: 'staff', visitor_budget: null, to_name: TYPED_NAME },
    ]);
    // The acknowledgement, the confirmation and the reminder: 2 left today.
    expect(await publicMailBudgetLeft(database.db, VICTIM)).toBe(2);
  });
});

describe('the budget across connections', () => {
  it('spends an address’s last unit once: 40 visitor emails queued at once, 5 queued and 35 not sent', async () => {
    const mail = { domain: 'keystone.test', sending: true, publicPerDay: 5 };
    expect(await publicMailBudgetLeft(database.db, VICTIM)).toBe(5);
    // On PostgreSQL the test database is a pool of 5 connections: these run side by side.
    await Promise.all(
      Array.from({ length: 40 }, (_, i) =>
        execute(
          database.db,
          sql`
          insert into emails (message_id, status, last_error, kind, to_address, to_name, data, visitor_budget)
          values (${newEmail(mail)}, 'appointment', ${i % 2 === 0 ? VICTIM : 'VICTIM@example.net'}, ${TYPED_NAME}, '{}'::jsonb, ${visitorBudget(mail)})`,
        ),
      ),
    );
    const rows = await rowsOf<{ status: string; n: number }>(
      database.db,
      sql`select status, count(*)::int as n from emails group by status order by status`,
    );
    expect(rows).toEqual([
      { status: 'not_sent', n: 35 },
      { status: 'queued', n: 5 },
    ]);
    expect(await publicMailBudgetLeft(database.db, ` ${VICTIM.toUpperCase()} `)).toBe(0);
    // Another address has its own budget; mail staff caused (no visitor_budget) spends none.
    expect(await publicMailBudgetLeft(database.db, 'someone@example.net')).toBe(5);
  });
});

describe('the acknowledgement', () => {
  it('goes to an address once per 30 days, however many forms it sends', async () => {
    await form(VICTIM);
    await form(VICTIM, { message: 'Again' });
    await form(VICTIM, { message: 'And again' });
    await t.outbox.flush();
    expect(mailTo(mailSink.sink.messages, VICTIM).map((m) => m.parsed.subject)).toEqual([
      'We received your request: Keystone Due Diligence',
    ]);
    const acks = await victimRows();
    expect(acks.map((r) => r.status)).toEqual(['sent', 'not_sent', 'not_sent']);

    // 29 days later: still none. 30 days and a minute after the first: one more.
    await execute(database.db, sql`update public_mail_spends set spent_at = spent_at - interval '29 days'`);
    await form(VICTIM, { message: 'A month on' });
    await t.outbox.flush();
    expect(mailTo(mailSink.sink.messages, VICTIM)).toHaveLength(1);
    await execute(database.db, sql`update public_mail_spends set spent_at = spent_at - interval '1 day 1 minute'`);
    await form(VICTIM, { message: 'Later still' });
    await t.outbox.flush();
    expect(mailTo(mailSink.sink.messages, VICTIM)).toHaveLength(2);
  });
});

describe('the private booking link at rest', () => {
  it('is in the stored message only until it is sent, and never in the person’s export', async () => {
    const token = await form(VICTIM, { full_name: 'Jane Doe' });
    const [slot] = await openSlots(2, 2);
    expect((await t.json('POST', '/api/public/bookings', { booking_token: token, start: slot, type: 'Call' })).status).toBe(201);
    const [lead] = await rowsOf<{ id: string }>(database.db, sql`select id from leads where email = ${VICTIM}`);
    const exported = async () => {
      const res = await t.json('GET', `/api/leads/${lead!.id}/export`, undefined, { cookie });
      expect(res.status).toBe(200);
      return res.text();
    };

    // Queued: the outbox needs it to write the message, the export leaves it out.
    const queued = await rowsOf<{ data: string }>(
      database.db,
      sql`select data::text as data from emails where kind = 'appointment' and status = 'queued'`,
    );
    expect(queued.map((r) => r.data).join()).toContain(token);
    expect(await exported()).not.toContain(token);

    await t.outbox.flush();
    // The person got it...
    expect(mailTo(mailSink.sink.messages, VICTIM).find((m) => m.parsed.subject!.startsWith('Confirmed'))!.parsed.text).toContain(
      `https://crm.keystone.test/booking/${token}`,
    );
    // ...and no stored message, nor the export, holds it any more.
    const all = await rowsOf<{ data: string }>(database.db, sql`select data::text as data from emails`);
    expect(all.length).toBeGreaterThan(0);
    expect(all.some((r) => r.data.includes(token))).toBe(false);
    expect(await exported()).not.toContain(token);
  });
});
