import { sql } from 'drizzle-orm';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { EmailTemplate, EmailTemplateList, TemplatePreview } from '#shared/schemas/email-template';
import type { LeadEmail } from '#shared/schemas/lead-workspace';
import type { PublicBooking } from '#shared/schemas/booking';
import { ensureAdmin } from '../auth/accounts.ts';
import { hashToken } from '../lib/secret-token.ts';
import { execute } from '../db/sql.ts';
import { createTestApp, signIn, validLead } from '../test/test-app.ts';
import { rowsOf, useTestDatabase } from '../test/database.ts';
import { mailTo } from '../test/mail-sink.ts';
import { useMailSink } from '../test/use-mail-sink.ts';

/**
 * Email templates: the owners keep them (Settings → Email templates), everyone writing to a lead
 * starts from one, and their merge fields are filled in for the lead and the writer; a
 * {{booking_link}} becomes a booking link made for that message, good for a week, whose token
 * is never stored.
 */
const database = useTestDatabase();
const smtp = useMailSink();
let t: ReturnType<typeof createTestApp>;
let owner: string;
let staff: string;
let leadId: string;

const DEFAULT_NAMES = ['Engagement next steps', 'First reply', 'Follow-up after a call'];

// The defaults a new database has; truncating users (cascade) empties the templates too, so each test puts them back.
let defaults: { name: string; subject: string; body: string }[];
beforeAll(async () => {
  defaults = await rowsOf(database.db, sql`select name, subject, body from email_templates`);
});
beforeEach(async () => {
  await execute(
    database.db,
    sql`truncate users, sessions, leads, notifications, emails, rate_limits, public_mail_spends, audit_log cascade`,
  );
  for (const d of defaults)
    await execute(database.db, sql`insert into email_templates (name, subject, body) values (${d.name}, ${d.subject}, ${d.body})`);
  smtp.sink.messages.length = 0;
  t = createTestApp(database, {
    SMTP_URL: smtp.sink.url,
    MAIL_FROM: '"Keystone Due Diligence" <hello@keystone.test>',
    SITE_NAME: 'Keystone Due Diligence',
    SITE_PHONE: '(202) 555-0100',
    PUBLIC_URL: 'https://crm.keystone.test',
  });
  await ensureAdmin(database.db, 'dana@keystone.test', 'dana-password', 'owner', 'Dana Whitfield');
  await ensureAdmin(database.db, 'sam@keystone.test', 'sam-password', 'staff', 'Sam Staff');
  owner = await signIn(t.json, 'dana@keystone.test', 'dana-password');
  staff = await signIn(t.json, 'sam@keystone.test', 'sam-password');
  const res = await t.json('POST', '/api/leads', validLead({ full_name: 'Jane Q Doe', email: 'jane@example.com' }), { cookie: owner });
  leadId = ((await res.json()) as { id: string }).id;
});
afterEach(async () => {
  await t.outbox.stop();
});

const as = (cookie: string, method: string, path: string, body?: unknown) => t.json(method, path, body, { cookie });
const templates = async (cookie: string) =>
  ((await (await as(cookie, 'GET', '/api/email-templates')).json()) as EmailTemplateList).templates;

describe('/api/email-templates', () => {
  it('ships three defaults that everyone may read, by name', async () => {
    const list = await templates(staff);
    expect(list.map((x) => x.name)).toEqual(DEFAULT_NAMES);
    expect(list.find((x) => x.name === 'First reply')!.body).toContain('{{booking_link}}');
    expect(list.every((x) => x.updated_by_name === null)).toBe(true);
  });

  it('lets an owner add, change and remove a template; staff only read them', async () => {
    const template = { name: 'Price list', subject: 'Our fees, {{first_name}}', body: 'Hi {{first_name}},\n\nOur fees are attached.' };
    expect((await as(staff, 'POST', '/api/email-templates', template)).status).toBe(403);
    const added = await as(owner, 'POST', '/api/email-templates', template);
    expect(added.status).toBe(201);
    const created = (await added.json()) as EmailTemplate;
    expect(created).toMatchObject({ ...template, updated_by_name: 'Dana Whitfield' });
    expect((await templates(staff)).map((x) => x.name)).toContain('Price list');

    expect((await as(staff, 'PUT', `/api/email-templates/${created.id}`, { ...template, name: 'Fees' })).status).toBe(403);
    const changed = await as(owner, 'PUT', `/api/email-templates/${created.id}`, { ...template, name: 'Fees' });
    expect(changed.status).toBe(200);
    expect(((await changed.json()) as EmailTemplate).name).toBe('Fees');

    expect((await as(staff, 'DELETE', `/api/email-templates/${created.id}`)).status).toBe(403);
    expect((await as(owner, 'DELETE', `/api/email-templates/${created.id}`)).status).toBe(200);
    expect((await as(owner, 'DELETE', `/api/email-templates/${created.id}`)).status).toBe(404);
    expect((await as(owner, 'PUT', `/api/email-templates/${created.id}`, template)).status).toBe(404);
    expect((await templates(owner)).map((x) => x.name)).toEqual(DEFAULT_NAMES);

    const audit = await rowsOf<{ details: { name: string; template: string } }>(
      database.db,
      sql`select details from audit_log where action = 'settings_changed' and target_id = 'email_templates' order by id`,
    );
    expect(audit.map((a) => `${a.details.template} ${a.details.name}`)).toEqual(['created Price list', 'changed Fees', 'removed Fees']);
  });

  it('refuses an unknown merge field, naming it and the fields there are, and a name another template has in any case', async () => {
    const res = await as(owner, 'POST', '/api/email-templates', { name: 'Typo', subject: 'Hi', body: 'Dear {{ firstname }},' });
    expect(res.status).toBe(400);
    const error = (await res.json()) as { error: { fields: Record<string, string> } };
    expect(error.error.fields.body).toBe(
      'Unknown merge field {{ firstname }}: use {{first_name}}, {{full_name}}, {{property_address}}, {{booking_link}}, {{my_name}} or {{my_phone}}',
    );
    const subject = await as(owner, 'POST', '/api/email-templates', { name: 'Typo', subject: 'For {{lead}}', body: 'x' });
    expect(((await subject.json()) as { error: { fields: Record<string, string> } }).error.fields.subject).toMatch(
      /^Unknown merge field \{\{lead\}\}/,
    );

    const taken = await as(owner, 'POST', '/api/email-templates', { name: 'FIRST REPLY', subject: 'x', body: 'x' });
    expect(taken.status).toBe(409);
    expect(((await taken.json()) as { error: { message: string } }).error.message).toBe('A template named “FIRST REPLY” already exists.');
    const [followUp] = (await templates(owner)).filter((x) => x.name === 'Follow-up after a call');
    expect((await as(owner, 'PUT', `/api/email-templates/${followUp!.id}`, { name: 'first reply', subject: 'x', body: 'x' })).status).toBe(
      409,
    );
    // Nothing was saved by the refusals.
    expect((await templates(owner)).map((x) => x.name)).toEqual(DEFAULT_NAMES);
  });

  it('previews a text for a real lead: fields filled in, the ones with nothing to fill named, {{booking_link}} kept for sending', async () => {
    const res = await as(staff, 'POST', '/api/email-templates/preview', {
      lead_id: leadId,
      subject: 'For {{full_name}}',
      body: 'Hi {{first_name}}, about {{property_address}}: {{booking_link}} {{my_name}} {{my_phone}}',
    });
    expect(res.status).toBe(200);
    expect((await res.json()) as TemplatePreview).toEqual({
      subject: 'For Jane Q Doe',
      body: 'Hi Jane, about : {{booking_link}} Sam Staff (202) 555-0100',
      empty: ['property_address'],
    });
    const missing = await as(staff, 'POST', '/api/email-templates/preview', {
      lead_id: '00000000-0000-4000-8000-000000000000',
      subject: 'x',
      body: 'x',
    });
    expect(missing.status).toBe(404);
  });
});

describe('sending from a template', () => {
  it('fills the fields in, records the template, and puts a booking link for this lead that works for a week and is never stored', async () => {
    await as(owner, 'PATCH', `/api/leads/${leadId}`, { property_address: '12 Elm St, Arlington, VA' });
    const [first] = (await templates(owner)).filter((x) => x.name === 'Engagement next steps');
    const res = await as(owner, 'POST', `/api/leads/${leadId}/emails`, {
      subject: first!.subject,
      body: first!.body,
      template_id: first!.id,
    });
    expect(res.status).toBe(201);
    const sent = (await res.json()) as LeadEmail;
    await t.outbox.flush();
    const [mail] = mailTo(smtp.sink.messages, 'jane@example.com');
    const text = mail!.parsed.text ?? '';
    expect(text).toContain('Hi Jane,');
    expect(text).toContain('the review of 12 Elm St, Arlington, VA');
    expect(text).toContain('Dana Whitfield');
    expect(text).not.toContain('{{');
    const link = /https:\/\/crm\.keystone\.test\/booking\/([A-Za-z0-9_-]{43})/.exec(text);
    expect(link, 'the message carries a booking link').not.toBeNull();
    const token = link![1]!;

    // The link opens this lead's booking page; only its hash is kept, good for seven days.
    const booking = await t.json('GET', `/api/public/bookings/${token}`);
    expect(booking.status).toBe(200);
    expect(((await booking.json()) as PublicBooking).first_name).toBe('Jane');
    const [stored] = await rowsOf<{ days: number; lead_id: string }>(
      database.db,
      sql`select round(extract(epoch from expires_at - now()) / 86400)::int as days, lead_id from booking_tokens where token_hash = ${hashToken(token)}`,
    );
    expect(stored).toEqual({ days: 7, lead_id: leadId });
    const [row] = await rowsOf<{ data: Record<string, unknown>; everything: string }>(
      database.db,
      sql`select data, (select string_agg(e::text, '') from emails e) as everything from emails where id = ${sent.id}`,
    );
    expect(row!.everything).not.toContain(token);
    expect(row!.data.template_id).toBe(first!.id);
    expect(row!.data.body).toContain('{{booking_link}}');
    expect(row!.data).not.toHaveProperty('link');
  });

  it('fills in one pass (a lead named like a field stays as named), and refuses an unknown field with nothing queued', async () => {
    await as(owner, 'PATCH', `/api/leads/${leadId}`, { full_name: '{{my_phone}} Doe' });
    expect((await as(owner, 'POST', `/api/leads/${leadId}/emails`, { subject: 'Hi', body: 'Dear {{full_name}}' })).status).toBe(201);
    const refused = await as(owner, 'POST', `/api/leads/${leadId}/emails`, { subject: 'Hi', body: 'Dear {{name}}' });
    expect(refused.status).toBe(400);
    await t.outbox.flush();
    const texts = mailTo(smtp.sink.messages, 'jane@example.com').map((m) => m.parsed.text);
    expect(texts).toEqual(['Dear {{my_phone}} Doe\n']);
  });

  it('gives a message that failed a new booking link when it is sent again (its first one went with the failure)', async () => {
    smtp.refused.set('jane@example.com', '550 5.1.1 Mailbox unavailable');
    const sent = (await (
      await as(owner, 'POST', `/api/leads/${leadId}/emails`, { subject: 'Book', body: 'Pick a time: {{booking_link}}' })
    ).json()) as LeadEmail;
    await t.outbox.flush();
    const tokens = async () =>
      (await rowsOf<{ n: number }>(database.db, sql`select count(*)::int as n from booking_tokens where lead_id = ${leadId}`))[0]!.n;
    const before = await tokens();
    smtp.refused.clear();
    expect((await as(owner, 'POST', `/api/leads/${leadId}/emails/${sent.id}/retry`)).status).toBe(200);
    await t.outbox.flush();
    expect(await tokens()).toBe(before + 1);
    const [mail] = mailTo(smtp.sink.messages, 'jane@example.com');
    const token = /\/booking\/([A-Za-z0-9_-]{43})/.exec(mail!.parsed.text ?? '')![1]!;
    expect((await t.json('GET', `/api/public/bookings/${token}`)).status).toBe(200);
  });
});
