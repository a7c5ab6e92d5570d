import { sql } from 'drizzle-orm';
import type { Db } from '../client.ts';
import { execute } from '../sql.ts';
import { bookedName } from './appointments-queries.ts';

/**
 * Creates an `appointment` notification for every admin for each appointment starting
 * within `minutesBefore`, and marks it reminded, in one statement. The `reminder_sent_at is
 * null` condition is re-checked under the row lock, so two processes running this at once
 * still remind once. Appointments that started over an hour ago are never reminded.
 * Returns how many notifications were created.
 */
export async function sendDueReminders(db: Db, timeZone: string, minutesBefore: number): Promise<number> {
  return execute(
    db,
    sql`
    with due as (
      update appointments a set reminder_sent_at = crm_now()
      where a.reminder_sent_at is null and a.status = 'scheduled'
        and a.date between (crm_now() at time zone ${timeZone})::date - 1
                       and (crm_now() at time zone ${timeZone})::date + ${Math.ceil(minutesBefore / 1440) + 1}::int
        and (a.date + a.time) at time zone ${timeZone} <= crm_now() + make_interval(mins => ${minutesBefore})
        and (a.date + a.time) at time zone ${timeZone} > crm_now() - interval '1 hour'
      returning a.lead_id, a.inquiry_id, a.time, a.type
    )
    insert into notifications (user_id, type, message, lead_id)
    select u.id, 'appointment',
           'Upcoming ' || due.type || ' with ' || coalesce(${bookedName(sql.raw('due'), sql.raw('l'))}, 'Unknown Lead') || ' at ' || to_char(due.time, 'FMHH12:MI AM'),
           l.id
    from due left join leads l on l.id = due.lead_id cross join users u`,
  );
}
