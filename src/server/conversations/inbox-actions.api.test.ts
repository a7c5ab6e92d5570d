import { sql } from 'drizzle-orm';
import { beforeEach, describe, expect, it } from 'vitest';
import type { CreateLeadRequest } from '#shared/schemas/lead';
import { ensureAdmin } from '../auth/accounts.ts';
import { execute } from '../db/sql.ts';
import { rowsOf, useTestDatabase } from '../test/database.ts';
import { ALREADY_ON_A_LEAD, attachToLead, dismissMessage, leadFromMessage } from './inbox-actions.ts';

/** What may be done with a message of the Inbox, once and only while it waits there. */
const database = useTestDatabase();
let uid = 0;
let staffId: string;

const arrived = async () =>
  (
    await rowsOf<{ id: string }>(
      database.db,
      sql`insert into inbound_emails (mailbox, uidvalidity, uid, from_address, subject, body)
          values ('test', 1, ${++uid}, 'nora@example.org', 'A duplex', 'Please call.') returning id`,
    )
  )[0]!.id;
const fields: CreateLeadRequest = {
  full_name: 'Nora Newcomer',
  email: 'nora@example.org',
  phone: '(202) 555-0133',
  property_types: ['multifamily'],
};
const refusal = async (work: Promise<unknown>) =>
  work.then(
    () => undefined,
    (error: unknown) => error,
  );

beforeEach(async () => {
  await execute(database.db, sql`truncate users, leads, emails, notifications, inbound_emails cascade`);
  staffId = (await ensureAdmin(database.db, 'sam@keystone.test', 'sam-password', 'staff', 'Sam Staff')).user.id;
});

describe('the Inbox', () => {
  it('puts a message on an existing lead’s page once, read and vouched for by staff', async () => {
    const id = await arrived();
    const lead = await leadFromMessage(database.db, await arrived(), { ...fields }, staffId);
    expect(await refusal(attachToLead(database.db, id, '00000000-0000-4000-8000-000000000000'))).toMatchObject({
      status: 400,
      fields: { lead_id: 'Choose a lead' },
    });
    await attachToLead(database.db, id, lead.id);
    expect(
      await rowsOf(database.db, sql`select matched_by, sender_verified, read_at is not null as read from inbound_emails where id = ${id}`),
    ).toEqual([{ matched_by: 'staff', sender_verified: true, read: true }]);
    expect(await refusal(attachToLead(database.db, id, lead.id))).toMatchObject({ status: 409, message: ALREADY_ON_A_LEAD });
    expect(await refusal(dismissMessage(database.db, id, true))).toMatchObject({ status: 409 });
    expect(await refusal(attachToLead(database.db, '00000000-0000-4000-8000-000000000001', lead.id))).toMatchObject({ status: 404 });
  });

  it('makes one lead of a message (source Email, nobody written to), with the message on its page', async () => {
    const id = await arrived();
    const [first, second] = await Promise.allSettled([
      leadFromMessage(database.db, id, { ...fields }, staffId),
      leadFromMessage(database.db, id, { ...fields }, staffId),
    ]);
    const made = [first, second].filter((r) => r.status === 'fulfilled');
    const refused = [first, second].filter((r) => r.status === 'rejected');
    expect(made).toHaveLength(1);
    expect(refused.map((r) => (r as PromiseRejectedResult).reason)).toEqual([expect.objectContaining({ status: 409 })]);
    const lead = (made[0] as PromiseFulfilledResult<{ id: string; source: string | null }>).value;
    expect(lead).toMatchObject({ source: 'Email' });
    expect(lead).not.toHaveProperty('status_history');
    expect(await rowsOf(database.db, sql`select lead_id from inbound_emails where id = ${id}`)).toEqual([{ lead_id: lead.id }]);
    expect(await rowsOf(database.db, sql`select 1 from emails`)).toHaveLength(0);
    expect(await refusal(leadFromMessage(database.db, '00000000-0000-4000-8000-000000000001', { ...fields }, staffId))).toMatchObject({
      status: 404,
    });
  });

  it('dismisses a message and brings it back', async () => {
    const id = await arrived();
    await dismissMessage(database.db, id, true);
    expect(await rowsOf(database.db, sql`select dismissed_at is not null as dismissed from inbound_emails`)).toEqual([{ dismissed: true }]);
    await dismissMessage(database.db, id, false);
    expect(await rowsOf(database.db, sql`select dismissed_at is not null as dismissed from inbound_emails`)).toEqual([
      { dismissed: false },
    ]);
    expect(await refusal(dismissMessage(database.db, '00000000-0000-4000-8000-000000000001', true))).toMatchObject({ status: 404 });
  });
});
