import { sql, type SQL } from 'drizzle-orm';
import * as z from 'zod';
import {
  APPOINTMENT_LIST_LIMIT,
  appointmentSchema,
  type Appointment,
  type AppointmentListQuery,
  type CreateAppointmentRequest,
  type UpdateAppointmentRequest,
} from '#shared/schemas/appointment';
import type { Db } from '../client.ts';
import { isoTimestamp, queryRows } from '../sql.ts';
import { newEmail, type QueueMail } from './emails.ts';

/** What every appointment response holds (the shared Appointment schema), with its lead or null. */
const appointmentColumns = sql`a.id, a.lead_id, to_char(a.date, 'YYYY-MM-DD') as date, to_char(a.time, 'HH24:MI') as time,
  a.type, a.notes,
  case when l.id is null then null else json_build_object('full_name', l.full_name, 'email', l.email, 'phone', l.phone) end as lead`;

const fromAppointments = sql`from appointments a left join leads l on l.id = a.lead_id`;

const idRow = z.object({ id: z.uuid() });

export async function listAppointments(db: Db, range: AppointmentListQuery): Promise<{ appointments: Appointment[]; truncated: boolean }> {
  const where: SQL[] = [];
  if (range.from) where.push(sql`a.date >= ${range.from}::date`);
  if (range.to) where.push(sql`a.date <= ${range.to}::date`);
  const rows = await queryRows(db, sql`
    select ${appointmentColumns} ${fromAppointments}
    ${where.length > 0 ? sql`where ${sql.join(where, sql` and `)}` : sql``}
    order by a.date, a.time, a.id
    limit ${APPOINTMENT_LIST_LIMIT + 1}`, appointmentSchema);
  return { appointments: rows.slice(0, APPOINTMENT_LIST_LIMIT), truncated: rows.length > APPOINTMENT_LIST_LIMIT };
}

export async function getAppointment(db: Db, id: string): Promise<Appointment | undefined> {
  const [row] = await queryRows(db, sql`select ${appointmentColumns} ${fromAppointments} where a.id = ${id}`, appointmentSchema);
  return row;
}

/**
 * Appointments starting from now to `days` days ahead, in the business time zone, where date
 * and time are wall-clock values. The date range comes first, so the (date, time) index
 * narrows the rows before the exact test.
 */
export function upcomingWithin(timeZone: string, days: number): SQL {
  const startsAt = sql`((a.date + a.time) at time zone ${timeZone})`;
  const today = sql`(now() at time zone ${timeZone})::date`;
  return sql`a.date between ${today} - 1 and ${today} + ${days + 1}::int
    and ${startsAt} >= now() and ${startsAt} < now() + make_interval(days => ${days})`;
}

/** The next appointments within `days` days, soonest first. */
export function listUpcomingAppointments(db: Db, timeZone: string, days: number, limit: number): Promise<Appointment[]> {
  return queryRows(
    db,
    sql`select ${appointmentColumns} ${fromAppointments} where ${upcomingWithin(timeZone, days)} order by a.date, a.time limit ${limit}`,
    appointmentSchema,
  );
}

/**
 * The emails an appointment change causes: the lead is sent the invitation (or its update or
 * cancellation) and every admin who opted in a copy, for appointments still to come. The
 * lead's reminder is queued later by the reminder job, `leadReminderHours` ahead. Without
 * this, no email is queued (demo data).
 */
export type AppointmentMail = QueueMail & { timeZone: string; leadReminderHours: number };

type Change = 'scheduled' | 'updated' | 'cancelled';

/** An appointment's start as a moment: its wall-clock date and time in the business time zone. */
const startsAt = (a: SQL, timeZone: string) => sql`((${a}.date + ${a}.time) at time zone ${timeZone})`;

/**
 * A reminder is due unless the appointment starts within the reminder window anyway: then the
 * confirmation, just sent, says it all (lead_reminder_sent_at is set to mark it done).
 */
const reminderDone = (a: SQL, mail: AppointmentMail | undefined) =>
  mail ? sql`case when ${startsAt(a, mail.timeZone)} <= now() + make_interval(hours => ${mail.leadReminderHours}) then now() end` : sql`now()`;

/**
 * CTEs that queue the emails of a change to the appointments in CTE `source` (whose rows may
 * carry a `changed` flag: only those are mailed). Each message holds a snapshot of the
 * appointment and its lead. `sequenceStep` is 1 for a cancellation: it outranks the
 * invitation the lead holds.
 */
function queueAppointmentEmails(source: string, change: Change, mail: AppointmentMail, { onlyChanged = false, sequenceStep = 0 } = {}): SQL {
  const a = sql.raw('a');
  return sql`, mail_snapshot as (
      select a.id, l.id as lead_id, l.email, l.full_name, ${startsAt(a, mail.timeZone)} as starts_at,
        jsonb_build_object('appointment_id', a.id, 'change', ${change}::text, 'type', a.type,
          'date', to_char(a.date, 'YYYY-MM-DD'), 'time', to_char(a.time, 'HH24:MI'), 'time_zone', ${mail.timeZone}::text,
          'starts_at', ${isoTimestamp(startsAt(a, mail.timeZone))}, 'sequence', a.sequence + ${sequenceStep}::int, 'notes', a.notes,
          'lead_id', l.id, 'lead_name', l.full_name, 'lead_email', l.email, 'lead_phone', l.phone) as data
      from ${sql.raw(source)} a join leads l on l.id = a.lead_id
      where ${startsAt(a, mail.timeZone)} > now()${onlyChanged ? sql` and a.changed` : sql``}
    ), mail_to_lead as (
      insert into emails (message_id, status, last_error, kind, to_address, to_name, data, lead_id)
      select ${newEmail(mail)}, 'appointment', s.email, s.full_name, s.data || '{"audience":"lead"}'::jsonb, s.lead_id
      from mail_snapshot s
    ), mail_to_staff as (
      insert into emails (message_id, status, last_error, kind, to_address, data, lead_id)
      select ${newEmail(mail)}, 'appointment', u.email, s.data || '{"audience":"staff"}'::jsonb, s.lead_id
      from mail_snapshot s cross join users u where u.email_appointments
    )`;
}

/** Undefined when the lead does not exist (the route answers 422). */
export async function createAppointment(db: Db, input: CreateAppointmentRequest, mail?: AppointmentMail): Promise<Appointment | undefined> {
  const [row] = await queryRows(db, sql`
    with created as (
      insert into appointments (lead_id, date, time, type, notes, lead_reminder_sent_at)
      select l.id, i.date, i.time, ${input.type}, ${input.notes ? input.notes : null}, ${reminderDone(sql.raw('i'), mail)}
      from leads l, (select ${input.date}::date as date, ${input.time}::time as time) i
      where l.id = ${input.lead_id}
      returning *
    )${mail ? queueAppointmentEmails('created', 'scheduled', mail) : sql``}
    select id from created`, idRow);
  return row ? getAppointment(db, row.id) : undefined;
}

/**
 * Changes only the fields sent. A new date, time or type is a change the lead is told of
 * (SEQUENCE one higher); a new date or time also makes both reminders due again. Notes alone
 * change nothing for the lead.
 */
export async function updateAppointment(db: Db, id: string, patch: UpdateAppointmentRequest, mail?: AppointmentMail): Promise<Appointment | undefined> {
  const value = <K extends keyof UpdateAppointmentRequest>(key: K, cast: string, current: string) =>
    patch[key] !== undefined ? sql`${patch[key]}${sql.raw(cast)}` : sql.raw(current);
  const notes = Object.prototype.hasOwnProperty.call(patch, 'notes') ? sql`${patch.notes ? patch.notes : null}` : sql`p.notes`;
  const [row] = await queryRows(db, sql`
    with p as (select * from appointments where id = ${id} for update),
    n as (
      select p.id, ${value('date', '::date', 'p.date')} as date, ${value('time', '::time', 'p.time')} as time,
        ${value('type', '::text', 'p.type')} as type, ${notes} as notes, p.date as old_date, p.time as old_time, p.type as old_type
      from p
    ), updated as (
      update appointments a set date = n.date, time = n.time, type = n.type, notes = n.notes,
        sequence = a.sequence + case when (n.date, n.time, n.type) is distinct from (n.old_date, n.old_time, n.old_type) then 1 else 0 end,
        reminder_sent_at = case when (n.date, n.time) is distinct from (n.old_date, n.old_time) then null else a.reminder_sent_at end,
        lead_reminder_sent_at = case when (n.date, n.time) is distinct from (n.old_date, n.old_time) then ${reminderDone(sql.raw('n'), mail)}
          else a.lead_reminder_sent_at end
      from n where a.id = n.id
      returning a.*, (n.date, n.time, n.type) is distinct from (n.old_date, n.old_time, n.old_type) as changed
    )${mail ? queueAppointmentEmails('updated', 'updated', mail, { onlyChanged: true }) : sql``}
    select id from updated`, idRow);
  return row ? getAppointment(db, row.id) : undefined;
}

export async function deleteAppointment(db: Db, id: string, mail?: AppointmentMail): Promise<boolean> {
  const rows = await queryRows(db, sql`
    with deleted as (delete from appointments where id = ${id} returning *)${mail ? queueAppointmentEmails('deleted', 'cancelled', mail, { sequenceStep: 1 }) : sql``}
    select id from deleted`, idRow);
  return rows.length > 0;
}

/**
 * Queues the lead's reminder for each appointment starting within `leadReminderHours`, once:
 * the appointment is marked in the same statement, and the dedupe key (appointment and
 * sequence) would refuse a second message even so. Returns how many were queued.
 */
export async function queueLeadReminders(db: Db, mail: AppointmentMail): Promise<number> {
  const a = sql.raw('a');
  const today = sql`(now() at time zone ${mail.timeZone})::date`;
  const [row] = await queryRows(db, sql`
    with due as (
      update appointments a set lead_reminder_sent_at = now()
      where a.lead_reminder_sent_at is null and a.lead_id is not null
        and a.date between ${today} - 1 and ${today} + ${Math.ceil(mail.leadReminderHours / 24) + 1}::int
        and ${startsAt(a, mail.timeZone)} > now()
        and ${startsAt(a, mail.timeZone)} <= now() + make_interval(hours => ${mail.leadReminderHours})
      returning a.*
    ), snapshot as (
      select a.id, l.id as lead_id, l.email, l.full_name, a.sequence,
        jsonb_build_object('appointment_id', a.id, 'type', a.type, 'date', to_char(a.date, 'YYYY-MM-DD'), 'time', to_char(a.time, 'HH24:MI'),
          'time_zone', ${mail.timeZone}::text, 'starts_at', ${isoTimestamp(startsAt(a, mail.timeZone))}, 'lead_name', l.full_name) as data
      from due a join leads l on l.id = a.lead_id
    ), queued as (
      insert into emails (message_id, status, last_error, kind, to_address, to_name, data, lead_id, dedupe_key)
      select ${newEmail(mail)}, 'appointment-reminder', s.email, s.full_name, s.data, s.lead_id,
        'appointment-reminder:' || s.id || ':' || s.sequence
      from snapshot s
      on conflict (dedupe_key) where dedupe_key is not null do nothing
      returning id
    )
    select count(*)::int as n from queued`, z.object({ n: z.number().int() }));
  return row?.n ?? 0;
}

const calendarAppointmentSchema = appointmentSchema.extend({ starts_utc: z.string(), created_utc: z.string() });
export type CalendarAppointment = z.infer<typeof calendarAppointmentSchema>;

/**
 * Appointments for iCalendar: one by id, or the feed's (from 90 days ago on). Their start,
 * wall-clock in the business time zone, is converted to UTC here, in the database.
 */
export async function listCalendarAppointments(db: Db, timeZone: string, id?: string): Promise<CalendarAppointment[]> {
  const which = id ? sql`a.id = ${id}` : sql`a.date >= (now() at time zone ${timeZone})::date - 90`;
  return queryRows(db, sql`
    select ${appointmentColumns},
      to_char(((a.date + a.time) at time zone ${timeZone}) at time zone 'UTC', 'YYYYMMDD"T"HH24MISS"Z"') as starts_utc,
      to_char(a.created_at at time zone 'UTC', 'YYYYMMDD"T"HH24MISS"Z"') as created_utc
    ${fromAppointments}
    where ${which}
    order by a.date, a.time
    limit 5000`, calendarAppointmentSchema);
}
