import type { CreateLeadRequest, Lead } from '#shared/schemas/lead';
import type { Db } from '../db/client.ts';
import { attachInbound, dismissInbound, isOnALead, lockInboxMessage, type InboxRefusal } from '../db/queries/inbound-emails-queries.ts';
import { createLead, getLead } from '../db/queries/leads-queries.ts';
import { transaction } from '../db/sql.ts';
import { AppError } from '../lib/app-error.ts';

/**
 * The Inbox: mail from the reply mailbox that joined no lead (match-reply.ts) waits there until
 * staff put it on a lead's page, make a lead of it, or dismiss it (deleted with its files after
 * 30 days: db/queries/inbound-emails-queries.ts, deleteDismissedInbox). A message on a lead's page has
 * left the Inbox: nothing of these applies to it again (409).
 */

export const ALREADY_ON_A_LEAD = 'This message is on a lead’s page already.';

const refused = (why: InboxRefusal) =>
  why === 'attached' ? new AppError('conflict', ALREADY_ON_A_LEAD) : new AppError('not_found', 'Message not found.');

/** Puts a message of the Inbox on a lead's page (staff chose the lead): read, and verified (staff vouch for it). */
export async function attachToLead(db: Db, id: string, leadId: string): Promise<void> {
  const done = await attachInbound(db, id, leadId);
  if (done === 'no_lead') throw new AppError('validation_failed', 'That lead does not exist.', { lead_id: 'Choose a lead' });
  if (done !== true) throw refused(done);
}

/** Dismisses a message of the Inbox (`dismissed`), or brings a dismissed one back. */
export async function dismissMessage(db: Db, id: string, dismissed: boolean): Promise<void> {
  const done = await dismissInbound(db, id, dismissed);
  if (done !== true) throw refused(done);
}

/**
 * Makes a lead of a message of the Inbox, source "Email", and puts the message on its page, in one
 * transaction that holds the message: two people making a lead of one message make one lead, and
 * the other is told it is on a lead's page. No mail at all: a person who emailed the firm gets no
 * automatic answer (mail cannot be bounced at strangers).
 */
export async function leadFromMessage(db: Db, id: string, fields: CreateLeadRequest, createdBy: string): Promise<Lead> {
  const leadId = await transaction(db, async (tx) => {
    if (!(await lockInboxMessage(tx, id))) return undefined;
    const created = await createLead(tx, fields, { createdBy, source: 'Email' });
    if (!created.id || (await attachInbound(tx, id, created.id)) !== true)
      throw new AppError('internal_error', 'The lead could not be made.');
    return created.id;
  });
  if (!leadId) throw refused((await isOnALead(db, id)) ? 'attached' : 'not_found');
  const lead = await getLead(db, leadId);
  if (!lead) throw new AppError('internal_error', 'The lead could not be read back.');
  const { status_history: _history, ...made } = lead;
  return made;
}
