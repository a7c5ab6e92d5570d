import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrationBefore } from '../test/migration-before.ts';

/**
 * The migration that gave conversations their threads, on a database as it was just before
 * it: a chain of answers (ours, theirs, ours, theirs… 44 deep) becomes one thread, named by its
 * first message; a message that answers nothing stays its own.
 */
const { client, query, before, migrate } = migrationBefore('_threads');
const ids: Record<string, string> = {};
beforeAll(async () => {
  await before();
  const [lead] = await query<{ id: string }>(
    `insert into leads (full_name, email, phone, property_types) values ('Jane Doe', 'jane@example.com', '555', '{land}') returning id`,
  );
  const ours = async (name: string, messageId: string, inReplyTo?: string) => {
    const [row] = await query<{ id: string }>(
      `insert into emails (message_id, kind, to_address, data, lead_id) values ($1, 'lead-message', 'jane@example.com', $2, $3) returning id`,
      [messageId, JSON.stringify({ subject: name, body: 'x', ...(inReplyTo ? { in_reply_to: inReplyTo } : {}) }), lead!.id],
    );
    ids[name] = row!.id;
  };
  const theirs = async (name: string, uid: number, messageId: string, answers: string | null, inReplyTo: string | null) => {
    const [row] = await query<{ id: string }>(
      `insert into inbound_emails (mailbox, uidvalidity, uid, message_id, in_reply_to, from_address, subject, lead_id, answers_email_id)
       values ('m', 1, $1, $2, $3, 'jane@example.com', $4, $5, $6) returning id`,
      [uid, messageId, inReplyTo, name, lead!.id, answers],
    );
    ids[name] = row!.id;
  };
  await ours('report', '<o1@firm>');
  await theirs('reply', 1, '<t1@x>', ids.report!, '<o1@firm>');
  await ours('answer', '<o2@firm>', '<t1@x>');
  await theirs('reply-again', 2, '<t2@x>', ids.answer!, '<o2@firm>');
  // They write again, answering their own message (no message of ours named).
  await theirs('and-more', 3, '<t3@x>', null, '<t2@x>');
  // A long exchange: 40 more answers, each to the one before.
  for (let n = 1; n <= 20; n++) {
    await ours(`long-${n}`, `<lo${n}@firm>`, n === 1 ? '<t3@x>' : `<lt${n - 1}@x>`);
    await theirs(`long-reply-${n}`, 100 + n, `<lt${n}@x>`, ids[`long-${n}`]!, `<lo${n}@firm>`);
  }
  await ours('invoice', '<o3@firm>');
  await theirs('loose', 4, '<t4@x>', null, null);
  await migrate();
}, 120_000);
afterAll(async () => {
  await client.close();
});

describe('the threads migration', () => {
  it('puts a chain of answers in the thread of its first message and leaves the rest their own', async () => {
    const rows = await query<{ id: string; thread_id: string | null }>(
      `select id, thread_id from emails union all select id, thread_id from inbound_emails`,
    );
    const thread = (name: string) => {
      const row = rows.find((r) => r.id === ids[name]);
      return row?.thread_id ?? row?.id;
    };
    const chain = ['reply', 'answer', 'reply-again', 'and-more'];
    for (let n = 1; n <= 20; n++) chain.push(`long-${n}`, `long-reply-${n}`);
    for (const name of chain) expect(thread(name), name).toBe(ids.report);
    expect(thread('report')).toBe(ids.report);
    expect(thread('invoice')).toBe(ids.invoice);
    expect(thread('loose')).toBe(ids.loose);
  });
});
