import { sql } from 'drizzle-orm';
import { beforeEach, describe, expect, it } from 'vitest';
import { ensureAdmin } from '../auth/accounts.ts';
import { claimMailbox, messageHash, senderHash } from '../db/queries/inbound-emails-queries.ts';
import type { MailboxPlace } from '../db/queries/inbound-replies-queries.ts';
import { execute } from '../db/sql.ts';
import type { InboundMessage } from '../lib/inbound-message.ts';
import { rowsOf, useTestDatabase } from '../test/database.ts';
import { storeReply } from './store-reply.ts';

/**
 * Storing a message read from the reply mailbox, on the database: its match to a lead from what
 * the database knows (match-reply.test.ts has every branch of the decision), and the guards of the
 * one transaction: the mailbox's lease, a message stored once, its owner told once.
 */
const database = useTestDatabase();
const key = Buffer.alloc(32, 7);
const mail = { domain: 'keystone.test', sending: true };
const me = 'reader-1';
let uid = 0;
let leadId: string;
let ownerId: string;

const place = (mailbox = 'replies'): MailboxPlace => ({ mailbox, me, uidvalidity: 1, uid: ++uid });
const message = (m: Partial<InboundMessage> = {}): InboundMessage => ({
  messageId: `<reply-${uid}@example.org>`,
  inReplyTo: null,
  answers: [],
  from: { name: 'Jane Doe', address: 'jane@example.com' },
  to: 'hello@keystone.test',
  cc: '',
  recipients: [],
  subject: 'Re: Your report',
  date: new Date('2026-11-27T10:00:00Z'),
  receivedAt: new Date('2026-11-27T10:00:05Z'),
  body: 'Thursday works.',
  attachments: [],
  asksToStop: false,
  senderVerified: false,
  ...m,
});
const stored = (id: string) =>
  rowsOf<{ lead_id: string | null; matched_by: string | null; sender_verified: boolean; thread_id: string | null; erased_sender: boolean }>(
    database.db,
    sql`select lead_id, matched_by, sender_verified, thread_id, erased_sender from inbound_emails where id = ${id}`,
  );

beforeEach(async () => {
  await execute(
    database.db,
    sql`truncate users, leads, notifications, emails, inbound_emails, mail_readers, erased_senders, erased_messages cascade`,
  );
  ownerId = (await ensureAdmin(database.db, 'dana@keystone.test', 'dana-password', 'owner', 'Dana Whitfield')).user.id;
  const [lead] = await rowsOf<{ id: string }>(
    database.db,
    sql`insert into leads (full_name, email, phone, property_types, owner_id, reply_token)
        values ('Jane Doe', 'jane@example.com', '555', array['land'], ${ownerId}, 'k3x9abcd12') returning id`,
  );
  leadId = lead!.id;
  expect(await claimMailbox(database.db, 'replies', me, 60)).toBeDefined();
});

describe('storeReply', () => {
  it('joins the lead of the message of ours it answers, in its thread, never before it, and tells the owner once', async () => {
    const [ours] = await rowsOf<{ id: string }>(
      database.db,
      sql`insert into emails (message_id, kind, to_address, data, lead_id, status, sent_at)
          values ('<ours@keystone.test>', 'lead-message', 'jane@example.com', '{}', ${leadId}, 'sent', '2026-11-27T10:00:09.123456Z')
          returning id`,
    );
    const at = place();
    const reply = message({ answers: ['<ours@keystone.test>'] });
    // From the lead's address, sent to their reply address: verified.
    const first = await storeReply(database.db, at, reply, ['k3x9abcd12'], key, mail);
    if (typeof first === 'string') throw new Error(`not stored: ${first}`);
    expect(await stored(first.id)).toEqual([
      { lead_id: leadId, matched_by: 'thread', sender_verified: true, thread_id: ours!.id, erased_sender: false },
    ]);
    // Its mail server's clock put it before the message it answers: it is stored just after, to the microsecond.
    const [times] = await rowsOf<{ received: string }>(
      database.db,
      sql`select to_char(received_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US') as received from inbound_emails where id = ${first.id}`,
    );
    expect(times!.received).toBe('2026-11-27T10:00:09.124456');
    // The same message again (another reader, or the same UID read twice): stored and told once.
    expect(await storeReply(database.db, at, reply, [], key, mail)).toBe('duplicate');
    expect(await storeReply(database.db, place(), reply, [], key, mail)).toBe('duplicate');
    expect(await rowsOf(database.db, sql`select 1 from notifications where user_id = ${ownerId} and type = 'reply'`)).toHaveLength(1);
  });

  it('joins by the reply address’s token, else by the sender; keeps the rest, and an erased person’s mail, for the Inbox', async () => {
    const token = await storeReply(
      database.db,
      place(),
      message({ from: { name: '', address: 'someone@else.org' } }),
      ['k3x9abcd12'],
      key,
      mail,
    );
    const sender = await storeReply(database.db, place(), message(), [], key, mail);
    const stranger = await storeReply(database.db, place(), message({ from: { name: '', address: 'someone@else.org' } }), [], key, mail);
    if (typeof token === 'string' || typeof sender === 'string' || typeof stranger === 'string') throw new Error('not stored');
    expect([token.lead_id, sender.lead_id, stranger.lead_id]).toEqual([leadId, leadId, null]);
    expect((await stored(sender.id))[0]).toMatchObject({ matched_by: 'sender', sender_verified: false });

    await execute(database.db, sql`insert into erased_senders (address_hash) values (${senderHash(key, 'jane@example.com')})`);
    const erased = await storeReply(database.db, place(), message(), [], key, mail);
    if (typeof erased === 'string') throw new Error('not stored');
    expect(await stored(erased.id)).toEqual([
      { lead_id: null, matched_by: null, sender_verified: true, thread_id: null, erased_sender: true },
    ]);
  });

  it('stores nothing of a copy of erased mail read again, and moves the reader past it', async () => {
    await execute(database.db, sql`insert into erased_messages (message_hash) values (${messageHash(key, '<erased@example.org>')})`);
    const at = place();
    expect(await storeReply(database.db, at, message({ messageId: '<erased@example.org>' }), [], key, mail)).toBe('duplicate');
    await execute(database.db, sql`insert into erased_senders (address_hash) values (${senderHash(key, 'jane@example.com')})`);
    const before = new Date(Date.now() - 86_400_000);
    expect(await storeReply(database.db, place(), message({ messageId: null, receivedAt: before }), [], key, mail)).toBe('duplicate');
    expect(await rowsOf(database.db, sql`select 1 from inbound_emails`)).toHaveLength(0);
    const [reader] = await rowsOf<{ last_uid: string }>(
      database.db,
      sql`select last_uid::text from mail_readers where mailbox = 'replies'`,
    );
    expect(Number(reader!.last_uid)).toBe(at.uid + 1);
  });

  it('stores nothing once another process holds the mailbox', async () => {
    await execute(database.db, sql`update mail_readers set locked_by = 'reader-2'`);
    expect(await storeReply(database.db, place(), message(), [], key, mail)).toBe('not_ours');
    expect(await rowsOf(database.db, sql`select 1 from inbound_emails`)).toHaveLength(0);
  });

  it('keeps the files that came with it, in the same transaction', async () => {
    const file = { filename: 'plan.pdf', contentType: 'application/pdf', size: 3, content: Buffer.from([1, 2, 3]) };
    const stored = await storeReply(database.db, place(), message({ attachments: [file] }), [], key, mail);
    if (typeof stored === 'string') throw new Error('not stored');
    expect(await rowsOf(database.db, sql`select filename, size from inbound_attachments where email_id = ${stored.id}`)).toEqual([
      { filename: 'plan.pdf', size: 3 },
    ]);
  });
});
