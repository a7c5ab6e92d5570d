import { sql, type SQL } from 'drizzle-orm';
import type { Lead, LeadDetail, LeadListQuery, LeadStatusChange, UpdateLeadRequest } from '#shared/schemas/lead';
import { queryRows, type Db } from '../client.ts';
import { isoTimestamp, pgArray } from '../sql-helpers.ts';

// The dashboard's reads and writes of leads. Responses follow the shared Lead schema.
/** A lead as the API returns it (the shared Lead schema), from `leads l`. */
export const leadColumns = sql`l.id, ${isoTimestamp(sql`l.created_at`)} as created_at, l.status, l.full_name, l.email, l.phone,
  l.property_types, l.contacted, l.message, l.source, l.utm_source, l.utm_medium, l.utm_campaign, l.landing_page, l.pages_viewed`;

// `nulls last` matches leads_created_at_idx (created_at desc nulls last, id desc nulls last):
// without it PostgreSQL cannot read the newest leads from the index and sorts them all.

/** `%`, `_` and `\` typed into the search box are matched literally. */
const escapeLike = (s: string) => s.replace(/[\\%_]/g, (m) => `\\${m}`);

export type LeadFilters = Pick<LeadListQuery, 'search' | 'status' | 'property_type'>;

/** Search (name and email case-insensitively, phone as a substring) and both filters, combined. */
export function leadWhere(filters: LeadFilters): SQL {
  const parts: SQL[] = [];
  if (filters.search) {
    const like = `%${escapeLike(filters.search)}%`;
    parts.push(sql`(l.full_name ilike ${like} or l.email ilike ${like} or l.phone like ${like})`);
  }
  if (filters.status) parts.push(sql`l.status = ${filters.status}`);
  if (filters.property_type) parts.push(sql`l.property_types @> array[${filters.property_type}]::text[]`);
  return parts.length > 0 ? sql`where ${sql.join(parts, sql` and `)}` : sql``;
}

export async function listLeads(db: Db, query: LeadListQuery): Promise<{ leads: Lead[]; total: number }> {
  const where = leadWhere(query);
  const [leads, counts] = await Promise.all([
    queryRows<Lead>(db, sql`
      select ${leadColumns} from leads l ${where}
      order by l.created_at desc nulls last, l.id desc nulls last
      limit ${query.page_size} offset ${(query.page - 1) * query.page_size}`),
    queryRows<{ total: number }>(db, sql`select count(*)::int as total from leads l ${where}`),
  ]);
  return { leads, total: counts[0]?.total ?? 0 };
}

export async function getLead(db: Db, id: string): Promise<LeadDetail | undefined> {
  const [lead] = await queryRows<Lead>(db, sql`select ${leadColumns} from leads l where l.id = ${id}`);
  if (!lead) return undefined;
  const history = await queryRows<LeadStatusChange>(db, sql`
    select c.from_status, c.to_status, ${isoTimestamp(sql`c.changed_at`)} as changed_at, u.email as changed_by
    from lead_status_changes c left join users u on u.id = c.changed_by
    where c.lead_id = ${id} order by c.changed_at, c.id`);
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

  const rows = await queryRows<Lead & { old_status: string }>(db, sql`
    with prev as (select id, status from leads where id = ${id} for update),
    updated as (
      update leads l set ${sql.join(sets, sql`, `)}
      from prev where l.id = prev.id
      returning l.*, prev.status as old_status
    ), history as (
      insert into lead_status_changes (lead_id, from_status, to_status, changed_by)
      select id, old_status, status, ${adminId} from updated where status <> old_status
    )
    select ${leadColumns} from updated l`);
  return rows[0];
}

export async function deleteLead(db: Db, id: string): Promise<boolean> {
  const rows = await queryRows<{ id: string }>(db, sql`delete from leads where id = ${id} returning id`);
  return rows.length > 0;
}

/** Leads matching the filters, newest first, in pages of `batch` (for the CSV export). */
export async function* iterateLeads(db: Db, filters: LeadFilters, batch = 2000): AsyncGenerator<Lead[]> {
  const where = leadWhere(filters);
  for (let offset = 0; ; offset += batch) {
    const rows = await queryRows<Lead>(db, sql`
      select ${leadColumns} from leads l ${where}
      order by l.created_at desc nulls last, l.id desc nulls last limit ${batch} offset ${offset}`);
    if (rows.length > 0) yield rows;
    if (rows.length < batch) return;
  }
}
