import { sql } from 'drizzle-orm';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { LeadEmail, TimelineEntry } from '#shared/schemas/lead-workspace';
import { ensureAdmin } from '../auth/accounts.ts';
import { execute } from '../db/sql.ts';
import { createTestApp, signIn, validLead } from '../test/test-app.ts';
import { rowsOf, useTestDatabase } from '../test/database.ts';
import { mailTo } from '../test/mail-sink.ts';
import { useMailSink } from '../test/use-mail-sink.ts';

/**
 * Writing to a lead from their page, through the outbox to a real SMTP server: from MAIL_FROM's
 * address under the writer's name, replies to MAIL_REPLY_TO plus the lead's token, and on the
 * lead's timeline with its delivery state.
 */
const database = useTestDatabase();
const smtp = useMailSink();
let t: ReturnType<typeof createTestApp>;
let cookie: string;

afterEach(async () => {
  await t.outbox.stop();
});

const MAIL_ENV = {
  MAIL_FROM: '"Keystone Due Diligence" <hello@keystone.test>',
  MAIL_REPLY_TO: 'replies@keystone.test',
  SITE_NAME: 'Keystone Due Diligence',
};

async function setUp(env: Record<string, string>) {
  await execute(database.db, sql`truncate users, sessions, leads, notifications, emails, rate_limits, public_mail_spends cascade`);
  smtp.sink.messages.length = 0;
  smtp.refused.clear();
  t = createTestApp(database, env);
  await ensureAdmin(database.db, 'dana@keystone.test', 'dana-password', 'owner', 'Dana Whitfield');
  cookie = await signIn(t.json, 'dana@keystone.test', 'dana-password');
  const res = await t.json('POST', '/api/leads', validLead({ full_name: 'Jane Doe', email: 'jane@example.com' }), { cookie });
  expect(res.status).toBe(201);
  return ((await res.json()) as { id: string }).id;
}

const send = (leadId: string, body: unknown) => t.json('POST', `/api/leads/${leadId}/emails`, body, { cookie });
const timeline = async (leadId: string) =>
  ((await (await t.json('GET', `/api/leads/${leadId}/timeline`, undefined, { cookie })).json()) as { entries: TimelineEntry[] }).entries;

describe('POST /api/leads/{id}/emails', () => {
  let leadId: string;
  beforeEach(async () => {
    leadId = await setUp({ SMTP_URL: smtp.sink.url, ...MAIL_ENV });
  });

  it('sends the message as the writer, with a reply address that carries the lead’s token, and shows it on the timeline', async () => {
    const res = await send(leadId, { subject: '  Your report  ', body: 'Hi Jane,\n\nThe report is at https://example.com/r/1.\n\nDana' });
    expect(res.status).toBe(201);
    const queued = (await res.json()) as LeadEmail;
    expect(queued).toMatchObject({ to: 'jane@example.com', subject: 'Your report', status: 'queued', error: null });

    await t.outbox.flush();
    const [mail] = mailTo(smtp.sink.messages, 'jane@example.com').filter((m) => m.parsed.subject === 'Your report');
    expect(mail, 'the message reached the mail server').toBeDefined();
    expect(mail!.parsed.from?.value).toEqual([{ name: 'Dana Whitfield at Keystone Due Diligence', address: 'hello@keystone.test' }]);
    const [token] = await rowsOf<{ reply_token: string }>(database.db, sql`select reply_token from leads where id = ${leadId}`);
    expect(token!.reply_token).toMatch(/^[a-z0-9]{10}$/);
    expect(mail!.parsed.replyTo?.value).toEqual([
      { name: 'Dana Whitfield at Keystone Due Diligence', address: `replies+${token!.reply_token}@keystone.test` },
    ]);
    expect(mail!.parsed.text).toBe('Hi Jane,\n\nThe report is at https://example.com/r/1.\n\nDana\n');
    expect(mail!.parsed.html).toContain('<a href="https://example.com/r/1" style="color:#1d4ed8">https://example.com/r/1</a>.');

    const entry = (await timeline(leadId)).find((e) => e.kind === 'email_out' && e.subject === 'Your report');
    expect(entry).toMatchObject({
      kind: 'email_out',
      email_kind: 'lead-message',
      actor: 'Dana Whitfield',
      to: 'jane@example.com',
      status: 'sent',
    });

    // The second message keeps the lead's token; another address of theirs is written to as asked.
    expect((await send(leadId, { subject: 'Also', body: 'One more thing', to: 'Jane.Doe@Work.example' })).status).toBe(201);
    await t.outbox.flush();
    const [second] = mailTo(smtp.sink.messages, 'jane.doe@work.example');
    expect(second!.parsed.replyTo?.value[0]!.address).toBe(`replies+${token!.reply_token}@keystone.test`);
    expect((await timeline(leadId)).find((e) => e.kind === 'email_out' && e.subject === 'Also')).toMatchObject({
      to: 'jane.doe@work.example',
    });
  });

  it('signs with the writer’s signature from their account page, under "-- "; an empty one signs nothing', async () => {
    expect(await (await t.json('GET', '/api/account/signature', undefined, { cookie })).json()).toEqual({ signature: '' });
    const saved = await t.json(
      'PUT',
      '/api/account/signature',
      { signature: '  Dana Whitfield\r\nKeystone Due Diligence\n(301) 555-0100  ' },
      { cookie },
    );
    expect(saved.status).toBe(200);
    expect(await saved.json()).toEqual({ signature: 'Dana Whitfield\r\nKeystone Due Diligence\n(301) 555-0100' });
    const tooLong = await t.json('PUT', '/api/account/signature', { signature: 'x'.repeat(1001) }, { cookie });
    expect(tooLong.status).toBe(400);
    expect(((await tooLong.json()) as { error: { fields: Record<string, string> } }).error.fields.signature).toBe(
      'Signature must be at most 1,000 characters',
    );

    expect((await send(leadId, { subject: 'Signed', body: 'Hi Jane,\n\n' })).status).toBe(201);
    expect((await t.json('PUT', '/api/account/signature', { signature: '' }, { cookie })).status).toBe(200);
    expect((await send(leadId, { subject: 'Unsigned', body: 'Hi Jane' })).status).toBe(201);
    await t.outbox.flush();
    const text = (subject: string) => mailTo(smtp.sink.messages, 'jane@example.com').find((m) => m.parsed.subject === subject)!.parsed.text;
    expect(text('Signed')).toBe('Hi Jane,\n\n-- \nDana Whitfield\nKeystone Due Diligence\n(301) 555-0100\n');
    expect(text('Unsigned')).toBe('Hi Jane\n');
  });

  it('escapes what was typed in the HTML part and keeps the subject to one header line', async () => {
    const res = await send(leadId, { subject: 'Hello <b>Jane</b>', body: '<script>alert(1)</script> javascript:alert(1) "quoted"' });
    expect(res.status).toBe(201);
    await t.outbox.flush();
    const [mail] = mailTo(smtp.sink.messages, 'jane@example.com').filter((m) => m.parsed.subject === 'Hello <b>Jane</b>');
    expect(mail!.parsed.html).toContain('&lt;script&gt;alert(1)&lt;/script&gt; javascript:alert(1) &quot;quoted&quot;');
    expect(mail!.parsed.html).not.toContain('<script>');
  });

  it.each([
    [{ subject: '', body: 'x' }, 'subject', 'Subject is required'],
    [{ subject: 'x', body: '   ' }, 'body', 'Message is required'],
    [{ subject: 'a\nBcc: x@evil.test', body: 'x' }, 'subject', 'Subject must be one line'],
    [{ subject: 'x'.repeat(201), body: 'x' }, 'subject', 'Subject must be at most 200 characters'],
    [{ subject: 'x', body: 'x'.repeat(20_001) }, 'body', 'Message must be at most 20,000 characters'],
    [{ subject: 'x', body: 'x', to: 'not-an-address' }, 'to', 'Invalid email address'],
  ])('refuses %j: 400 with the field’s message, and queues nothing', async (body, field, message) => {
    const res = await send(leadId, body);
    expect(res.status).toBe(400);
    const error = (await res.json()) as { error: { fields?: Record<string, string> } };
    expect(error.error.fields?.[field]).toBe(message);
    expect(await rowsOf(database.db, sql`select 1 from emails where kind = 'lead-message'`)).toHaveLength(0);
  });

  it('refuses a lead marked Do not email with 409, queuing nothing, until the mark is cleared', async () => {
    const marked = await t.json('PATCH', `/api/leads/${leadId}`, { do_not_email: true }, { cookie });
    expect(marked.status).toBe(200);
    expect(await marked.json()).toMatchObject({ do_not_email: true });
    const refused = await send(leadId, { subject: 'Hello', body: 'x' });
    expect(refused.status).toBe(409);
    expect(await refused.json()).toMatchObject({ error: { message: expect.stringContaining('This lead is marked Do not email.') } });
    expect(await rowsOf(database.db, sql`select 1 from emails where kind = 'lead-message'`)).toHaveLength(0);
    expect((await t.json('PATCH', `/api/leads/${leadId}`, { do_not_email: 'yes' }, { cookie })).status).toBe(400);

    expect((await t.json('PATCH', `/api/leads/${leadId}`, { do_not_email: false }, { cookie })).status).toBe(200);
    expect((await send(leadId, { subject: 'Hello', body: 'x' })).status).toBe(201);
  });

  it('a merge keeps the absorbed record’s Do not email mark and, when the kept one has none, its reply token', async () => {
    expect((await send(leadId, { subject: 'Hello', body: 'x' })).status).toBe(201);
    const [{ reply_token: token }] = (await rowsOf<{ reply_token: string }>(
      database.db,
      sql`select reply_token from leads where id = ${leadId}`,
    )) as [{ reply_token: string }];
    expect((await t.json('PATCH', `/api/leads/${leadId}`, { do_not_email: true }, { cookie })).status).toBe(200);
    const typed = await t.json('POST', '/api/leads', validLead({ full_name: 'Jane Doe', email: 'jane@example.com' }), { cookie });
    const keptId = ((await typed.json()) as { id: string }).id;
    const merged = await t.json('POST', `/api/leads/${keptId}/merge`, { other_id: leadId, keep: {} }, { cookie });
    expect(merged.status).toBe(200);
    expect(await merged.json()).toMatchObject({ id: keptId, do_not_email: true });
    expect(await rowsOf(database.db, sql`select reply_token from leads where id = ${keptId}`)).toEqual([{ reply_token: token }]);
    expect((await send(keptId, { subject: 'Hello', body: 'x' })).status).toBe(409);
  });

  it('shows why a message failed on the timeline, and Send again queues it once more (only a failed one, only this lead’s own)', async () => {
    smtp.refused.set('jane@example.com', '550 5.1.1 Mailbox unavailable');
    const sent = (await (await send(leadId, { subject: 'Hello', body: 'x' })).json()) as LeadEmail;
    await t.outbox.flush();
    const failed = (await timeline(leadId)).find((e) => e.kind === 'email_out' && e.email_kind === 'lead-message');
    expect(failed).toMatchObject({ status: 'failed', email_id: sent.id, error: expect.stringContaining('Mailbox unavailable') });

    const retry = (emailId: string, lead = leadId) => t.json('POST', `/api/leads/${lead}/emails/${emailId}/retry`, undefined, { cookie });
    // Another lead's path, or a message the product wrote (the acknowledgement kind): not this lead's own message.
    const other = (
      (await (await t.json('POST', '/api/leads', validLead({ email: 'other@example.com' }), { cookie })).json()) as { id: string }
    ).id;
    expect((await retry(sent.id, other)).status).toBe(404);
    const [product] = await rowsOf<{ id: string }>(
      database.db,
      sql`insert into emails (message_id, status, kind, to_address, data, lead_id) values ('<x@y>', 'failed', 'test', 'jane@example.com', '{}', ${leadId}) returning id`,
    );
    expect((await retry(product!.id)).status).toBe(404);

    smtp.refused.clear();
    const again = await retry(sent.id);
    expect(again.status).toBe(200);
    await t.outbox.flush();
    expect(mailTo(smtp.sink.messages, 'jane@example.com').map((m) => m.parsed.subject)).toContain('Hello');
    expect((await timeline(leadId)).find((e) => e.kind === 'email_out' && e.email_id === sent.id)).toMatchObject({
      status: 'sent',
      error: null,
    });
    // Sent: nothing to send again.
    expect((await retry(sent.id)).status).toBe(422);
  });

  it('answers 404 for a lead that does not exist, and 401 without a session', async () => {
    expect((await send('00000000-0000-4000-8000-000000000000', { subject: 'x', body: 'x' })).status).toBe(404);
    expect((await t.json('POST', `/api/leads/${leadId}/emails`, { subject: 'x', body: 'x' })).status).toBe(401);
  });
});

describe('LEAD_EMAIL_PER_HOUR', () => {
  it('stops a person past their messages for the hour with 429 and Retry-After, queuing nothing; another person still writes', async () => {
    const leadId = await setUp({ SMTP_URL: smtp.sink.url, ...MAIL_ENV, LEAD_EMAIL_PER_HOUR: '2' });
    expect((await send(leadId, { subject: 'One', body: 'x' })).status).toBe(201);
    expect((await send(leadId, { subject: 'Two', body: 'x' })).status).toBe(201);
    const third = await send(leadId, { subject: 'Three', body: 'x' });
    expect(third.status).toBe(429);
    expect(Number(third.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(await third.json()).toMatchObject({
      error: { message: expect.stringMatching(/^Too many emails\. Please try again in \d+ minutes?\.$/) },
    });
    expect(
      await rowsOf(database.db, sql`select data->>'subject' as subject from emails where kind = 'lead-message' order by created_at`),
    ).toEqual([{ subject: 'One' }, { subject: 'Two' }]);

    await ensureAdmin(database.db, 'sam@keystone.test', 'sam-password', 'staff', 'Sam Staff');
    const sam = await signIn(t.json, 'sam@keystone.test', 'sam-password');
    expect((await t.json('POST', `/api/leads/${leadId}/emails`, { subject: 'Sam', body: 'x' }, { cookie: sam })).status).toBe(201);
  });
});

describe('with email off', () => {
  it('records the message as not sent, with why, on the timeline; without MAIL_REPLY_TO replies go to the sender address', async () => {
    const leadId = await setUp({ SITE_NAME: 'Keystone Due Diligence' });
    const res = await send(leadId, { subject: 'Hello', body: 'x' });
    expect(res.status).toBe(201);
    expect(await res.json()).toMatchObject({ status: 'not_sent', error: expect.stringContaining('Email is off') });
    expect((await timeline(leadId)).find((e) => e.kind === 'email_out')).toMatchObject({ status: 'not_sent', actor: 'Dana Whitfield' });
    const [row] = await rowsOf<{ reply_to: string | null }>(database.db, sql`select data->>'reply_to' as reply_to from emails`);
    expect(row!.reply_to).toBeNull();
  });
});
