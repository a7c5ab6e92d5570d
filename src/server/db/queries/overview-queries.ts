import { sql } from 'drizzle-orm';
import * as z from 'zod';
import { dueFollowUpSchema, replyToReadSchema, type DueFollowUp, type Overview, type ReplyToRead } from '#shared/schemas/overview';
import type { Db } from '../client.ts';
import { isoTimestamp, queryRows } from '../sql.ts';
import { listUpcomingAppointments, upcomingWithin } from './appointments-queries.ts';
import { listNewestLeads } from './lead-list-queries.ts';
import { getExpectedFees } from './pipeline-board-queries.ts';

// The Overview's lists: the 5 newest leads, and the next 5 appointments within 7 days.
const UPCOMING_DAYS = 7;
const LIST_SIZE = 5;
// Next steps due: the oldest 20.
const FOLLOW_UPS = 20;
// Leads with replies to read: the newest 10.
const REPLIES = 10;

/** Leads whose follow-up date is today or past in the business time zone, oldest first (leads_follow_up_on_idx). */
function listDueFollowUps(db: Db, timeZone: string): Promise<DueFollowUp[]> {
  return queryRows(
    db,
    sql`
    with today as (select (crm_now() at time zone ${timeZone})::date as d)
    select l.id as lead_id, l.full_name, to_char(l.follow_up_on, 'YYYY-MM-DD') as follow_up_on, l.follow_up_note,
      (select u.email from users u where u.id = l.owner_id) as owner_email,
      (select u.display_name from users u where u.id = l.owner_id) as owner_name, l.follow_up_on < today.d as overdue
    from leads l, today
    where l.follow_up_on <= today.d
    order by l.follow_up_on, l.id
    limit ${FOLLOW_UPS}`,
    dueFollowUpSchema,
  );
}

/** Leads with replies nobody has read, the newest reply first (inbound_emails_unread_idx). */
function listRepliesToRead(db: Db): Promise<ReplyToRead[]> {
  return queryRows(
    db,
    sql`
    select l.id as lead_id, l.full_name, r.unread, r.subject, ${isoTimestamp(sql`r.received_at`)} as received_at
    from (
      select distinct on (i.lead_id) i.lead_id, i.subject, i.received_at, count(*) over (partition by i.lead_id)::int as unread
      from inbound_emails i where i.lead_id is not null and i.read_at is null
      order by i.lead_id, i.received_at desc
    ) r join leads l on l.id = r.lead_id
    order by r.received_at desc, l.id
    limit ${REPLIES}`,
    replyToReadSchema,
  );
}

const countsSchema = z.object({
  total_leads: z.number().int(),
  total_appointments: z.number().int(),
  new_leads: z.number().int(),
  upcoming_appointments: z.number().int(),
  median_seconds_to_contacted: z.number().nullable(),
  no_shows_30_days: z.number().int(),
});

/** The Overview: counts, the newest leads, the next appointments, speed to lead, the next steps due and the forecast. */
export async function getOverview(db: Db, timeZone: string): Promise<Overview> {
  const [counts, recent, upcoming, followUps, replies, expected] = await Promise.all([
    queryRows(
      db,
      sql`
      select
        (select count(*)::int from leads) as total_leads,
        (select count(*)::int from appointments) as total_appointments,
        (select count(*)::int from leads where status = 'New') as new_leads,
        (select count(*)::int from appointments a where ${upcomingWithin(timeZone, UPCOMING_DAYS)}) as upcoming_appointments,
        -- A lead of the last 30 days was contacted after it was created, so within those 30 days too:
        -- the (to_status, changed_at) index finds those changes without visiting every lead.
        (select percentile_cont(0.5) within group (order by extract(epoch from c.first_at - l.created_at))::float8
           from (select lead_id, min(changed_at) as first_at from lead_status_changes
                 where to_status = 'Contacted' and changed_at >= crm_now() - interval '30 days'
                 group by lead_id) c
           join leads l on l.id = c.lead_id
           where l.created_at >= crm_now() - interval '30 days') as median_seconds_to_contacted,
        -- Calls of the last 30 days (business time zone) the lead did not come to.
        (select count(*)::int from appointments a where a.status = 'no_show'
           and a.date >= (crm_now() at time zone ${timeZone})::date - 30) as no_shows_30_days`,
      countsSchema,
    ),
    listNewestLeads(db, LIST_SIZE),
    listUpcomingAppointments(db, timeZone, UPCOMING_DAYS, LIST_SIZE),
    listDueFollowUps(db, timeZone),
    listRepliesToRead(db),
    getExpectedFees(db),
  ]);
  return { ...counts[0]!, recent_leads: recent, upcoming, follow_ups: followUps, replies_to_read: replies, expected_fees_cents: expected };
}
