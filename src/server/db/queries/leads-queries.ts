import { sql, type SQL } from 'drizzle-orm';
import * as z from 'zod';
import { LOST_REASON_NOT_GIVEN } from '#shared/constants';
import { LEAD_STAGE_MESSAGES, stageChangeRefusal } from '#shared/rules/lead-stage-change';
import { sqlState } from '../database-faults.ts';
import {
  leadSchema,
  leadStatusChangeSchema,
  type Lead,
  type LeadDetail,
  type LeadDealFields,
  type LeadFields,
  type UpdateLeadRequest,
} from '#shared/schemas/lead';
import type { Db } from '../client.ts';
import { isoTimestamp, LIVE_AFTER_COMMIT, pgArray, queryRows, transaction } from '../sql.ts';
import { PREPARED } from '../prepared-statements.ts';
import { formTokenClaim, type FormTokenUse } from './form-token-uses-queries.ts';
import { nextStepSets, setNextStepTask } from './lead-tasks-queries.ts';
import { newEmail, visitorBudget, type QueueMail } from './emails-queries.ts';
import { leadSnapshotOfRow } from './lead-snapshot-queries.ts';

/**
 * A lead as the API returns it (the shared Lead schema), from `leads l`. node-postgres reads a
 * bigint as a string; the fee (at most 1e11 cents) is exact as a float8, which reads as a number.
 */
export const leadColumns = sql`l.id, ${isoTimestamp(sql`l.created_at`)} as created_at, l.status, l.full_name, l.email, l.phone,
  l.property_types, l.contacted, l.message, l.source, l.utm_source, l.utm_medium, l.utm_campaign, l.landing_page, l.pages_viewed,
  l.owner_id, (select u.email from users u where u.id = l.owner_id) as owner_email,
  (select u.display_name from users u where u.id = l.owner_id) as owner_name, l.property_address,
  to_char(l.target_closing_date, 'YYYY-MM-DD') as target_closing_date,
  -- bigint arrives from node-postgres as a string; at most 1e11 cents, exact as a double.
  l.estimated_fee_cents::float8 as estimated_fee_cents,
  to_char(l.follow_up_on, 'YYYY-MM-DD') as follow_up_on, l.follow_up_note, l.submission_id is not null as from_form, l.do_not_email,
  ${isoTimestamp(sql`l.suspected_abuse_at`)} as suspected_abuse_at, ${isoTimestamp(sql`l.updated_at`)} as updated_at,
  -- Replies nobody has read yet (inbound_emails_unread_idx: a probe per lead).
  (select count(*)::int from inbound_emails i where i.lead_id = l.id and i.read_at is null) as unread_replies,
  -- The newest reply asking us to stop writing, while they are not marked Do not email.
  case when not l.do_not_email then (select json_build_object('id', i.id, 'subject', i.subject, 'received_at', ${isoTimestamp(sql`i.received_at`)})
    from inbound_emails i where i.lead_id = l.id and i.asks_to_stop order by i.received_at desc limit 1) end as stop_request,
  l.stage_id, (select s.name from pipeline_stages s where s.id = l.stage_id) as stage_name, l.lost_reason`;

export type NewLead = LeadFields & LeadDealFields & { submission_id?: string | null; analytics_session_id?: string | undefined };

/**
 * The emails a new lead causes: a "new lead" message to every admin who wants them (but the
 * one who typed the lead in), and, for a lead who asked through the form, an acknowledgement
 * (mail the visitor caused: at most one per address per 30 days, within the address's daily
 * budget, see visitorBudget). Without it, no email is queued (demo data).
 */
export type LeadMail = QueueMail & { acknowledge: boolean };

const createdRow = z.object({ id: z.uuid().nullable(), notices: z.array(z.uuid()), claimed: z.boolean() });
/**
 * The lead stored (null when a repeated submission stored nothing) and the notifications it
 * made; `claimed` is false when another submission had used the public form's token (nothing stored).
 */
export type CreatedLead = { id: string | null; created: boolean; notices: string[]; claimed: boolean };

/**
 * A public form submission's part in createLead. It stores the lead only for a new person (no
 * lead has the email, no inquiry is this submission: crm_lead_person_is_new decides it under
 * the email's lock, so it may run as a statement of its own), claims the form's token when
 * there is one, and leaves the live announcements to the caller once committed (LIVE_AFTER_COMMIT).
 */
export type PublicSubmission = { formToken?: FormTokenUse };

/**
 * Stores a lead (status New), its first status-history entry, a `lead` notification for every
 * admin and the emails it causes, in one statement (so one transaction, one round trip). A
 * repeated submission_id stores nothing and reports `created: false`, which makes the public
 * form's retries and double clicks harmless, and its emails are never queued twice.
 */
export async function createLead(
  db: Db,
  lead: NewLead,
  {
    createdBy = null,
    mail,
    bookingTokenHash,
    publicSubmission,
    source = null,
  }: {
    createdBy?: string | null;
    /** Where it came from when no website visit says (an email read from the reply mailbox: 'Email'). */
    source?: string | null;
    mail?: LeadMail;
    bookingTokenHash?: string;
    publicSubmission?: PublicSubmission;
  } = {},
): Promise<CreatedLead> {
  const message = lead.message && lead.message.length > 0 ? lead.message : null;
  const notice = `New lead: ${lead.full_name} (${lead.email})`;
  const formToken = publicSubmission?.formToken;
  // Prepared, one statement per shape (its text depends only on these): planning its CTEs cost
  // PostgreSQL about as much as running them, at every submission.
  const shape =
    `${PREPARED.createLead}${mail ? '+mail' : ''}${bookingTokenHash ? '+link' : ''}${publicSubmission ? '+public' : ''}${formToken ? '+token' : ''}` as const;
  const claimed = formToken ? sql`coalesce((select same from claim), false)` : sql`true`;
  const rows = await queryRows(
    db,
    sql`
    with ${formToken ? sql`claim as (${formTokenClaim(formToken, lead.submission_id ?? '')}), ` : sql``}inserted as (
      -- Attribution comes from the visitor's analytics session, if the form sent one we know.
      insert into leads (full_name, email, phone, property_types, message, submission_id,
                         analytics_session_id, source, utm_source, utm_medium, utm_campaign, landing_page, pages_viewed, visit_hour,
                         property_address, target_closing_date, estimated_fee_cents)
      select ${lead.full_name}, ${lead.email}, ${lead.phone},
             ${pgArray(lead.property_types)}::text[], ${message}, ${lead.submission_id ?? null}::uuid,
             ${lead.analytics_session_id ?? null}::text, coalesce(s.source, ${source}::text), s.utm_source, s.utm_medium, s.utm_campaign, s.landing_page, s.page_views, s.first_hour,
             ${lead.property_address ?? null}::text, ${lead.target_closing_date ?? null}::date, ${lead.estimated_fee_cents ?? null}::bigint
      from (select 1) one left join analytics_sessions s on s.session_id = ${lead.analytics_session_id ?? null}::text
      ${
        publicSubmission
          ? sql`where ${claimed} and ${LIVE_AFTER_COMMIT} is not null
          and crm_lead_person_is_new(${lead.email}, ${lead.submission_id ?? null}::uuid)`
          : sql``
      }
      on conflict (submission_id) do nothing
      returning *
    ), history as (
      insert into lead_status_changes (lead_id, from_status, to_status, changed_by)
      select id, null, 'New', ${createdBy} from inserted
    ), notified as (
      insert into notifications (user_id, type, message, lead_id)
      select u.id, 'lead', ${notice}, i.id from users u cross join inserted i
      returning id
    )${mail ? queueLeadEmails(mail, createdBy) : sql``}${
      bookingTokenHash
        ? sql`, booking_link as (
      insert into booking_tokens (token_hash, lead_id, expires_at)
      select ${bookingTokenHash}, id, crm_now() + interval '24 hours' from inserted)`
        : sql``
    }
    select (select id from inserted) as id, array(select id::text from notified) as notices, ${claimed} as claimed`,
    createdRow,
    { prepared: shape },
  );
  const id = rows[0]?.id ?? null;
  return { id, created: id !== null, notices: rows[0]?.notices ?? [], claimed: rows[0]?.claimed ?? false };
}

/**
 * CTEs of createLead that queue its emails, each with a snapshot of the lead. The lead row is
 * inserted at most once per submission_id, so its acknowledgement is too.
 */
function queueLeadEmails(mail: LeadMail, createdBy: string | null): SQL {
  return sql`, lead_snapshot as (
      select i.id, i.email, i.full_name, ${leadSnapshotOfRow('i')} as data
      from inserted i
    ), to_admins as (
      insert into emails (message_id, status, last_error, kind, to_address, data, lead_id)
      select ${newEmail(mail)}, 'new-lead', u.email, s.data, s.id
      from lead_snapshot s cross join users u
      where u.email_new_leads and u.deactivated_at is null and u.id is distinct from ${createdBy}::uuid
    ), to_lead as (
      insert into emails (message_id, status, last_error, kind, to_address, data, lead_id, visitor_budget)
      select ${newEmail(mail)}, 'lead-acknowledgement', s.email, s.data, s.id, ${visitorBudget(mail)}
      from lead_snapshot s where ${mail.acknowledge}
    )`;
}

export async function getLead(db: Db, id: string): Promise<LeadDetail | undefined> {
  return (await getLeads(db, [id])).get(id);
}

/** Each lead of `ids` as GET /api/leads/{id} answers it (two statements however many): by id; a missing one is absent. */
export async function getLeads(db: Db, ids: readonly string[]): Promise<Map<string, LeadDetail>> {
  const found = new Map<string, LeadDetail>();
  if (ids.length === 0) return found;
  const leads = await queryRows(db, sql`select ${leadColumns} from leads l where l.id = any(${pgArray(ids)}::uuid[])`, leadSchema);
  if (leads.length === 0) return found;
  const history = await queryRows(
    db,
    sql`
    select c.lead_id, c.from_status, c.to_status, ${isoTimestamp(sql`c.changed_at`)} as changed_at, u.display_name as changed_by
    from lead_status_changes c left join users u on u.id = c.changed_by
    where c.lead_id = any(${pgArray(leads.map((l) => l.id))}::uuid[]) order by c.lead_id, c.changed_at, c.id`,
    leadStatusChangeSchema.extend({ lead_id: z.uuid() }),
  );
  for (const lead of leads) found.set(lead.id, { ...lead, status_history: [] });
  for (const { lead_id, ...change } of history) found.get(lead_id)?.status_history.push(change);
  return found;
}

/**
 * The CTE `owner_event`: each row of `updated` (id, old_owner_id, owner_id) whose owner changed
 * gets an 'owner' entry on its lead's timeline, naming both owners (by their names then), by `adminId`.
 */
export const ownerEventCte = (adminId: string) => sql`owner_event as (
      insert into lead_events (lead_id, kind, actor_id, data)
      select u.id, 'owner', ${adminId}, jsonb_build_object('from', (select display_name from users where id = u.old_owner_id),
        'to', (select display_name from users where id = u.owner_id))
      from updated u where u.owner_id is distinct from u.old_owner_id
    )`;

/** Why an update was refused (nothing changed): a field's message, for a 400. */
export class LeadUpdateRefused extends Error {
  constructor(
    readonly field: string,
    message: string,
  ) {
    super(message);
  }
}

/** The message of a lead that came through the public form is the customer's own words. */
export const MESSAGE_LOCKED = 'The customer’s message cannot be changed: add a note instead.';
export const NO_SUCH_OWNER = 'No such admin';

/**
 * Changes only the fields given, in one statement on the locked row, so concurrent edits of
 * different fields both land. "Contacted" is derived from the status: marking a New lead as
 * contacted moves it to Contacted, marking a lead as not contacted moves it back to New. A
 * status change is recorded with its time and admin; so are a new owner and a new next step
 * (on the lead's timeline). A public lead's message cannot be changed (MESSAGE_LOCKED), and
 * the owner must be an admin (NO_SUCH_OWNER): both refuse the whole update.
 */
export async function updateLead(
  db: Db,
  id: string,
  patch: UpdateLeadRequest,
  adminId: string,
  timeZone: string,
): Promise<Lead | undefined> {
  const has = (key: keyof UpdateLeadRequest) => Object.prototype.hasOwnProperty.call(patch, key) && patch[key] !== undefined;
  const sets: SQL[] = [sql`updated_at = crm_now()`];
  if (patch.full_name !== undefined) sets.push(sql`full_name = ${patch.full_name}`);
  if (patch.email !== undefined) sets.push(sql`email = ${patch.email}`);
  if (patch.phone !== undefined) sets.push(sql`phone = ${patch.phone}`);
  if (patch.property_types !== undefined) sets.push(sql`property_types = ${pgArray(patch.property_types)}::text[]`);
  const message = has('message') ? (patch.message ? patch.message : null) : undefined;
  if (message !== undefined) sets.push(sql`message = ${message}`);
  if (has('property_address')) sets.push(sql`property_address = ${patch.property_address ?? null}`);
  if (has('target_closing_date')) sets.push(sql`target_closing_date = ${patch.target_closing_date ?? null}::date`);
  if (has('estimated_fee_cents')) sets.push(sql`estimated_fee_cents = ${patch.estimated_fee_cents ?? null}::bigint`);
  if (has('owner_id')) sets.push(sql`owner_id = ${patch.owner_id ?? null}::uuid`);
  if (patch.do_not_email !== undefined) sets.push(sql`do_not_email = ${patch.do_not_email}`);
  // The next step is the earliest open task: a date and text set here are written to that task
  // first (setNextStepTask), then read back from the tasks.
  const nextStep = has('follow_up_on') || has('follow_up_note');
  if (nextStep) sets.push(nextStepSets(timeZone));
  const status = patch.status ?? null;
  const contacted = patch.contacted ?? null;
  sets.push(sql`status = case
    when ${status}::text is not null then ${status}::text
    when ${contacted}::boolean and prev.status = 'New' then 'Contacted'
    when not ${contacted}::boolean and prev.status <> 'New' then 'New'
    else prev.status end`);

  if (patch.stage_id !== undefined) sets.push(sql`stage_id = ${patch.stage_id}::uuid`);
  if (patch.lost_reason !== undefined)
    sets.push(sql`lost_reason = (select r.name from lost_reasons r where lower(r.name) = lower(${patch.lost_reason}))`);

  const refusals = z.object({
    found: z.boolean(),
    message_locked: z.boolean(),
    owner_missing: z.boolean(),
    status: z.string().nullable(),
    stage_id: z.string().nullable(),
    stage_status: z.string().nullable(),
    stage_name: z.string().nullable(),
    reason_known: z.boolean(),
  });
  const [check] = await queryRows(
    db,
    sql`select exists (select 1 from leads where id = ${id}) as found,
      (select status from leads where id = ${id}) as status, (select stage_id::text from leads where id = ${id}) as stage_id,
      (select status from pipeline_stages where id = ${patch.stage_id ?? null}::uuid) as stage_status,
      (select name from pipeline_stages where id = ${patch.stage_id ?? null}::uuid) as stage_name,
      exists (select 1 from lost_reasons where lower(name) = lower(${patch.lost_reason ?? null}::text)) as reason_known,
      exists (select 1 from leads where id = ${id} and submission_id is not null
              and ${message !== undefined} and message is distinct from ${message ?? null}::text) as message_locked,
      ${
        patch.owner_id
          ? // A lead goes only to an active account (one it already has may stay, deactivated or not).
            sql`not exists (select 1 from users where id = ${patch.owner_id}::uuid and deactivated_at is null)
                and not exists (select 1 from leads where id = ${id} and owner_id = ${patch.owner_id}::uuid)`
          : sql`false`
      } as owner_missing`,
    refusals,
  );
  if (!check?.found) return undefined;
  if (check.message_locked) throw new LeadUpdateRefused('message', MESSAGE_LOCKED);
  if (check.owner_missing) throw new LeadUpdateRefused('owner_id', NO_SUCH_OWNER);
  const stageRefusal = stageChangeRefusal(patch, check);
  if (stageRefusal) throw new LeadUpdateRefused(stageRefusal.field, stageRefusal.message);

  const write = async (tx: Db) => {
    if (nextStep) {
      const [prev] = await queryRows(
        tx,
        sql`select to_char(follow_up_on, 'YYYY-MM-DD') as on, follow_up_note as note from leads where id = ${id} for update`,
        z.object({ on: z.string().nullable(), note: z.string().nullable() }),
      );
      if (!prev) return [];
      const on = has('follow_up_on') ? (patch.follow_up_on ?? null) : prev.on;
      const note = has('follow_up_note') ? (patch.follow_up_note ?? null) : prev.note;
      await setNextStepTask(tx, id, on, on === null ? null : note, adminId, timeZone);
    }
    return updateRow(tx);
  };
  const updateRow = (tx: Db) =>
    queryRows(
      tx,
      sql`
    with prev as (select id, status, owner_id, follow_up_on, follow_up_note, submission_id, stage_id, lost_reason from leads where id = ${id} for update),
    updated as (
      update leads l set ${sql.join(sets, sql`, `)}
      from prev where l.id = prev.id
      returning l.*, prev.status as old_status, prev.owner_id as old_owner_id,
        prev.follow_up_on as old_follow_up_on, prev.follow_up_note as old_follow_up_note,
        prev.stage_id as old_stage_id, prev.lost_reason as old_lost_reason
    ), history as (
      insert into lead_status_changes (lead_id, from_status, to_status, changed_by)
      select id, old_status, status, ${adminId} from updated where status <> old_status
    ), stage_event as (
      -- A move between stages of one status (a status change is in the status history), and a
      -- deal lost for a reason someone gave: on the timeline.
      insert into lead_events (lead_id, kind, actor_id, data)
      select u.id, 'stage', ${adminId}, jsonb_build_object(
          'from', (select s.name from pipeline_stages s where s.id = u.old_stage_id),
          'to', (select s.name from pipeline_stages s where s.id = u.stage_id),
          'lost_reason', case when u.lost_reason is distinct from u.old_lost_reason and u.lost_reason <> ${LOST_REASON_NOT_GIVEN} then u.lost_reason end)
      from updated u
      where (u.stage_id is distinct from u.old_stage_id and u.status = u.old_status)
         or (u.lost_reason is distinct from u.old_lost_reason and u.lost_reason is not null and u.lost_reason <> ${LOST_REASON_NOT_GIVEN})
    ), ${ownerEventCte(adminId)}, tasks_follow_owner as (
      -- The open tasks of the owner before (or nobody's) go to the new owner.
      update lead_tasks t set assignee_id = u.owner_id, updated_at = crm_now()
      from updated u where t.lead_id = u.id and u.owner_id is distinct from u.old_owner_id
        and t.done_at is null and t.assignee_id is not distinct from u.old_owner_id
    ), follow_up_event as (
      insert into lead_events (lead_id, kind, actor_id, data)
      select u.id, 'follow_up', ${adminId}, jsonb_build_object('on', to_char(u.follow_up_on, 'YYYY-MM-DD'), 'note', u.follow_up_note)
      from updated u where u.follow_up_on is distinct from u.old_follow_up_on or u.follow_up_note is distinct from u.old_follow_up_note
    )
    select ${leadColumns} from updated l`,
      leadSchema,
    );
  const rows = await (nextStep ? transaction(db, write) : write(db)).catch((error: unknown) => {
    // The stage was removed between the check and the write (an owner's Remove in Settings → Pipeline).
    if (patch.stage_id !== undefined && sqlState(error) === '23503')
      throw new LeadUpdateRefused('stage_id', LEAD_STAGE_MESSAGES.noSuchStage);
    throw error;
  });
  return rows[0];
}
