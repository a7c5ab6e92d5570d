import { sql } from 'drizzle-orm';
import { beforeEach, describe, expect, it } from 'vitest';
import type { CreatedApiKey } from '#shared/schemas/api-keys';
import { execute } from '../db/sql.ts';
import { rowsOf, useTestDatabase } from '../test/database.ts';
import { createTestApp, signIn, validLead } from '../test/test-app.ts';
import { useMailSink } from '../test/use-mail-sink.ts';
import { ensureAdmin } from './accounts.ts';
import { EMAIL_LIMIT_REACHED, NO_EMAIL_SCOPE } from './api-key-mail.ts';

/**
 * An API key cannot make the firm mail anyone it likes: without email:send its appointment
 * changes email nobody (and say so), and with it each counts against its maker's
 * LEAD_EMAIL_PER_HOUR, in the counter Send email uses.
 */
const database = useTestDatabase();
const smtp = useMailSink();
let t: ReturnType<typeof createTestApp>;
let cookie: string;

beforeEach(async () => {
  await execute(database.db, sql`truncate users, sessions, leads, appointments, emails, rate_limits cascade`);
  t = createTestApp(database, { SMTP_URL: smtp.sink.url, MAIL_FROM: 'hello@keystone.test', LEAD_EMAIL_PER_HOUR: '3' });
  await ensureAdmin(database.db, 'olive@keystone.test', 'olive-password', 'owner', 'Olive Owner');
  cookie = await signIn(t.json, 'olive@keystone.test', 'olive-password');
});

const makeKey = async (scopes: string[]) =>
  ((await (await t.json('POST', '/api/api-keys', { name: scopes.join(' '), scopes }, { cookie })).json()) as CreatedApiKey).key;
const asKey = (key: string) => ({ authorization: `Bearer ${key}`, origin: undefined });
const call = async (method: string, path: string, body: unknown, headers: Record<string, string | undefined>) => {
  const res = await t.json(method, path, body, headers);
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
};
/** Mail queued to the stranger the key chose, and what the appointments' messages say. */
const mailTo = async (address: string) =>
  (await rowsOf<{ n: number }>(database.db, sql`select count(*)::int as n from emails where to_address = ${address}`))[0]!.n;
/** Whether the lead's reminder is still to be sent (null) or was settled without one. */
const reminderPending = async (id: string) =>
  (
    await rowsOf<{ pending: boolean }>(database.db, sql`select lead_reminder_sent_at is null as pending from appointments where id = ${id}`)
  )[0]!.pending;

async function strangerLead(key: string, email: string) {
  const made = await call('POST', '/api/leads', validLead({ full_name: 'Mark Target', email }), asKey(key));
  expect(made.status).toBe(201);
  return made.body.id as string;
}

describe('mail an API key causes', () => {
  it('without email:send, scheduling, moving and cancelling succeed and email nobody, each answer saying so', async () => {
    const key = await makeKey(['leads:write', 'appointments:write']);
    const lead = await strangerLead(key, 'target@stranger.test');
    const scheduled = await call(
      'POST',
      '/api/appointments',
      { lead_id: lead, date: '2030-01-02', time: '10:00', type: 'On-site', location: 'Pay first at https://evil.test/pay' },
      asKey(key),
    );
    expect(scheduled.status).toBe(201);
    expect(scheduled.body).toMatchObject({ notified: false, notified_reason: NO_EMAIL_SCOPE });
    const id = scheduled.body.id as string;
    const moved = await call('PATCH', `/api/appointments/${id}`, { time: '11:00' }, asKey(key));
    expect(moved).toMatchObject({ status: 200, body: { time: '11:00', notified: false, notified_reason: NO_EMAIL_SCOPE } });
    const cancelled = await call('PATCH', `/api/appointments/${id}`, { status: 'cancelled' }, asKey(key));
    expect(cancelled).toMatchObject({ status: 200, body: { status: 'cancelled', notified: false } });
    const deleted = await call('DELETE', `/api/appointments/${id}`, undefined, asKey(key));
    expect(deleted).toMatchObject({ status: 200, body: { id, notified: false, notified_reason: NO_EMAIL_SCOPE } });
    const again = await call('POST', '/api/appointments', { lead_id: lead, date: '2030-01-03', time: '10:00', type: 'Call' }, asKey(key));
    expect(again.body.notified).toBe(false);
    // No reminder will go to them either.
    expect(await reminderPending(again.body.id as string)).toBe(false);
    const gone = await call('DELETE', `/api/leads/${lead}?appointments=cancel`, undefined, asKey(key));
    expect(gone).toMatchObject({ status: 200, body: { appointments_cancelled: 1, notified: false } });
    expect(await mailTo('target@stranger.test')).toBe(0);
  });

  it('with email:send, each change emails the lead and counts against the maker’s LEAD_EMAIL_PER_HOUR, with Send email', async () => {
    const key = await makeKey(['leads:write', 'appointments:write', 'email:send']);
    const lead = await strangerLead(key, 'friend@client.test');
    const scheduled = await call(
      'POST',
      '/api/appointments',
      { lead_id: lead, date: '2030-01-02', time: '10:00', type: 'Call' },
      asKey(key),
    );
    expect(scheduled).toMatchObject({ status: 201, body: { notified: true } });
    expect(scheduled.body).not.toHaveProperty('notified_reason');
    const id = scheduled.body.id as string;
    expect(await reminderPending(id)).toBe(true);
    expect((await call('PATCH', `/api/appointments/${id}`, { time: '11:00' }, asKey(key))).body.notified).toBe(true);
    expect(await mailTo('friend@client.test')).toBe(2);
    // The third of three: the maker writes to the lead themselves.
    const written = await t.json('POST', `/api/leads/${lead}/emails`, { subject: 'Hello', body: 'A word.' }, { cookie });
    expect(written.status).toBe(201);
    // Past the limit: the change is made, no email goes, and the answer says why.
    const past = await call('PATCH', `/api/appointments/${id}`, { time: '12:00' }, asKey(key));
    expect(past.status).toBe(200);
    expect(past.body).toMatchObject({ time: '12:00', notified: false });
    expect(past.body.notified_reason).toMatch(
      /^Your email limit \(LEAD_EMAIL_PER_HOUR\) is reached, so no email was sent\. Try again in \d+ min\.$/,
    );
    expect(EMAIL_LIMIT_REACHED(61)).toContain('Try again in 2 min.');
    expect(await mailTo('friend@client.test')).toBe(3);
    // And the maker's own Send email meets the same counter.
    expect((await t.json('POST', `/api/leads/${lead}/emails`, { subject: 'Again', body: 'A word.' }, { cookie })).status).toBe(429);
  });

  it('a person signed in is not asked: the answer has no notified, and the lead is emailed', async () => {
    const [lead] = await rowsOf<{ id: string }>(
      database.db,
      sql`insert into leads (full_name, email, phone, property_types) values ('Jane Doe', 'jane@example.com', '555', array['land']) returning id`,
    );
    const scheduled = await call(
      'POST',
      '/api/appointments',
      { lead_id: lead!.id, date: '2030-01-02', time: '10:00', type: 'Call' },
      { cookie },
    );
    expect(scheduled.status).toBe(201);
    expect(scheduled.body).not.toHaveProperty('notified');
    expect(await mailTo('jane@example.com')).toBe(1);
  });
});
