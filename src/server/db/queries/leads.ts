import { sql, type SQL } from 'drizzle-orm';
import * as z from 'zod';
import {
  leadSchema,
  leadStatusChangeSchema,
  type Lead,
  type LeadDetail,
  type LeadFields,
  type LeadListQuery,
  type UpdateLeadRequest,
} from '#shared/schemas/lead';
import type { Db } from '../client.ts';
import { isoTimestamp, pgArray, queryRows } from '../sql.ts';
import { newEmail, type QueueMail } from './emails.ts';

/** A lead as the API returns it (the shared Lead schema), from `leads l`. */
const leadColumns = sql`l.id, ${isoTimestamp(sql`l.created_at`)} as created_at, l.status, l.full_name, l.email, l.phone,
  l.property_types, l.contacted, l.message, l.source, l.utm_source, l.utm_medium, l.utm_campaign, l.landing_page, l.pages_viewed`;

/**
 * Newest first. `nulls last` matches leads_created_at_idx (created_at desc nulls last, id desc
 * nulls last): without it PostgreSQL cannot read the newest leads from the index and sorts them all.
 */
const newestFirst = sql`order by l.created_at desc nulls last, l.id desc nulls last`;

const idRow = z.object({ id: z.uuid() });

export type NewLead = LeadFields & { submission_id?: string | null; analytics_session_id?: string | undefined };

/**
 * The emails a new lead causes: a "new lead" message to every admin who wants them (but the
 * one who typed the lead in), and, for a lead who asked through the form, an acknowledgement.
 * Without it, no email is queued (demo data).
 */
export type LeadMail = QueueMail & { acknowledge: boolean };

/**
 * Stores a lead (status New), its first status-history entry, a `lead` notification for every
 * admin and the emails it causes, in one statement (so one transaction, one round trip). A
 * repeated submission_id stores nothing and reports `created: false`, which makes the public
 * form's retries and double clicks harmless, and its emails are never queued twice.
 */
export async function createLead(
  db: Db,
  lead: NewLead,
  { createdBy = null, mail, bookingTokenHash }: { createdBy?: string | null; mail?: LeadMail; bookingTokenHash?: string } = {},
): Promise<{ id: string | null; created: boolean }> {
  const message = lead.message && lead.message.length > 0 ? lead.message : null;
  const notice = `New lead: ${lead.full_name} (${lead.email})`;
  const rows = await queryRows(db, sql`
    with inserted as (
      -- Attribution comes from the visitor's analytics session, if the form sent one we know.
      insert into leads (full_name, email, phone, property_types, message, submission_id,
                         analytics_session_id, source, utm_source, utm_medium, utm_campaign, landing_page, pages_viewed)
      select ${lead.full_name}, ${lead.email}, ${lead.phone},
             ${pgArray(lead.property_types)}::text[], ${message}, ${lead.submission_id ?? null}::uuid,
             ${lead.analytics_session_id ?? null}::text, s.source, s.utm_source, s.utm_medium, s.utm_campaign, s.landing_page, s.page_views
      from (select 1) one left join analytics_sessions s on s.session_id = ${lead.analytics_session_id ?? null}::text
      on conflict (submission_id) do nothing
      returning *
    ), history as (
      insert into lead_status_changes (lead_id, from_status, to_status, changed_by)
      select id, null, 'New', ${createdBy} from inserted
    ), notified as (
      insert into notifications (user_id, type, message)
      select u.id, 'lead', ${notice} from users u where exists (select 1 from inserted)
    )${mail ? queueLeadEmails(mail, createdBy) : sql``}${
      bookingTokenHash
        ? sql`, booking_link as (
      insert into booking_tokens (token_hash, lead_id, expires_at)
      select ${bookingTokenHash}, id, now() + interval '24 hours' from inserted)`
        : sql``
    }
    select id from inserted`, idRow);
  const id = rows[0]?.id ?? null;
  return { id, created: id !== null };
}

/**
 * CTEs of createLead that queue its emails, each with a snapshot of the lead. The lead row is
 * inserted at most once per submission_id, so its acknowledgement is too.
 */
function queueLeadEmails(mail: LeadMail, createdBy: string | null): SQL {
  return sql`, lead_snapshot as (
      select i.id, i.email, i.full_name, jsonb_build_object('lead_id', i.id, 'full_name', i.full_name, 'email', i.email,
        'phone', i.phone, 'property_types', to_jsonb(i.property_types), 'message', i.message, 'source', i.source,
        'utm_source', i.utm_source, 'utm_medium', i.utm_medium, 'utm_campaign', i.utm_campaign, 'landing_page', i.landing_page) as data
      from inserted i
    ), to_admins as (
      insert into emails (message_id, status, last_error, kind, to_address, data, lead_id)
      select ${newEmail(mail)}, 'new-lead', u.email, s.data, s.id
      from lead_snapshot s cross join users u
      where u.email_new_leads and u.id is distinct from ${createdBy}::uuid
    ), to_lead as (
      insert into emails (message_id, status, last_error, kind, to_address, to_name, data, lead_id)
      select ${newEmail(mail)}, 'lead-acknowledgement', s.email, s.full_name, s.data, s.id
      from lead_snapshot s where ${mail.acknowledge}
    )`;
}

/** `%`, `_` and `\` typed into the search box are matched literally. */
const escapeLike = (s: string) => s.replace(/[\\%_]/g, (m) => `\\${m}`);

export type LeadFilters = Pick<LeadListQuery, 'search' | 'status' | 'property_type'>;

/** Search (name and email case-insensitively, phone as a substring) and both filters, combined. */
function leadWhere(filters: LeadFilters): SQL {
  const parts: SQL[] = [];
  if (filters.search) {
    const like = `%${escapeLike(filters.search)}%`;
    parts.push(sql`(l.full_name ilike ${like} or l.email ilike ${like} or l.phone like ${like})`);
  }
  if (filters.status) parts.push(sql`l.status = ${filters.status}`);
  if (filters.property_type) parts.push(sql`l.property_types @> array[${filters.property_type}]::text[]`);
  return parts.length > 0 ? sql`where ${sql.join(parts, sql` and `)}` : sql``;
}

/** Leads matching the filters, newest first, `limit` of them from `offset`. */
function selectLeads(db: Db, filters: LeadFilters, limit: number, offset = 0): Promise<Lead[]> {
  return queryRows(db, sql`select ${leadColumns} from leads l ${leadWhere(filters)} ${newestFirst} limit ${limit} offset ${offset}`, leadSchema);
}

export async function listLeads(db: Db, query: LeadListQuery): Promise<{ leads: Lead[]; total: number }> {
  const [leads, counts] = await Promise.all([
    selectLeads(db, query, query.page_size, (query.page - 1) * query.page_size),
    queryRows(db, sql`select count(*)::int as total from leads l ${leadWhere(query)}`, z.object({ total: z.number().int() })),
  ]);
  return { leads, total: counts[0]?.total ?? 0 };
}

/** The newest leads (the Overview's Recent Leads). */
export const listNewestLeads = (db: Db, limit: number) => selectLeads(db, {}, limit);

/** Leads matching the filters, newest first, in pages of `batch` (for the CSV export). */
export async function* iterateLeads(db: Db, filters: LeadFilters, batch = 2000): AsyncGenerator<Lead[]> {
  for (let offset = 0; ; offset += batch) {
    const rows = await selectLeads(db, filters, batch, offset);
    if (rows.length > 0) yield rows;
    if (rows.length < batch) return;
  }
}

export async function getLead(db: Db, id: string): Promise<LeadDetail | undefined> {
  const [lead] = await queryRows(db, sql`select ${leadColumns} from leads l where l.id = ${id}`, leadSchema);
  if (!lead) return undefined;
  const history = await queryRows(db, sql`
    select c.from_status, c.to_status, ${isoTimestamp(sql`c.changed_at`)} as changed_at, u.email as changed_by
    from lead_status_changes c left join users u on u.id = c.changed_by
    where c.lead_id = ${id} order by c.changed_at, c.id`, leadStatusChangeSchema);
  return { ...lead, status_history: history };
}

/**
 * Changes only the fields given. Marking a New lead as contacted moves it to Contacted; a
 * status change is recorded with its time and the admin who made it. The row is locked
 * for the statement, so concurrent edits of different fields both land.
 */
export async function updateLead(db: Db, id: string, patch: UpdateLeadRequest, adminId: string): Promise<Lead | undefined> {
  const has = (key: keyof UpdateLeadRequest) => Object.prototype.hasOwnProperty.call(patch, key);
  const sets: SQL[] = [];
  if (patch.full_name !== undefined) sets.push(sql`full_name = ${patch.full_name}`);
  if (patch.email !== undefined) sets.push(sql`email = ${patch.email}`);
  if (patch.phone !== undefined) sets.push(sql`phone = ${patch.phone}`);
  if (patch.property_types !== undefined) sets.push(sql`property_types = ${pgArray(patch.property_types)}::text[]`);
  if (has('message')) sets.push(sql`message = ${patch.message ? patch.message : null}`);
  if (patch.contacted !== undefined) sets.push(sql`contacted = ${patch.contacted}`);
  const status = patch.status ?? null;
  const contactedNow = patch.contacted === true;
  sets.push(sql`status = case
    when ${status}::text is not null then ${status}::text
    when ${contactedNow} and prev.status = 'New' then 'Contacted'
    else prev.status end`);

  const rows = await queryRows(db, sql`
    with prev as (select id, status from leads where id = ${id} for update),
    updated as (
      update leads l set ${sql.join(sets, sql`, `)}
      from prev where l.id = prev.id
      returning l.*, prev.status as old_status
    ), history as (
      insert into lead_status_changes (lead_id, from_status, to_status, changed_by)
      select id, old_status, status, ${adminId} from updated where status <> old_status
    )
    select ${leadColumns} from updated l`, leadSchema);
  return rows[0];
}

export async function deleteLead(db: Db, id: string): Promise<boolean> {
  const rows = await queryRows(db, sql`delete from leads where id = ${id} returning id`, idRow);
  return rows.length > 0;
}
