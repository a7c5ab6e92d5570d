import { sql } from 'drizzle-orm';
import { beforeEach, describe, expect, it } from 'vitest';
import { execute } from '../db/sql.ts';
import { rowsOf, useTestDatabase } from '../test/database.ts';
import { markLeadRepliesRead } from './reply-reading.ts';
import { notAStopRequest } from './stop-request.ts';

/** A lead's replies read once their page showed them; a reply that asked to stop, said not to. */
const database = useTestDatabase();
let leadId: string;
let uid = 0;

const reply = async (receivedAt: string, asksToStop = false) =>
  (
    await rowsOf<{ id: string }>(
      database.db,
      sql`insert into inbound_emails (mailbox, uidvalidity, uid, from_address, body, lead_id, matched_by, received_at, asks_to_stop)
          values ('test', 1, ${++uid}, 'jane@example.com', 'Hi', ${leadId}, 'sender', ${receivedAt}::timestamptz, ${asksToStop}) returning id`,
    )
  )[0]!.id;
const unread = async () =>
  (await rowsOf<{ n: number }>(database.db, sql`select count(*)::int as n from inbound_emails where read_at is null`))[0]!.n;
const refusal = async (work: Promise<unknown>) =>
  work.then(
    () => undefined,
    (error: unknown) => error,
  );

beforeEach(async () => {
  await execute(database.db, sql`truncate leads, inbound_emails cascade`);
  leadId = (
    await rowsOf<{ id: string }>(
      database.db,
      sql`insert into leads (full_name, email, phone, property_types) values ('Jane Doe', 'jane@example.com', '555', array['land']) returning id`,
    )
  )[0]!.id;
});

describe('reading a lead’s replies', () => {
  it('marks read what the page showed, to the millisecond it had; a reply that came after stays unread', async () => {
    await reply('2026-11-27T10:00:00.123456Z');
    await reply('2026-11-27T10:00:00.124000Z');
    expect(await markLeadRepliesRead(database.db, leadId, '2026-11-27T10:00:00.123Z')).toBe(1);
    expect(await unread()).toBe(1);
    expect(await markLeadRepliesRead(database.db, leadId)).toBe(1);
    expect(await markLeadRepliesRead(database.db, leadId)).toBe(0);
    expect(await refusal(markLeadRepliesRead(database.db, '00000000-0000-4000-8000-000000000001'))).toMatchObject({ status: 404 });
  });

  it('takes back a reply’s request to stop when staff say it is none, only on its own lead', async () => {
    const asked = await reply('2026-11-27T10:00:00Z', true);
    const other = await reply('2026-11-27T10:00:01Z');
    expect(await refusal(notAStopRequest(database.db, leadId, other))).toMatchObject({ status: 404 });
    expect(await refusal(notAStopRequest(database.db, '00000000-0000-4000-8000-000000000001', asked))).toMatchObject({ status: 404 });
    await notAStopRequest(database.db, leadId, asked);
    expect(await rowsOf(database.db, sql`select asks_to_stop from inbound_emails where id = ${asked}`)).toEqual([{ asks_to_stop: false }]);
    expect(await refusal(notAStopRequest(database.db, leadId, asked))).toMatchObject({ status: 404 });
  });
});
