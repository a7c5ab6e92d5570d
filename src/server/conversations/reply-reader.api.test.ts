import { sql } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { LeadEmail, TimelineEntry } from '#shared/schemas/lead-workspace';
import { ensureAdmin } from '../auth/accounts.ts';
import { execute } from '../db/sql.ts';
import { buildPayload } from '../webhooks/payload.ts';
import { createTestApp, signIn, validLead } from '../test/test-app.ts';
import { rowsOf, useTestDatabase } from '../test/database.ts';
import { type Dovecot, hasDovecot, startDovecot } from '../test/dovecot.ts';
import { useMailSink } from '../test/use-mail-sink.ts';

/**
 * Replies read from a real IMAP server (Dovecot) and joined to their lead: by the message they
 * answer, by the lead's reply address, or by the sender's address (marked when the receiving
 * server did not see the domain pass); the rest waits in the Inbox. Each message is stored once
 * however many readers look and however often.
 */
const runIt = hasDovecot || process.env.CI === 'true';
const database = useTestDatabase();
const smtp = useMailSink();
let dovecot: Dovecot;

beforeAll(async () => {
  if (!hasDovecot) throw new Error('/usr/sbin/dovecot is missing: install Debian’s dovecot-imapd (.ci/run does)');
  dovecot = await startDovecot(['replies']);
}, 30_000);
afterAll(async () => {
  await dovecot?.stop();
});

type Stored = {
  lead_id: string | null;
  matched_by: string | null;
  sender_verified: boolean;
  subject: string;
  body: string;
  from_address: string;
  from_name: string;
};
const stored = () =>
  rowsOf<Stored>(
    database.db,
    sql`select lead_id, matched_by, sender_verified, subject, body, from_address, from_name from inbound_emails order by uid`,
  );

let t: ReturnType<typeof createTestApp>;
let cookie: string;
let ownerId: string;
let leadId: string;

function app(extra: Record<string, string> = {}) {
  return createTestApp(database, {
    SMTP_URL: smtp.sink.url,
    MAIL_FROM: '"Keystone Due Diligence" <hello@keystone.test>',
    MAIL_REPLY_TO: 'replies@keystone.test',
    IMAP_URL: dovecot.urlOf('replies'),
    ...extra,
  });
}

const mail = (headers: Record<string, string>, body = 'Thursday works for me.') =>
  [
    ...Object.entries({ Date: 'Fri, 27 Nov 2026 10:00:00 +0000', 'Content-Type': 'text/plain; charset=utf-8', ...headers }).map(
      ([k, v]) => `${k}: ${v}`,
    ),
    '',
    body,
    '',
  ].join('\r\n');

describe.runIf(runIt)('reading replies', () => {
  beforeEach(async () => {
    await execute(
      database.db,
      sql`truncate users, sessions, leads, notifications, emails, rate_limits, public_mail_spends, inbound_emails, mail_readers, erased_senders cascade`,
    );
    smtp.sink.messages.length = 0;
    // A fresh mailbox per test: Dovecot keeps what was delivered, so each test reads another user.
    t = app();
    ownerId = (await ensureAdmin(database.db, 'dana@keystone.test', 'dana-password', 'owner', 'Dana Whitfield')).user.id;
    cookie = await signIn(t.json, 'dana@keystone.test', 'dana-password');
    const res = await t.json('POST', '/api/leads', validLead({ full_name: 'Jane Doe', email: 'jane@example.com' }), { cookie });
    leadId = ((await res.json()) as { id: string }).id;
    await t.json('PATCH', `/api/leads/${leadId}`, { owner_id: ownerId }, { cookie });
    // Everything delivered by earlier tests is behind us.
    await t.reader!.flush();
    await execute(database.db, sql`truncate inbound_emails, notifications cascade`);
  });
  afterEach(async () => {
    await t.outbox.stop();
    await t.reader?.stop();
  });

  it('joins a reply to the lead by the message it answers, notifies the owner, and stores it once however often it is read', async () => {
    // The owner asked for an email too (account menu → Email me when a lead replies).
    expect((await t.json('PATCH', '/api/account/preferences', { email_replies: true }, { cookie })).status).toBe(200);
    const sent = (await (
      await t.json('POST', `/api/leads/${leadId}/emails`, { subject: 'Your report', body: 'Attached.' }, { cookie })
    ).json()) as LeadEmail;
    await t.outbox.flush();
    const [ours] = await rowsOf<{ message_id: string }>(database.db, sql`select message_id from emails where id = ${sent.id}`);
    const [{ reply_token }] = (await rowsOf<{ reply_token: string }>(
      database.db,
      sql`select reply_token from leads where id = ${leadId}`,
    )) as [{ reply_token: string }];
    dovecot.deliver(
      'replies',
      mail({
        From: 'Jane D <jane@example.com>',
        To: `Keystone <replies+${reply_token}@keystone.test>`,
        Subject: 'Re: Your report',
        'Message-ID': '<reply-thread@example.org>',
        'In-Reply-To': ours!.message_id,
        References: ours!.message_id,
      }),
    );
    expect(await t.reader!.flush()).toBe(1);
    expect(await t.reader!.flush()).toBe(0);
    // Another process's reader, reading the same mailbox: nothing new for it either.
    expect(await app().reader!.flush()).toBe(0);
    expect(await stored()).toEqual([
      {
        lead_id: leadId,
        matched_by: 'thread',
        sender_verified: true,
        subject: 'Re: Your report',
        body: 'Thursday works for me.\n',
        from_address: 'jane@example.com',
        from_name: 'Jane D',
      },
    ]);
    const notes = await rowsOf<{ user_id: string; type: string; message: string; lead_id: string }>(
      database.db,
      sql`select user_id, type, message, lead_id from notifications`,
    );
    expect(notes).toEqual([{ user_id: ownerId, type: 'reply', message: 'Jane Doe replied', lead_id: leadId }]);
    await t.outbox.flush();
    const told = smtp.sink.messages.find((m) => m.parsed.subject === 'Jane Doe replied: Re: Your report');
    expect(told, 'the owner is emailed').toBeDefined();
    expect(told!.envelope.to).toEqual(['dana@keystone.test']);
    expect(told!.parsed.text).toContain('Thursday works for me.');

    // Unread on the lists and the Overview until the lead's page is opened (and marks them read).
    const lead = async () =>
      (await (await t.json('GET', `/api/leads/${leadId}`, undefined, { cookie })).json()) as { unread_replies: number };
    const overview = async () =>
      (
        (await (await t.json('GET', '/api/overview', undefined, { cookie })).json()) as {
          replies_to_read: { lead_id: string; unread: number; subject: string }[];
        }
      ).replies_to_read;
    expect((await lead()).unread_replies).toBe(1);
    expect(await overview()).toEqual([expect.objectContaining({ lead_id: leadId, unread: 1, subject: 'Re: Your report' })]);
    // Up to what the page showed: nothing older than the reply is unread, so an earlier cut marks nothing.
    expect(
      await (await t.json('POST', `/api/leads/${leadId}/replies/read?up_to=2020-01-01T00:00:00.000Z`, undefined, { cookie })).json(),
    ).toEqual({
      marked: 0,
    });
    expect(await (await t.json('POST', `/api/leads/${leadId}/replies/read`, undefined, { cookie })).json()).toEqual({ marked: 1 });
    expect((await lead()).unread_replies).toBe(0);
    expect(await overview()).toEqual([]);
  });

  it('joins by the lead’s reply address, then by the sender’s address: unverified unless the firm’s mail host saw the domain pass', async () => {
    await t.reader?.stop();
    t = app({ IMAP_AUTHSERV_ID: 'mx.keystone.test' });
    const [token] = await rowsOf<{ reply_token: string | null }>(database.db, sql`select reply_token from leads where id = ${leadId}`);
    await execute(database.db, sql`update leads set reply_token = 'k3x9abcd12' where id = ${leadId}`);
    expect(token).toBeDefined();
    dovecot.deliver('replies', mail({ From: 'Jane <Jane@Example.com>', To: 'replies+K3X9ABCD12@Keystone.test', Subject: 'By token' }));
    // From the lead's address, with a DMARC pass added by our mail host (the topmost header).
    dovecot.deliver(
      'replies',
      mail({
        'Authentication-Results': 'mx.keystone.test; dmarc=pass (p=none) header.from=example.com; spf=pass smtp.mailfrom=example.com',
        From: 'Jane Doe <Jane@Example.com>',
        To: 'hello@keystone.test',
        Subject: 'Verified sender',
      }),
    );
    // From the lead's address with only a forged pass below our host's failing result.
    dovecot.deliver(
      'replies',
      [
        'Authentication-Results: mx.keystone.test; dmarc=fail header.from=example.com',
        'Authentication-Results: evil.example; dmarc=pass header.from=example.com',
        mail({ From: 'jane@example.com', To: 'hello@keystone.test', Subject: 'Forged sender' }),
      ].join('\r\n'),
    );
    dovecot.deliver('replies', mail({ From: 'Stranger <new@example.org>', To: 'hello@keystone.test', Subject: 'A new inquiry' }));
    expect(await t.reader!.flush()).toBe(4);
    expect(
      (await stored()).map(({ subject, lead_id, matched_by, sender_verified }) => ({
        subject,
        lead: lead_id === leadId,
        matched_by,
        sender_verified,
      })),
    ).toEqual([
      { subject: 'By token', lead: true, matched_by: 'token', sender_verified: true },
      { subject: 'Verified sender', lead: true, matched_by: 'sender', sender_verified: true },
      { subject: 'Forged sender', lead: true, matched_by: 'sender', sender_verified: false },
      { subject: 'A new inquiry', lead: false, matched_by: null, sender_verified: true },
    ]);
  });

  it('a stranger cannot pass for the lead: a forged pass, their thread or a forged Delivered-To leaves the reply marked, and the owner told so', async () => {
    expect((await t.json('PATCH', '/api/account/preferences', { email_replies: true }, { cookie })).status).toBe(200);
    await execute(database.db, sql`update leads set reply_token = 'tok4forged' where id = ${leadId}`);
    const sent = (await (
      await t.json('POST', `/api/leads/${leadId}/emails`, { subject: 'Your report', body: 'Attached.' }, { cookie })
    ).json()) as LeadEmail;
    await t.outbox.flush();
    const [ours] = await rowsOf<{ message_id: string }>(database.db, sql`select message_id from emails where id = ${sent.id}`);
    smtp.sink.messages.length = 0;
    // No IMAP_AUTHSERV_ID (this app's default): the topmost header, the sender's own, is not believed.
    dovecot.deliver(
      'replies',
      mail({
        'Authentication-Results': 'mx.keystone.test; dmarc=pass header.from=example.com; spf=pass smtp.mailfrom=example.com',
        From: 'Jane Doe <jane@example.com>',
        To: 'hello@keystone.test',
        Subject: 'Pay first',
        'Message-ID': '<forged-pass@evil.example>',
      }),
    );
    // A stranger answers our message to the lead: its Message-ID is known to whoever the lead forwarded it to.
    dovecot.deliver(
      'replies',
      mail({
        From: 'Mallory <mallory@evil.example>',
        To: 'hello@keystone.test',
        Subject: 'Re: Your report',
        'Message-ID': '<thread-stranger@evil.example>',
        'In-Reply-To': ours!.message_id,
      }),
    );
    // The lead's address, with the reply token only in headers the sender may write.
    dovecot.deliver(
      'replies',
      mail({
        'Delivered-To': 'replies+tok4forged@keystone.test',
        'X-Original-To': 'replies+tok4forged@keystone.test',
        From: 'jane@example.com',
        To: 'hello@keystone.test',
        Subject: 'Delivered to',
        'Message-ID': '<delivered-to@evil.example>',
      }),
    );
    expect(await t.reader!.flush()).toBe(3);
    const rows = await rowsOf<{
      id: string;
      subject: string;
      lead_id: string;
      matched_by: string;
      sender_verified: boolean;
      from_someone_else: boolean;
    }>(database.db, sql`select id, subject, lead_id, matched_by, sender_verified, from_someone_else from inbound_emails order by uid`);
    expect(rows.map(({ id: _, ...row }) => row)).toEqual([
      { subject: 'Pay first', lead_id: leadId, matched_by: 'sender', sender_verified: false, from_someone_else: false },
      { subject: 'Re: Your report', lead_id: leadId, matched_by: 'thread', sender_verified: false, from_someone_else: true },
      { subject: 'Delivered to', lead_id: leadId, matched_by: 'sender', sender_verified: false, from_someone_else: false },
    ]);

    // The owner's notifications say so.
    const notes = await rowsOf<{ message: string }>(database.db, sql`select message from notifications order by created_at, message`);
    expect(notes.map((n) => n.message).sort()).toEqual([
      'Jane Doe replied (sender not verified)',
      'Jane Doe replied (sender not verified)',
      'Jane Doe replied: from someone else, mallory@evil.example',
    ]);
    // So do the emails the owner asked for.
    await t.outbox.flush();
    const told = (subject: string) =>
      smtp.sink.messages.find((m) => m.parsed.subject === `Jane Doe replied: ${subject}`)?.parsed.text ?? '';
    expect(told('Pay first')).toContain('Sender not verified');
    expect(told('Re: Your report')).toContain('From someone else: mallory@evil.example');
    // The lead's page marks them.
    const timeline = (await (await t.json('GET', `/api/leads/${leadId}/timeline`, undefined, { cookie })).json()) as {
      entries: TimelineEntry[];
    };
    const replies = timeline.entries.filter((e): e is Extract<TimelineEntry, { kind: 'email_in' }> => e.kind === 'email_in');
    expect(replies.find((e) => e.subject === 'Re: Your report')).toMatchObject({ sender_verified: false, from_someone_else: true });
    expect(replies.find((e) => e.subject === 'Pay first')).toMatchObject({ sender_verified: false, from_someone_else: false });
    // And email.replied carries it.
    const payload = JSON.parse(
      await buildPayload(database.db, {
        event_type: 'email.replied',
        event_created_at: new Date().toISOString(),
        object_id: rows[0]!.id,
        data: null,
      }),
    ) as { data: { sender_verified: boolean; from_someone_else: boolean; lead_id: string } };
    expect(payload.data).toMatchObject({ sender_verified: false, from_someone_else: false, lead_id: leadId });
    const stranger = JSON.parse(
      await buildPayload(database.db, {
        event_type: 'email.replied',
        event_created_at: new Date().toISOString(),
        object_id: rows[1]!.id,
        data: null,
      }),
    ) as { data: { sender_verified: boolean; from_someone_else: boolean } };
    expect(stranger.data).toMatchObject({ sender_verified: false, from_someone_else: true });
  });

  it('exports the conversation with its files; erasing removes it and keeps only a keyed hash, so later mail is not matched back', async () => {
    dovecot.deliver(
      'replies',
      [
        'From: Jane Doe <jane@example.com>',
        'To: hello@keystone.test',
        'Subject: Plans attached',
        'Content-Type: multipart/mixed; boundary="p"',
        '',
        '--p',
        'Content-Type: text/plain',
        '',
        'Here they are.',
        '--p',
        'Content-Type: application/pdf; name="plan.pdf"',
        'Content-Disposition: attachment; filename="plan.pdf"',
        'Content-Transfer-Encoding: base64',
        '',
        Buffer.from('%PDF plan').toString('base64'),
        '--p--',
        '',
      ].join('\r\n'),
    );
    // And from another address of theirs, to their reply address (a Message-ID, unlike the first).
    await execute(database.db, sql`update leads set reply_token = 'erase12345' where id = ${leadId}`);
    dovecot.deliver(
      'replies',
      mail({
        From: 'Jane <jane.work@example.net>',
        To: 'replies+erase12345@keystone.test',
        Subject: 'From work',
        'Message-ID': '<work-1@example.net>',
      }),
    );
    expect(await t.reader!.flush()).toBe(2);
    const exported = (await (await t.json('GET', `/api/leads/${leadId}/export`, undefined, { cookie })).json()) as {
      replies: { subject: string; body: string; attachments: { filename: string; content_base64: string }[] }[];
    };
    // Both, in either order (they came within the same second).
    expect(exported.replies).toHaveLength(2);
    expect(exported.replies).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          subject: 'Plans attached',
          body: 'Here they are.',
          attachments: [expect.objectContaining({ filename: 'plan.pdf', content_base64: Buffer.from('%PDF plan').toString('base64') })],
        }),
        expect.objectContaining({ subject: 'From work' }),
      ]),
    );

    expect((await t.json('POST', `/api/leads/${leadId}/erase`, undefined, { cookie })).status).toBe(200);
    expect(await stored()).toEqual([]);
    expect(await rowsOf(database.db, sql`select 1 from inbound_attachments`)).toEqual([]);
    const hashes = await rowsOf<{ address_hash: string }>(database.db, sql`select address_hash from erased_senders`);
    expect(hashes).toHaveLength(1);
    expect(hashes[0]!.address_hash).toMatch(/^[0-9a-f]{64}$/);
    expect(hashes[0]!.address_hash).not.toContain('jane');

    // They write again, and someone has since typed them in anew: not matched back by the sender, marked in the Inbox.
    await t.json('POST', '/api/leads', validLead({ full_name: 'Jane Doe', email: 'jane@example.com' }), { cookie });
    dovecot.deliver(
      'replies',
      mail({ From: 'jane@example.com', To: 'hello@keystone.test', Subject: 'Me again', 'Message-ID': '<again@example.com>' }),
      new Date(Date.now() + 1000),
    );
    expect(await t.reader!.flush()).toBe(1);
    const inbox = async () =>
      (
        (await (await t.json('GET', '/api/inbox', undefined, { cookie })).json()) as {
          messages: { subject: string; erased_sender: boolean }[];
        }
      ).messages;
    expect(await inbox()).toEqual([expect.objectContaining({ subject: 'Me again', erased_sender: true })]);

    // The mailbox is rebuilt (a new UIDVALIDITY) and read again from its start: what was erased
    // stays erased (by its Message-ID, or, without one, by its sender and a date before the erasure).
    // (The mailbox also holds the earlier tests' mail, which comes back as new: only this test's is looked at.)
    await execute(database.db, sql`update mail_readers set uidvalidity = 1`);
    await t.reader!.flush();
    const again = (await stored()).filter((m) => ['Plans attached', 'From work', 'Me again'].includes(m.subject));
    expect(again.map((m) => m.subject)).toEqual(['Me again']);
  });

  it('keeps a forged sender unverified when someone answers it, and reads only recent mail the first time it opens a mailbox', async () => {
    dovecot.deliver(
      'replies',
      mail({ From: 'jane@example.com', To: 'hello@keystone.test', Subject: 'Forged', 'Message-ID': '<forged-1@evil.example>' }),
    );
    dovecot.deliver(
      'replies',
      mail({ From: 'jane@example.com', To: 'hello@keystone.test', Subject: 'Re: Forged', 'In-Reply-To': '<forged-1@evil.example>' }),
    );
    expect(await t.reader!.flush()).toBe(2);
    expect((await stored()).map(({ subject, matched_by, sender_verified }) => ({ subject, matched_by, sender_verified }))).toEqual([
      { subject: 'Forged', matched_by: 'sender', sender_verified: false },
      { subject: 'Re: Forged', matched_by: 'thread', sender_verified: false },
    ]);

    // A mailbox opened for the first time (a new IMAP_URL): mail older than IMAP_FIRST_DAYS (14) stays where it is.
    dovecot.deliver(
      'replies',
      mail({ From: 'jane@example.com', To: 'hello@keystone.test', Subject: 'Last month' }),
      new Date(Date.now() - 30 * 86_400_000),
    );
    dovecot.deliver('replies', mail({ From: 'jane@example.com', To: 'hello@keystone.test', Subject: 'This morning' }));
    await execute(database.db, sql`truncate inbound_emails, mail_readers cascade`);
    await t.reader!.flush();
    const subjects = (await stored()).map((s) => s.subject);
    expect(subjects).toContain('This morning');
    expect(subjects).not.toContain('Last month');
  });

  it('offers to mark a lead Do not email when their reply asks us to stop; staff confirm, or say it does not', async () => {
    const lead = async () =>
      (await (await t.json('GET', `/api/leads/${leadId}`, undefined, { cookie })).json()) as {
        stop_request: { id: string; subject: string } | null;
      };
    dovecot.deliver(
      'replies',
      mail({ From: 'jane@example.com', To: 'hello@keystone.test', Subject: 'Re: Your report' }, 'Please stop emailing me.'),
    );
    await t.reader!.flush();
    const asked = (await lead()).stop_request;
    expect(asked).toMatchObject({ subject: 'Re: Your report' });
    // Not a request, staff say: the notice goes.
    expect((await t.json('POST', `/api/leads/${leadId}/replies/${asked!.id}/not-a-stop-request`, undefined, { cookie })).status).toBe(200);
    expect((await lead()).stop_request).toBeNull();
    expect((await t.json('POST', `/api/leads/${leadId}/replies/${asked!.id}/not-a-stop-request`, undefined, { cookie })).status).toBe(404);
    // Asked again: marked Do not email, the notice goes too.
    dovecot.deliver('replies', mail({ From: 'jane@example.com', To: 'hello@keystone.test', Subject: 'Unsubscribe' }, ''));
    await t.reader!.flush();
    expect((await lead()).stop_request).toMatchObject({ subject: 'Unsubscribe' });
    expect((await t.json('PATCH', `/api/leads/${leadId}`, { do_not_email: true }, { cookie })).status).toBe(200);
    expect((await lead()).stop_request).toBeNull();
  });

  it('reads a message whose header runs to 8 MB, and threads a reply to a booking invitation with its lead', async () => {
    dovecot.deliver(
      'replies',
      `From: jane@example.com\r\nX-Huge: ${'a'.repeat(8 * 1024 * 1024)}\r\nSubject: Huge header\r\n\r\nStill here.\r\n`,
    );
    expect(await t.reader!.flush()).toBe(1);
    const [huge] = await stored();
    expect(huge!.from_address).toBe('jane@example.com');

    // A call booked for the lead: its invitation's Message-ID threads the lead's answer.
    const day = new Date(Date.now() + 7 * 86_400_000).toISOString().slice(0, 10);
    const booked = await t.json(
      'POST',
      '/api/appointments',
      { lead_id: leadId, date: day, time: '10:00', type: 'Zoom', notes: '' },
      { cookie },
    );
    expect(booked.status).toBe(201);
    await t.outbox.flush();
    const [invitation] = await rowsOf<{ message_id: string }>(
      database.db,
      sql`select message_id from emails where kind = 'appointment' and lead_id = ${leadId} and to_address = 'jane@example.com'`,
    );
    dovecot.deliver(
      'replies',
      mail({ From: 'assistant@other.example', To: 'hello@keystone.test', Subject: 'Accepted', 'In-Reply-To': invitation!.message_id }),
    );
    expect(await t.reader!.flush()).toBe(1);
    expect((await stored()).at(-1)).toMatchObject({ subject: 'Accepted', lead_id: leadId, matched_by: 'thread' });
  });

  it('threads a reply to the lead form’s acknowledgement with the lead', async () => {
    const visitor = { ...validLead({ full_name: 'Vera Visitor', email: 'vera@example.com' }) };
    expect((await t.json('POST', '/api/public/leads', visitor)).status).toBe(201);
    await t.outbox.flush();
    const [ack] = await rowsOf<{ message_id: string; lead_id: string }>(
      database.db,
      sql`select message_id, lead_id from emails where kind = 'lead-acknowledgement' and to_address = 'vera@example.com'`,
    );
    dovecot.deliver(
      'replies',
      mail({
        From: 'other@example.org',
        To: 'hello@keystone.test',
        Subject: 'Re: We received your request',
        'In-Reply-To': ack!.message_id,
      }),
    );
    expect(await t.reader!.flush()).toBe(1);
    expect((await stored())[0]).toMatchObject({ lead_id: ack!.lead_id, matched_by: 'thread' });
  });

  it('groups a conversation into one thread on the timeline; Reply on any message of it answers in that thread', async () => {
    // The test owns the times: each message at its own minute, in the order the story tells.
    let minute = 0;
    const timed = async (table: 'emails' | 'inbound_emails', id: string) => {
      const at = new Date(Date.UTC(2026, 10, 27, 10, ++minute)).toISOString();
      await execute(
        database.db,
        table === 'emails'
          ? sql`update emails set created_at = ${at}::timestamptz where id = ${id}`
          : sql`update inbound_emails set received_at = ${at}::timestamptz where id = ${id}`,
      );
    };
    const send = async (body: Record<string, unknown>) => {
      const res = await t.json('POST', `/api/leads/${leadId}/emails`, { body: 'Text.', ...body }, { cookie });
      expect(res.status).toBe(201);
      const { id } = (await res.json()) as LeadEmail;
      await timed('emails', id);
      await t.outbox.flush();
      const [row] = await rowsOf<{ message_id: string }>(database.db, sql`select message_id from emails where id = ${id}`);
      return { id, messageId: row!.message_id };
    };
    const receive = async (headers: Record<string, string>) => {
      // Dated by the mail server a day before anything was sent.
      dovecot.deliver(
        'replies',
        mail({ From: 'Jane Doe <jane@example.com>', To: 'hello@keystone.test', ...headers }),
        new Date(Date.now() - 86_400_000),
      );
      expect(await t.reader!.flush()).toBe(1);
      const [row] = await rowsOf<{ id: string; after: boolean | null }>(
        database.db,
        sql`select i.id, i.received_at > coalesce(e.sent_at, e.created_at) as after
            from inbound_emails i left join emails e on e.id = i.answers_email_id order by i.uid desc limit 1`,
      );
      // An answer to one of ours is never put before it, whatever the mail server's date says.
      if (headers['In-Reply-To']) expect(row!.after).toBe(true);
      await timed('inbound_emails', row!.id);
      return row!.id;
    };
    type Page = { entries: TimelineEntry[]; has_more: boolean };
    const get = async (path: string) => (await (await t.json('GET', path, undefined, { cookie })).json()) as Page;
    const emails = async () =>
      (await get(`/api/leads/${leadId}/timeline`)).entries.flatMap((e) =>
        e.kind === 'email_out' || e.kind === 'email_in'
          ? [{ subject: e.subject, kind: e.kind, size: e.thread_size, thread: e.thread_id }]
          : [],
      );

    const report = await send({ subject: 'Your report' });
    // Answers our message by its headers, then we answer theirs (Reply), then they answer ours again.
    const first = await receive({ Subject: 'Re: Your report', 'Message-ID': '<t1@example.com>', 'In-Reply-To': report.messageId });
    const answer = await send({ subject: 'Re: Your report', in_reply_to: first });
    const second = await receive({
      Subject: 'Re: Your report',
      'Message-ID': '<t2@example.com>',
      'In-Reply-To': answer.messageId,
      References: `${report.messageId} <t1@example.com> ${answer.messageId}`,
    });
    // A new subject of ours, a message of theirs that answers nothing (joined by its sender), and
    // our Reply to our own earlier message (a follow-up): it joins that message's thread.
    const invoice = await send({ subject: 'Invoice' });
    const loose = await receive({ Subject: 'Another property', 'Message-ID': '<t3@example.com>' });
    const followUp = await send({ subject: 'Re: Invoice', in_reply_to: invoice.id });
    // Our Reply carries the message it answers in its headers, so their mail program threads it too.
    const sentAnswer = smtp.sink.messages.find((m) => m.parsed.messageId === answer.messageId);
    expect(sentAnswer?.parsed.inReplyTo).toBe('<t1@example.com>');
    expect(smtp.sink.messages.find((m) => m.parsed.messageId === followUp.messageId)?.parsed.inReplyTo).toBe(invoice.messageId);

    // The timeline shows each thread once, as its newest message, with how many it holds.
    const shown = await emails();
    expect(shown.map(({ subject, kind, size }) => ({ subject, kind, size }))).toEqual([
      { subject: 'Re: Invoice', kind: 'email_out', size: 2 },
      { subject: 'Another property', kind: 'email_in', size: 1 },
      { subject: 'Re: Your report', kind: 'email_in', size: 4 },
    ]);
    expect(new Set(shown.map((e) => e.thread)).size).toBe(3);

    // The whole conversation, newest first, a page at a time.
    const thread = shown[2]!.thread;
    const page1 = await get(`/api/leads/${leadId}/threads/${thread}?limit=3`);
    const ids = (page: Page) =>
      page.entries.map((e) => (e.kind === 'email_in' ? e.email_in_id : e.kind === 'email_out' ? e.email_id : e.id));
    expect(ids(page1)).toEqual([second, answer.id, first]);
    expect(page1.has_more).toBe(true);
    const page2 = await get(`/api/leads/${leadId}/threads/${thread}?limit=3&before=${encodeURIComponent(page1.entries[2]!.id)}`);
    expect(ids(page2)).toEqual([report.id]);
    expect(page2.has_more).toBe(false);
    // A `before` that is not one of the thread's messages (gone since the page was drawn): said, not an empty page.
    expect(
      (await t.json('GET', `/api/leads/${leadId}/threads/${thread}?before=email:${crypto.randomUUID()}`, undefined, { cookie })).status,
    ).toBe(404);
    expect(page1.entries.every((e) => e.kind === 'email_in' || e.kind === 'email_out')).toBe(true);
    expect(page1.entries[0]).toMatchObject({ thread_id: thread, thread_size: 4, thread_unread: 2 });

    // Another lead's view of the thread, an unknown thread, and an answer to a message not on the lead: refused.
    const other = ((await (await t.json('POST', '/api/leads', validLead(), { cookie })).json()) as { id: string }).id;
    expect((await t.json('GET', `/api/leads/${other}/threads/${thread}`, undefined, { cookie })).status).toBe(404);
    expect((await t.json('GET', `/api/leads/${leadId}/threads/${crypto.randomUUID()}`, undefined, { cookie })).status).toBe(404);
    const before = await rowsOf(database.db, sql`select id from emails`);
    const refused = await t.json('POST', `/api/leads/${other}/emails`, { subject: 'Re: x', body: 'Hi', in_reply_to: loose }, { cookie });
    expect(refused.status).toBe(400);
    expect(((await refused.json()) as { error: { fields?: Record<string, string> } }).error.fields).toEqual({
      in_reply_to: 'Not a message on this lead’s timeline',
    });
    expect(await rowsOf(database.db, sql`select id from emails`)).toHaveLength(before.length);
  });

  it('keeps hostile mail as text: HTML and scripts gone, names on one line, nested parts read, a broken message noted', async () => {
    const boundary = 'b1';
    const inner = 'b2';
    dovecot.deliver(
      'replies',
      [
        'From: =?utf-8?Q?Jane=0D=0AX-Evil=3A_1?= <jane@example.com>',
        'To: hello@keystone.test',
        'Subject: =?utf-8?Q?Hello=0D=0AX-Injected:_1?=',
        `Content-Type: multipart/mixed; boundary="${boundary}"`,
        '',
        `--${boundary}`,
        `Content-Type: multipart/alternative; boundary="${inner}"`,
        '',
        `--${inner}`,
        'Content-Type: text/html; charset=utf-8',
        '',
        '<p>Hi <b>there</b><script>alert(1)</script> <a href="javascript:alert(2)">click</a> <img src="https://tracker.example/p.gif"></p>',
        `--${inner}--`,
        `--${boundary}`,
        'Content-Type: application/pdf; name="report.pdf"',
        'Content-Disposition: attachment; filename="report.pdf"',
        'Content-Transfer-Encoding: base64',
        '',
        Buffer.from('%PDF-1.4 fake').toString('base64'),
        `--${boundary}--`,
        '',
      ].join('\r\n'),
    );
    dovecot.deliver(
      'replies',
      `From: jane@example.com\r\nSubject: ${'x'.repeat(3_000)}\r\nContent-Type: multipart/mixed; boundary="never-closed"\r\n\r\n--never-closed\r\nContent-Type: text/plain\r\n\r\nbroken`,
    );
    expect(await t.reader!.flush()).toBe(2);
    const [html, broken] = await stored();
    expect(html!.from_name).toBe('Jane X-Evil: 1');
    expect(html!.subject).toBe('Hello X-Injected: 1');
    expect(html!.body).not.toMatch(/<|script|alert\(1\)|javascript:|tracker/);
    expect(html!.body).toContain('Hi there click');
    const files = await rowsOf<{ filename: string; size: number }>(database.db, sql`select filename, size from inbound_attachments`);
    expect(files).toEqual([{ filename: 'report.pdf', size: 13 }]);
    expect(broken!.subject.length).toBeLessThanOrEqual(500);
    expect(broken!.lead_id).toBe(leadId);
  });
});
