import { sql } from 'drizzle-orm';
import * as z from 'zod';
import { zonedInstant, zonedParts } from '#shared/zoned-time';
import type { Db } from '../client.ts';
import { queryRows } from '../sql.ts';
import { newEmail, type QueueMail } from './emails-queries.ts';

/**
 * The morning task list: from 7:00 in the business time zone, each active account that asked for
 * it (users.email_task_digest) and has tasks due that day or overdue gets one email listing them,
 * through the outbox. The job runs every minute in every app process; the dedupe key (day and
 * recipient) makes the insert a no-op after the first, and the insert is one statement, so a
 * process killed mid-way queued everyone's or no one's.
 */

export const TASK_DIGEST_MINUTES = 7 * 60;
export const TASK_DIGEST_LISTED = 20;

/** The day whose list is due at `now`, or undefined before 7:00 (8:00 where clocks skip 7:00). */
export function digestDayAt(now: Date, timeZone: string): string | undefined {
  const day = zonedParts(now.getTime(), timeZone).date;
  const sendAt = zonedInstant(day, TASK_DIGEST_MINUTES, timeZone) ?? zonedInstant(day, TASK_DIGEST_MINUTES + 60, timeZone);
  return sendAt !== undefined && now.getTime() >= sendAt ? day : undefined;
}

const dedupeKey = (day: string) => sql`'task-digest:' || ${day}::text || ':' || u.id::text`;

/** Queues the day's list to everyone due one who does not have it yet; how many were queued. */
export async function queueTaskDigests(db: Db, options: { now: Date; timeZone: string; mail: QueueMail }): Promise<number> {
  const day = digestDayAt(options.now, options.timeZone);
  if (!day) return 0;
  const tz = options.timeZone;
  const start = sql`(${day}::date)::timestamp at time zone ${tz}`;
  const end = sql`(${day}::date + 1)::timestamp at time zone ${tz}`;
  const rows = await queryRows(
    db,
    sql`
    with due as (
      select u.id, u.email,
        (select count(*)::int from lead_tasks t where t.assignee_id = u.id and t.done_at is null and t.due_at < ${start}) as overdue,
        (select count(*)::int from lead_tasks t where t.assignee_id = u.id and t.done_at is null and t.due_at >= ${start} and t.due_at < ${end}) as today
      from users u
      where u.email_task_digest and u.deactivated_at is null
        and not exists (select 1 from emails e where e.dedupe_key = ${dedupeKey(day)})
    )
    insert into emails (message_id, status, last_error, kind, to_address, data, dedupe_key)
    select ${newEmail(options.mail)}, 'task-digest', u.email,
      jsonb_build_object('date', ${day}::text, 'time_zone', ${tz}::text, 'overdue', u.overdue, 'today', u.today, 'tasks', coalesce((
        select jsonb_agg(jsonb_build_object('due_at', to_char(x.due_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
          'type', x.type, 'title', x.title, 'lead_id', x.lead_id, 'lead_name', x.full_name) order by x.due_at, x.id)
        from (select t.id, t.due_at, t.type, t.title, t.lead_id, l.full_name from lead_tasks t join leads l on l.id = t.lead_id
              where t.assignee_id = u.id and t.done_at is null and t.due_at >= ${start} and t.due_at < ${end}
              order by t.due_at, t.id limit ${TASK_DIGEST_LISTED}) x), '[]'::jsonb)),
      ${dedupeKey(day)}
    from due u where u.overdue + u.today > 0
    on conflict (dedupe_key) where dedupe_key is not null do nothing
    returning id`,
    z.object({ id: z.uuid() }),
  );
  return rows.length;
}
