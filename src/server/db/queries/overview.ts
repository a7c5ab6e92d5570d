import { sql } from 'drizzle-orm';
import type { Appointment } from '#shared/schemas/appointment';
import type { Lead } from '#shared/schemas/lead';
import type { Overview } from '#shared/schemas/overview';
import { queryRows, type Db } from '../client.ts';
import { leadColumns } from './lead-admin.ts';

const UPCOMING_DAYS = 7;
const LIST_SIZE = 5;

/** The appointment columns every appointment response uses, with its lead (or null). */
export const appointmentColumns = sql`a.id, a.lead_id, to_char(a.date, 'YYYY-MM-DD') as date, to_char(a.time, 'HH24:MI') as time,
  a.type, a.notes,
  case when l.id is null then null else json_build_object('full_name', l.full_name, 'email', l.email, 'phone', l.phone) end as lead`;

/** The Overview: counts, the newest leads, the next appointments and speed to lead. */
export async function getOverview(db: Db, timeZone: string): Promise<Overview> {
  // Appointment date + time are wall-clock in the business time zone.
  const startsAt = sql`((a.date + a.time) at time zone ${timeZone})`;
  // The date range first, so the (date, time) index narrows the rows before the exact test.
  const today = sql`(now() at time zone ${timeZone})::date`;
  const upcomingWindow = sql`a.date between ${today} - 1 and ${today} + ${UPCOMING_DAYS + 1}::int
    and ${startsAt} >= now() and ${startsAt} < now() + make_interval(days => ${UPCOMING_DAYS})`;
  const [counts, recent, upcoming] = await Promise.all([
    queryRows<Omit<Overview, 'recent_leads' | 'upcoming'>>(db, sql`
      select
        (select count(*)::int from leads) as total_leads,
        (select count(*)::int from appointments) as total_appointments,
        (select count(*)::int from leads where status = 'New') as new_leads,
        (select count(*)::int from appointments a where ${upcomingWindow}) as upcoming_appointments,
        -- A lead of the last 30 days was contacted after it was created, so within those 30 days too:
        -- the (to_status, changed_at) index finds those changes without visiting every lead.
        (select percentile_cont(0.5) within group (order by extract(epoch from c.first_at - l.created_at))::float8
           from (select lead_id, min(changed_at) as first_at from lead_status_changes
                 where to_status = 'Contacted' and changed_at >= now() - interval '30 days'
                 group by lead_id) c
           join leads l on l.id = c.lead_id
           where l.created_at >= now() - interval '30 days') as median_seconds_to_contacted`),
    queryRows<Lead>(db, sql`
      select ${leadColumns}
      from leads l order by l.created_at desc nulls last, l.id desc nulls last limit ${LIST_SIZE}`),
    queryRows<Appointment>(db, sql`
      select ${appointmentColumns}
      from appointments a left join leads l on l.id = a.lead_id
      where ${upcomingWindow}
      order by a.date, a.time limit ${LIST_SIZE}`),
  ]);
  return { ...counts[0]!, recent_leads: recent, upcoming };
}
