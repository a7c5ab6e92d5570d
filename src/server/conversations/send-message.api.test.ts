import { sql } from 'drizzle-orm';
import { beforeEach, describe, expect, it } from 'vitest';
import { ensureAdmin } from '../auth/accounts.ts';
import { parseConfig } from '../config.ts';
import { execute } from '../db/sql.ts';
import { TEST_CREDENTIALS_KEY } from '../test/test-app.ts';
import { rowsOf, useTestDatabase } from '../test/database.ts';
import { DO_NOT_EMAIL_REFUSAL, sendLeadMessage, sendLeadMessageAgain } from './send-message.ts';

/** Writing to a lead from their page: queued with the lead's reply address, or refused with why. */
const database = useTestDatabase();
const limited = parseConfig({
  CREDENTIALS_KEY: TEST_CREDENTIALS_KEY,
  MAIL_REPLY_TO: 'replies@keystone.test',
  LEAD_EMAIL_PER_HOUR: '2',
});
let writer: { id: string; name: string };
let leadId: string;
const refusal = async (work: Promise<unknown>) =>
  work.then(
    () => undefined,
    (error: unknown) => error,
  );

beforeEach(async () => {
  await execute(database.db, sql`truncate users, leads, emails, rate_limits cascade`);
  writer = { id: (await ensureAdmin(database.db, 'dana@keystone.test', 'dana-password', 'owner', 'Dana Whitfield')).user.id, name: 'Dana' };
  leadId = (
    await rowsOf<{ id: string }>(
      database.db,
      sql`insert into leads (full_name, email, phone, property_types) values ('Jane Doe', 'jane@example.com', '555', array['land']) returning id`,
    )
  )[0]!.id;
});

describe('sendLeadMessage', () => {
  it('queues the message to the lead, replying to their own address, which keeps its token', async () => {
    const config = limited;
    const sent = await sendLeadMessage(database.db, config, writer, leadId, { subject: 'Hello {{first_name}}', body: 'Thursday?' });
    expect(sent).toMatchObject({ to: 'jane@example.com', subject: 'Hello Jane' });
    const [lead] = await rowsOf<{ reply_token: string }>(database.db, sql`select reply_token from leads where id = ${leadId}`);
    expect(lead!.reply_token).toMatch(/^[a-z0-9]{10}$/);
    await sendLeadMessage(database.db, config, writer, leadId, { subject: 'Again', body: 'Friday?' });
    expect(await rowsOf(database.db, sql`select data->>'reply_to' as reply_to from emails order by created_at`)).toEqual([
      { reply_to: `replies+${lead!.reply_token}@keystone.test` },
      { reply_to: `replies+${lead!.reply_token}@keystone.test` },
    ]);
  });

  it('refuses no such lead (404), a lead marked Do not email (409), and an answer to a message not theirs (400)', async () => {
    const message = { subject: 'Hi', body: 'Hello' };
    const config = { ...limited, mail: { ...limited.mail, leadMessagesPerHour: 0 } };
    expect(await refusal(sendLeadMessage(database.db, config, writer, '00000000-0000-4000-8000-000000000001', message))).toMatchObject({
      status: 404,
    });
    expect(
      await refusal(
        sendLeadMessage(database.db, config, writer, leadId, { ...message, in_reply_to: '00000000-0000-4000-8000-000000000001' }),
      ),
    ).toMatchObject({ status: 400, fields: { in_reply_to: 'Not a message on this lead’s timeline' } });
    await execute(database.db, sql`update leads set do_not_email = true`);
    expect(await refusal(sendLeadMessage(database.db, config, writer, leadId, message))).toMatchObject({
      status: 409,
      message: DO_NOT_EMAIL_REFUSAL,
    });
  });

  it('counts each person’s messages, sent again ones too, against LEAD_EMAIL_PER_HOUR (429 past it)', async () => {
    const config = limited;
    const first = await sendLeadMessage(database.db, config, writer, leadId, { subject: 'One', body: 'One' });
    // Email is off here: nothing is sent again, and it is not counted.
    expect(await refusal(sendLeadMessageAgain(database.db, config, writer.id, leadId, first.id))).toMatchObject({ status: 422 });
    await sendLeadMessage(database.db, config, writer, leadId, { subject: 'Two', body: 'Two' });
    expect(await refusal(sendLeadMessage(database.db, config, writer, leadId, { subject: 'Three', body: 'Three' }))).toMatchObject({
      status: 429,
    });
    const on = { ...config, mail: { ...config.mail, smtp: { host: '127.0.0.1' } as never } };
    expect(await refusal(sendLeadMessageAgain(database.db, on, writer.id, leadId, first.id))).toMatchObject({ status: 429 });
  });
});
