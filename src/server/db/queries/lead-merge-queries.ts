import { sql } from 'drizzle-orm';
import * as z from 'zod';
import { leadSchema, type Lead, type LeadDetail, type UpdateLeadRequest } from '#shared/schemas/lead';
import type { MergeRequest } from '#shared/schemas/lead-privacy';
import type { Db } from '../client.ts';
import { execute, queryRows, transaction } from '../sql.ts';
import { lockEmail } from './lead-inquiries-queries.ts';
import { getLead, leadColumns, updateLead } from './leads-queries.ts';
import { syncNextStep } from './lead-tasks-queries.ts';

/**
 * Duplicates of a person (leads of one email, from before the public form joined a known email
 * to its lead) and merging them (docs/product-rules.md, "Personal data requests").
 */

/** The other leads with this lead's email, oldest first; undefined when there is no such lead. */
export async function listDuplicates(db: Db, id: string): Promise<Lead[] | undefined> {
  const [self] = await queryRows(db, sql`select email from leads where id = ${id}`, z.object({ email: z.string() }));
  if (!self) return undefined;
  return queryRows(
    db,
    sql`select ${leadColumns} from leads l where l.email = ${self.email} and l.id <> ${id} order by l.created_at, l.id`,
    leadSchema,
  );
}

/** Why a merge was refused: the leads are not one person's. */
export class MergeRefused extends Error {}

const mergedRow = z.object({
  id: z.uuid(),
  email: z.string(),
  full_name: z.string(),
  phone: z.string(),
  property_types: z.array(z.string()),
  status: z.string(),
  owner_id: z.uuid().nullable(),
  property_address: z.string().nullable(),
  target_closing_date: z.string().nullable(),
  estimated_fee_cents: z.number().int().nullable(),
  follow_up_on: z.string().nullable(),
  follow_up_note: z.string().nullable(),
  stage_id: z.uuid(),
  lost_reason: z.string().nullable(),
});
type MergedRow = z.infer<typeof mergedRow>;

/** Everything that belongs to a lead by its lead_id, moved to the lead kept. */
const OWNED_TABLES = [
  'lead_events',
  'lead_notes',
  'lead_status_changes',
  'appointments',
  'emails',
  'booking_tokens',
  'notifications',
  'inbound_emails',
  'lead_tasks',
  'lead_stage_changes',
] as const;

/** The update that gives this lead the other's value of each field chosen (only those that differ). */
function keptFields(self: MergedRow, other: MergedRow, keep: MergeRequest['keep']): UpdateLeadRequest {
  const patch: Record<string, unknown> = {};
  const take = (field: Exclude<keyof MergedRow, 'id' | 'email' | 'stage_id' | 'lost_reason'>) => {
    if (JSON.stringify(self[field]) !== JSON.stringify(other[field])) patch[field] = other[field];
  };
  for (const [field, side] of Object.entries(keep)) {
    if (side !== 'other') continue;
    take(field as Exclude<keyof MergedRow, 'id' | 'email' | 'stage_id' | 'lost_reason'>);
  }
  return patch as UpdateLeadRequest;
}

/**
 * Merges `other_id` into lead `id`, in one transaction: everything the other lead owns moves
 * here (timeline, notes, status history, appointments, emails, booking links, notifications);
 * its own submission joins this timeline as an inquiry (its message and visit, when it came), a
 * "merged" entry names it and the admin; the chosen fields take its values (recorded as any
 * edit is); then it is deleted. Refused (MergeRefused) unless both have the same email;
 * undefined when either does not exist.
 */
export async function mergeLeads(
  db: Db,
  id: string,
  { other_id: otherId, keep }: MergeRequest,
  adminId: string,
  timeZone: string,
): Promise<LeadDetail | undefined> {
  if (id === otherId) throw new MergeRefused('A lead cannot be merged with itself.');
  return transaction(db, async (t) => {
    const [first] = await queryRows(t, sql`select email from leads where id = ${id}`, z.object({ email: z.string() }));
    if (!first) return undefined;
    // As the public form does: no submission of this email joins a lead that is going away.
    await lockEmail(t, first.email);
    const rows = await queryRows(
      t,
      sql`select id, email, full_name, phone, property_types, status, owner_id, property_address,
        to_char(target_closing_date, 'YYYY-MM-DD') as target_closing_date, estimated_fee_cents::float8 as estimated_fee_cents,
        to_char(follow_up_on, 'YYYY-MM-DD') as follow_up_on, follow_up_note, stage_id, lost_reason
      from leads where id in (${id}, ${otherId}) order by id for update`,
      mergedRow,
    );
    const self = rows.find((r) => r.id === id);
    const other = rows.find((r) => r.id === otherId);
    if (!self || !other) return undefined;
    if (self.email !== other.email) throw new MergeRefused('Only leads with the same email can be merged.');

    // The other's own submission becomes an inquiry here; its booking links and the calls booked
    // through them become that inquiry's, so they keep showing (and naming) what its form sent,
    // never the kept lead's details. Then everything it owns moves.
    await execute(
      t,
      sql`
      with inquiry as (
        insert into lead_events (lead_id, kind, submission_id, created_at, data)
        select ${id}, 'inquiry', o.submission_id, o.created_at, jsonb_strip_nulls(jsonb_build_object(
          'message', o.message, 'full_name', o.full_name, 'email', o.email, 'phone', o.phone,
          'property_types', to_jsonb(o.property_types), 'analytics_session_id', o.analytics_session_id,
          'source', o.source, 'utm_source', o.utm_source, 'utm_medium', o.utm_medium, 'utm_campaign', o.utm_campaign,
          'landing_page', o.landing_page, 'pages_viewed', o.pages_viewed))
        from leads o where o.id = ${otherId}
        returning id
      ), links as (
        update booking_tokens set inquiry_id = inquiry.id from inquiry where lead_id = ${otherId} and inquiry_id is null
      )
      update appointments set inquiry_id = inquiry.id from inquiry where lead_id = ${otherId} and source = 'booking' and inquiry_id is null`,
    );
    for (const table of OWNED_TABLES) {
      await execute(t, sql`update ${sql.identifier(table)} set lead_id = ${id} where lead_id = ${otherId}`);
    }
    await execute(
      t,
      sql`
      insert into lead_events (lead_id, kind, actor_id, data)
      values (${id}, 'merged', ${adminId}, jsonb_build_object('full_name', ${other.full_name}::text, 'email', ${other.email}::text))`,
    );
    // What the other's record says about writing to them survives it: a Do not email mark, and
    // the reply token of the messages sent to it when the kept one has none.
    // Trigger leads_webhooks_deleted (migration 0054) reads this: lead.merged on the kept lead.
    await execute(t, sql`select set_config('crm.lead_merged_into', ${id}, true)`);
    const [absorbed] = await queryRows(
      t,
      sql`delete from leads where id = ${otherId} returning do_not_email, reply_token`,
      z.object({ do_not_email: z.boolean(), reply_token: z.string().nullable() }),
    );
    if (absorbed && (absorbed.do_not_email || absorbed.reply_token)) {
      await execute(
        t,
        sql`update leads set do_not_email = do_not_email or ${absorbed.do_not_email}, reply_token = coalesce(reply_token, ${absorbed.reply_token}::text)
          where id = ${id}`,
      );
    }

    const patch = keptFields(self, other, keep);
    if (Object.keys(patch).length > 0) await updateLead(t, id, patch, adminId, timeZone);
    // Both leads' tasks are kept: the next step is the earliest open one of them all.
    await syncNextStep(t, id, timeZone);
    // The other's status kept means its stage and lost reason too (the status alone would be its first stage).
    if (keep.status === 'other' && (self.stage_id !== other.stage_id || self.lost_reason !== other.lost_reason))
      await execute(t, sql`update leads set stage_id = ${other.stage_id}, lost_reason = ${other.lost_reason} where id = ${id}`);
    else await execute(t, sql`update leads set updated_at = crm_now() where id = ${id}`);
    return getLead(t, id);
  });
}
