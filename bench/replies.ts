/**
 * `replies`: 1,000 replies waiting in a real IMAP mailbox (Dovecot, from Debian's package) read
 * and matched by the reply reader (src/server/conversations/reply-reader.ts, as a server process runs it):
 * a quarter answering a message we sent (In-Reply-To), a quarter to a lead's reply address,
 * a quarter from a lead's address, a quarter from strangers (the Inbox). Target: all stored,
 * each once and matched as it should be, in under 30 s, on PGlite and PostgreSQL.
 */
import pino from 'pino';
import { sql } from 'drizzle-orm';
import * as z from 'zod';
import type { Database } from '../src/server/db/client.ts';
import { execute, queryRows } from '../src/server/db/sql.ts';
import { MailReader } from '../src/server/conversations/reply-reader.ts';
import { parseImapUrl, type ImapSettings } from '../src/server/lib/mail-settings.ts';
import { startDovecot } from '../src/server/test/dovecot.ts';

export const REPLIES = 1_000;
export const REPLIES_TARGET_SECONDS = 30;

type Verdict = (name: string, pass: boolean, detail: string) => void;

/** 250 leads, each with a message we sent and a reply token. */
async function seedLeads(db: Database['db']): Promise<void> {
  await execute(
    db,
    sql`
    insert into leads (full_name, email, phone, property_types, reply_token)
    select 'Replier ' || i, 'replier' || i || '@example.com', '(301) 555-0100', array['land'], 'tok' || lpad(i::text, 7, '0')
    from generate_series(1, 250) i`,
  );
  await execute(
    db,
    sql`
    insert into emails (message_id, status, kind, to_address, data, lead_id)
    select '<sent-' || substr(l.email, 8, position('@' in l.email) - 8) || '@keystone.test>', 'sent', 'lead-message', l.email,
      jsonb_build_object('subject', 'Hi', 'body', 'x', 'writer', 'Bench', 'reply_to', null), l.id
    from leads l`,
  );
}

function messageFor(i: number): string {
  const n = (i % 250) + 1;
  const kind = i % 4;
  const headers = [
    kind === 2 ? `From: Replier ${n} <replier${n}@example.com>` : `From: Someone ${i} <someone${i}@example.org>`,
    kind === 1 ? `To: replies+tok${String(n).padStart(7, '0')}@keystone.test` : 'To: hello@keystone.test',
    `Subject: Reply ${i}`,
    `Message-ID: <bench-reply-${i}@example.org>`,
    ...(kind === 0 ? [`In-Reply-To: <sent-${n}@keystone.test>`] : []),
    'Date: Fri, 27 Nov 2026 10:00:00 +0000',
    'Content-Type: text/html; charset=utf-8',
  ];
  return `${headers.join('\r\n')}\r\n\r\n<p>Thanks. ${'The title looks clean, the survey is attached. '.repeat(10)}</p>\r\n`;
}

/** Seeds, delivers REPLIES messages, reads them all with one reader, and checks every one was stored once and matched. */
export async function benchReplies(engine: string, open: () => Promise<Database>, verdict: Verdict): Promise<void> {
  console.log(`\nReading ${REPLIES.toLocaleString('en-US')} replies from Dovecot, ${engine}`);
  const dovecot = await startDovecot(['replies']);
  const database = await open();
  try {
    await database.migrate();
    await seedLeads(database.db);
    for (let i = 0; i < REPLIES; i++) dovecot.deliver('replies', messageFor(i));
    const imap = parseImapUrl(dovecot.urlOf('replies')) as ImapSettings;
    const reader = new MailReader({
      imap,
      ca: undefined,
      replyTo: { name: '', address: 'replies@keystone.test' },
      database: () => database,
      logger: pino({ level: 'silent' }),
      leaseSeconds: 30,
      mail: { domain: 'keystone.test', sending: false },
      firstDays: 14,
    });
    const started = performance.now();
    let stored = 0;
    while (stored < REPLIES && performance.now() - started < 120_000) {
      const got = await reader.flush();
      if (got === 0) break;
      stored += got;
    }
    const seconds = (performance.now() - started) / 1000;
    await reader.stop();
    const [counts] = await queryRows(
      database.db,
      sql`select count(*)::int as total, count(distinct uid)::int as distinct_uids,
            count(*) filter (where matched_by = 'thread')::int as thread, count(*) filter (where matched_by = 'token')::int as token,
            count(*) filter (where matched_by = 'sender')::int as sender, count(*) filter (where lead_id is null)::int as inbox
          from inbound_emails`,
      z.object({
        total: z.number(),
        distinct_uids: z.number(),
        thread: z.number(),
        token: z.number(),
        sender: z.number(),
        inbox: z.number(),
      }),
    );
    const quarter = REPLIES / 4;
    const matched = counts!.thread === quarter && counts!.token === quarter && counts!.sender === quarter && counts!.inbox === quarter;
    verdict(
      `${engine}: ${REPLIES.toLocaleString('en-US')} replies read and matched`,
      seconds < REPLIES_TARGET_SECONDS && counts!.total === REPLIES && counts!.distinct_uids === REPLIES && matched,
      `${seconds.toFixed(1)} s (${Math.round(REPLIES / seconds)}/s; target < ${REPLIES_TARGET_SECONDS} s), ${counts!.total} stored once each; ` +
        `${counts!.thread} by thread, ${counts!.token} by reply address, ${counts!.sender} by sender, ${counts!.inbox} to the Inbox`,
    );
  } finally {
    await database.close();
    await dovecot.stop();
  }
}
