import { sql } from 'drizzle-orm';
import * as z from 'zod';
import type { Db } from '../client.ts';
import { execute, LIVE_AFTER_COMMIT, pgArray, queryRows, transaction } from '../sql.ts';
import { newEmail, visitorBudget } from './emails-queries.ts';
import type { FormTokenUse } from './form-token-uses-queries.ts';
import { createLead, type LeadMail, type NewLead } from './leads-queries.ts';
import { leadSnapshot } from './lead-snapshot-queries.ts';

const idRow = z.object({ id: z.uuid() });

/** `notices`: the notifications it made, to announce once committed (it chose LIVE_AFTER_COMMIT). */
export type PublicSubmission = { id: string | null; created: boolean; repeated: boolean; notices: string[] };

/** Two submissions of one email never pass this point at once: one lead per person. */
export const lockEmail = (db: Db, email: string) => execute(db, sql`select pg_advisory_xact_lock(${emailLockKey(email)})`);
const emailLockKey = (email: string) => sql`hashtext(${`lead-email:${email}`})`;

/**
 * A public form submission. A person we already know (a lead with the same email) is not a
 * second lead: the submission joins that lead's timeline as an inquiry (its message, contact
 * details and the visit that brought it), a Dropped lead goes back to New, every admin is told
 * "Jane Doe wrote again", and the person gets a booking link again (and the acknowledgement,
 * unless one went to the address in the last 30 days: the trigger on emails records it not sent).
 * Anyone else becomes a new lead (createLead). A repeated submission_id stores nothing
 * (`created: false`) either way.
 *
 * The common case, a new person, is one statement committed on its own (one round trip): the
 * token's claim, the decision under the email's lock (crm_lead_person_is_new) and the lead with
 * everything it causes. Anything else is decided again in one transaction under that lock.
 */
export async function submitPublicLead(
  db: Db,
  lead: NewLead & { submission_id: string },
  { mail, bookingTokenHash, formToken }: { mail: LeadMail; bookingTokenHash: string; formToken?: FormTokenUse },
): Promise<PublicSubmission | 'token_reused'> {
  const fresh = await createLead(db, lead, { mail, bookingTokenHash, publicSubmission: { formToken } });
  // Another submission used this token: nothing is kept.
  if (!fresh.claimed) return 'token_reused';
  if (fresh.created) return { id: fresh.id, created: true, repeated: false, notices: fresh.notices };
  // The token's claim stays as that statement committed it: it names this submission.
  return transaction(db, async (t) => {
    // The lock, and the live announcements left to the caller after the commit (realtime/after-commit.ts).
    await execute(t, sql`select pg_advisory_xact_lock(${emailLockKey(lead.email)}), ${LIVE_AFTER_COMMIT}`);
    // The person's lead may have gone since (deleted): then this is a new lead after all.
    const again = await createLead(t, lead, { mail, bookingTokenHash, publicSubmission: {} });
    if (again.created) return { id: again.id, created: true, repeated: false, notices: again.notices };
    const [seen] = await queryRows(
      t,
      sql`select id from leads where submission_id = ${lead.submission_id}::uuid
          union all select lead_id from lead_events where submission_id = ${lead.submission_id}::uuid limit 1`,
      idRow,
    );
    if (seen) return { id: seen.id, created: false, repeated: false, notices: [] };
    const [known] = await queryRows(
      t,
      sql`select id from leads where email = ${lead.email} order by created_at, id limit 1 for update`,
      idRow,
    );
    // Not stored, not seen, no lead of this email: cannot happen under the lock, but say so plainly.
    if (!known) throw new Error('a public submission was neither stored nor recognised');
    const notices = await addInquiry(t, known.id, lead, mail, bookingTokenHash);
    return { id: known.id, created: true, repeated: true, notices };
  });
}

/** The repeat's CTEs: the inquiry, the status back to New if Dropped, notifications, the acknowledgement, the booking link of that inquiry. */
async function addInquiry(
  db: Db,
  leadId: string,
  lead: NewLead & { submission_id: string },
  mail: LeadMail,
  bookingTokenHash: string,
): Promise<string[]> {
  const message = lead.message && lead.message.length > 0 ? lead.message : null;
  const [row] = await queryRows(
    db,
    sql`
    with visit as (
      select s.source, s.utm_source, s.utm_medium, s.utm_campaign, s.landing_page, s.page_views
      from (select 1) one left join analytics_sessions s on s.session_id = ${lead.analytics_session_id ?? null}::text
    ), inquiry as (
      insert into lead_events (lead_id, kind, submission_id, data)
      select ${leadId}::uuid, 'inquiry', ${lead.submission_id}::uuid, jsonb_strip_nulls(jsonb_build_object(
        'message', ${message}::text, 'full_name', ${lead.full_name}::text, 'email', ${lead.email}::text, 'phone', ${lead.phone}::text,
        'property_types', to_jsonb(${pgArray(lead.property_types)}::text[]), 'analytics_session_id', ${lead.analytics_session_id ?? null}::text,
        'source', v.source, 'utm_source', v.utm_source, 'utm_medium', v.utm_medium, 'utm_campaign', v.utm_campaign,
        'landing_page', v.landing_page, 'pages_viewed', v.page_views))
      from visit v
      returning id
    ), reopened as (
      update leads set status = 'New', updated_at = crm_now() where id = ${leadId}::uuid and status = 'Dropped'
      returning id, full_name
    ), history as (
      insert into lead_status_changes (lead_id, from_status, to_status) select id, 'Dropped', 'New' from reopened
    ), touched as (
      update leads set updated_at = crm_now() where id = ${leadId}::uuid and not exists (select 1 from reopened) returning id
    ), named as (
      select full_name from leads where id = ${leadId}::uuid
    ), notified as (
      insert into notifications (user_id, type, message, lead_id)
      select u.id, 'lead', n.full_name || ' wrote again', ${leadId}::uuid from users u cross join named n
      returning id
    ), acknowledged as (
      insert into emails (message_id, status, last_error, kind, to_address, data, lead_id, visitor_budget)
      select ${newEmail(mail)}, 'lead-acknowledgement', ${lead.email},
        ${leadSnapshot({
          lead_id: sql`${leadId}::uuid`,
          full_name: sql`${lead.full_name}::text`,
          email: sql`${lead.email}::text`,
          phone: sql`${lead.phone}::text`,
          property_types: sql`${pgArray(lead.property_types)}::text[]`,
          message: sql`${message}::text`,
          source: sql`v.source`,
          utm_source: sql`v.utm_source`,
          utm_medium: sql`v.utm_medium`,
          utm_campaign: sql`v.utm_campaign`,
          landing_page: sql`v.landing_page`,
        })},
        ${leadId}::uuid, ${visitorBudget(mail)}
      from visit v where ${mail.acknowledge}
    ), link as (
      -- The link belongs to this form, not to the person: it shows what this form sent and books
      -- for this inquiry (a stranger may have typed a known person's email).
      insert into booking_tokens (token_hash, lead_id, inquiry_id, expires_at)
      select ${bookingTokenHash}, ${leadId}::uuid, inquiry.id, crm_now() + interval '24 hours' from inquiry
    )
    select array(select id::text from notified) as notices`,
    z.object({ notices: z.array(z.uuid()) }),
  );
  return row?.notices ?? [];
}
