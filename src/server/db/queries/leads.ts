import { sql } from 'drizzle-orm';
import type { LeadFields } from '#shared/schemas/lead';
import { queryRows, type Db } from '../client.ts';
import { pgArray } from '../sql-helpers.ts';

export type NewLead = LeadFields & { submission_id?: string | null; analytics_session_id?: string | undefined };

/**
 * Stores a lead (status New), its first status-history entry and a `lead` notification for
 * every admin, in one statement (so one transaction, one round trip). A repeated submission_id stores nothing and reports
 * `created: false`, which makes the public form's retries and double clicks harmless.
 */
export async function createLead(db: Db, lead: NewLead, createdBy: string | null = null): Promise<{ id: string | null; created: boolean }> {
  const message = lead.message && lead.message.length > 0 ? lead.message : null;
  const notice = `New lead: ${lead.full_name} (${lead.email})`;
  const rows = await queryRows<{ id: string }>(db, sql`
    with inserted as (
      -- Attribution comes from the visitor's analytics session, if the form sent one we know.
      insert into leads (full_name, email, phone, property_types, message, submission_id,
                         analytics_session_id, source, utm_source, utm_medium, utm_campaign, landing_page, pages_viewed)
      select ${lead.full_name}, ${lead.email}, ${lead.phone},
             ${pgArray(lead.property_types)}::text[], ${message}, ${lead.submission_id ?? null}::uuid,
             ${lead.analytics_session_id ?? null}::text, s.source, s.utm_source, s.utm_medium, s.utm_campaign, s.landing_page, s.page_views
      from (select 1) one left join analytics_sessions s on s.session_id = ${lead.analytics_session_id ?? null}::text
      on conflict (submission_id) do nothing
      returning id
    ), history as (
      insert into lead_status_changes (lead_id, from_status, to_status, changed_by)
      select id, null, 'New', ${createdBy} from inserted
    ), notified as (
      insert into notifications (user_id, type, message)
      select u.id, 'lead', ${notice} from users u where exists (select 1 from inserted)
    )
    select id from inserted`);
  const id = rows[0]?.id ?? null;
  return { id, created: id !== null };
}

export async function countLeads(db: Db): Promise<number> {
  const rows = await queryRows<{ n: number }>(db, sql`select count(*)::int as n from leads`);
  return rows[0]?.n ?? 0;
}
