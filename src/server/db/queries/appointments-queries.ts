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
import type { Config } from '../../config.ts';
import { newEmail, queueMailOf, visitorBudget, type QueueMail } from './emails-queries.ts';

/**
 * The person of appointment `a` (with `l`, its lead) as the form that booked it named them: the
 * name (or phone) typed on the repeat form whose link booked it, else the lead's. A stranger
 * who typed a known person's email is called what they typed, never the lead's stored name
 * (docs/product-rules.md, "Booking").
 */
export const bookedName = (a: SQL, l: SQL) =>
  sql`coalesce((select e.data->>'full_name' from lead_events e where e.id = ${a}.inquiry_id), ${l}.full_name)`;
export const bookedPhone = (a: SQL, l: SQL) =>
  sql`coalesce((select e.data->>'phone' from lead_events e where e.id = ${a}.inquiry_id), ${l}.phone)`;

/** What every appointment response holds (the shared Appointment schema), with its lead or null. */
export const appointmentColumns = sql`a.id, a.lead_id, to_char(a.date, 'YYYY-MM-DD') as date, to_char(a.time, 'HH24:MI') as time,
  a.type, a.notes, a.duration_minutes, a.location, a.status, a.cancelled_by, a.source,
  case when l.id is null then null else json_build_object('full_name', l.full_name, 'email', l.email, 'phone', l.phone) end as lead,
  (select json_build_object('full_name', e.data->>'full_name', 'phone', e.data->>'phone', 'at', e.created_at)
   from lead_events e where e.id = a.inquiry_id) as booked_as,
  a.host_id, (select h.display_name from users h where h.id = a.host_id) as host_name`;

export const fromAppointments = sql`from appointments a left join leads l on l.id = a.lead_id`;

const idRow = z.object({ id: z.uuid() });

export async function listAppointments(db: Db, range: AppointmentListQuery): Promise<{ appointments: Appointment[]; truncated: boolean }> {
  const where: SQL[] = [];
  if (range.from) where.push(sql`a.date >= ${range.from}::date`);
  if (range.to) where.push(sql`a.date <= ${range.to}::date`);
  if (range.host_id) where.push(sql`a.host_id = ${range.host_id}::uuid`);
  const rows = await queryRows(
    db,
    sql`
    select ${appointmentColumns} ${fromAppointments}
    ${where.length > 0 ? sql`where ${sql.join(where, sql` and `)}` : sql``}
    order by a.date, a.time, a.id
    limit ${APPOINTMENT_LIST_LIMIT + 1}`,
    appointmentSchema,
  );
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
  const today = sql`(crm_now() at time zone ${timeZone})::date`;
  return sql`a.date between ${today} - 1 and ${today} + ${days + 1}::int and a.status = 'scheduled'
    and ${startsAt} >= crm_now() and ${startsAt} < crm_now() + make_interval(days => ${days})`;
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

/** The AppointmentMail of this configuration. */
export const appointmentMailOf = (config: Config): AppointmentMail => ({
  ...queueMailOf(config.mail),
  timeZone: config.businessTimeZone,
  leadReminderHours: config.mail.leadReminderHours,
});

type Change = 'scheduled' | 'updated' | 'cancelled';

/** An appointment's start as a moment: its wall-clock date and time in the business time zone. */
export const startsAt = (a: SQL, timeZone: string) => sql`((${a}.date + ${a}.time) at time zone ${timeZone})`;

/**
 * A reminder is due unless the appointment starts within the reminder window anyway: then the
 * confirmation, just sent, says it all (lead_reminder_sent_at is set to mark it done).
 */
export const reminderDone = (a: SQL, mail: AppointmentMail | undefined) =>
  mail
    ? sql`case when ${startsAt(a, mail.timeZone)} <= crm_now() + make_interval(hours => ${mail.leadReminderHours}) then crm_now() end`
    : sql`crm_now()`;

export type QueueOptions = {
  /** The change to tell of, or a column of `source` naming it per row (null: nothing to tell). */
  change: Change | SQL;
  /** 1 for a deletion: the cancellation outranks the invitation the lead holds. */
  sequenceStep?: number;
  /** More of the lead's snapshot (jsonb), such as the private link of a booking. */
  leadExtra?: SQL;
  /** A website visitor made the change (a booking, a move or cancellation through their link): the lead's copy is mail a visitor caused (visitorBudget). */
  byVisitor?: boolean;
  /** False: the lead's email only, no copies for the admins who opted in (a bulk change). */
  staffCopies?: boolean;
};

/**
 * CTEs that queue the emails of a change to the appointments in CTE `source`. Each message
 * holds a snapshot of the appointment and its lead. CTE `mail_to_lead` returns the status the
 * lead's message was stored with (queued, or not sent: email off, or the visitor mail budget
 * spent), for a statement that must tell the visitor whether they were emailed (`leadEmailed`).
 */
export function queueAppointmentEmails(
  source: string,
  mail: AppointmentMail,
  { change, sequenceStep = 0, leadExtra, byVisitor = false, staffCopies = true }: QueueOptions,
): SQL {
  const a = sql.raw('a');
  const changeOf = typeof change === 'string' ? sql`${change}::text` : change;
  return sql`, mail_snapshot as (
      select a.id, l.id as lead_id, l.email, ${bookedName(a, sql.raw('l'))} as full_name, ${startsAt(a, mail.timeZone)} as starts_at,
        jsonb_build_object('appointment_id', a.id, 'change', ${changeOf}, 'type', a.type,
          'date', to_char(a.date, 'YYYY-MM-DD'), 'time', to_char(a.time, 'HH24:MI'), 'time_zone', ${mail.timeZone}::text,
          'starts_at', ${isoTimestamp(startsAt(a, mail.timeZone))}, 'sequence', a.sequence + ${sequenceStep}::int, 'notes', a.notes,
          'duration_minutes', a.duration_minutes, 'location', a.location, 'visitor_time_zone', a.visitor_time_zone,
          'lead_id', l.id, 'lead_name', ${bookedName(a, sql.raw('l'))}, 'lead_email', l.email, 'lead_phone', ${bookedPhone(a, sql.raw('l'))}) as data
      from ${sql.raw(source)} a join leads l on l.id = a.lead_id
      where ${startsAt(a, mail.timeZone)} > crm_now() and ${changeOf} is not null
    ), mail_to_lead as (
      insert into emails (message_id, status, last_error, kind, to_address, to_name, data, lead_id, visitor_budget)
      select ${newEmail(mail)}, 'appointment', s.email, s.full_name, s.data || '{"audience":"lead"}'::jsonb${leadExtra ? sql` || ${leadExtra}` : sql``}, s.lead_id,
        ${byVisitor ? visitorBudget(mail) : sql`null::int`}
      from mail_snapshot s
      returning status
    ), mail_to_staff as (
      insert into emails (message_id, status, last_error, kind, to_address, data, lead_id)
      select ${newEmail(mail)}, 'appointment', u.email, s.data || '{"audience":"staff"}'::jsonb, s.lead_id
      from mail_snapshot s cross join users u where u.email_appointments and u.deactivated_at is null and ${staffCopies}
    )`;
}

/** After queueAppointmentEmails: whether the lead's message was queued (false when none was, or it was stored not sent). */
export const leadEmailed = sql`coalesce((select bool_or(status = 'queued') from mail_to_lead), false)`;

/**
 * What else a staff appointment is made with: the admin who made it (`changed_by`, so the lead's
 * timeline names them), the booking buffer of the moment, and overlap on purpose.
 */
export type AppointmentOptions = { changedBy: string | null; mail?: AppointmentMail; bufferMinutes?: number };

/**
 * The scheduled appointments of host `at.host_id` a time would overlap, buffers included (the
 * new one's and theirs), but `exceptId`: what the warning lists before staff schedule over them.
 */
export function findOverlaps(
  db: Db,
  at: { date: string; time: string; duration_minutes: number; buffer_minutes: number; host_id: string | null },
  exceptId?: string,
): Promise<{ id: string; date: string; time: string; type: string; lead_name: string | null }[]> {
  return queryRows(
    db,
    sql`
    select a.id, to_char(a.date, 'YYYY-MM-DD') as date, to_char(a.time, 'HH24:MI') as time, a.type, l.full_name as lead_name
    from appointments a left join leads l on l.id = a.lead_id
    where a.status = 'scheduled' and a.id is distinct from ${exceptId ?? null}::uuid and a.host_id = ${at.host_id}::uuid
      and a.blocks && tsrange(${at.date}::date + ${at.time}::time,
                              ${at.date}::date + ${at.time}::time + make_interval(mins => ${at.duration_minutes + at.buffer_minutes}::int))
    order by a.date, a.time
    limit 20`,
    z.object({ id: z.uuid(), date: z.string(), time: z.string(), type: z.string(), lead_name: z.string().nullable() }),
  );
}

/** Undefined when the lead does not exist (the route answers 422). */
export async function createAppointment(
  db: Db,
  input: CreateAppointmentRequest,
  { changedBy, mail, bufferMinutes = 0 }: AppointmentOptions,
): Promise<Appointment | undefined> {
  const hostId = input.host_id ?? changedBy;
  const [row] = await queryRows(
    db,
    sql`
    with created as (
      insert into appointments (lead_id, date, time, type, notes, duration_minutes, location, buffer_minutes, overlap_allowed, lead_reminder_sent_at, changed_by, host_id)
      select l.id, i.date, i.time, ${input.type}, ${input.notes ? input.notes : null}, ${input.duration_minutes ?? 30}::int,
        ${input.location ? input.location : null}, ${bufferMinutes}::int, ${input.allow_overlap === true}, ${reminderDone(sql.raw('i'), mail)},
        ${changedBy}::uuid, ${hostId}::uuid
      from leads l, (select ${input.date}::date as date, ${input.time}::time as time) i
      where l.id = ${input.lead_id}
      returning *
    )${mail ? queueAppointmentEmails('created', mail, { change: 'scheduled' }) : sql``}
    select id from created`,
    idRow,
  );
  return row ? getAppointment(db, row.id) : undefined;
}

export type UpdateOptions = {
  /** The admin making the change, or null for the lead through their booking link (the timeline's actor). */
  changedBy: string | null;
  mail?: AppointmentMail;
  cancelledBy?: 'staff' | 'lead';
  /** A `booking` notification for every admin when the lead is told of a change: its message from the CTE (with `l`, the lead). */
  notice?: (cte: string) => SQL;
  leadExtra?: SQL;
  /** The lead made the change through their booking link: the lead's email is mail a visitor caused. */
  byVisitor?: boolean;
  /** The visitor's IANA time zone, from their booking page: kept with the appointment (undefined keeps the one it has). */
  visitorTimeZone?: string;
};

/** "Tue Nov 24, 10:00 AM": an appointment's wall-clock start in notifications. */
export const shortWhen = (a: string) => sql`to_char(${sql.raw(a)}.date + ${sql.raw(a)}.time, 'Dy Mon FMDD, FMHH12:MI AM')`;

/**
 * Changes only the fields sent. A new date, time, type, length or place is a change the lead
 * is told of (SEQUENCE one higher); so are cancelling (status cancelled) and scheduling again.
 * A new date or time also makes both reminders due again. Notes alone change nothing for the lead.
 */
export async function updateAppointment(
  db: Db,
  id: string,
  patch: UpdateAppointmentRequest,
  options: UpdateOptions,
): Promise<Appointment | undefined> {
  const row = await changeAppointment(db, id, patch, options);
  return row ? getAppointment(db, row.id) : undefined;
}

/**
 * updateAppointment's statement: the appointment's id, and whether the lead's email about the
 * change was queued (what a visitor's page says); undefined for no such appointment.
 */
export async function changeAppointment(
  db: Db,
  id: string,
  patch: UpdateAppointmentRequest,
  { changedBy, mail, cancelledBy = 'staff', notice, leadExtra, byVisitor, visitorTimeZone }: UpdateOptions,
): Promise<{ id: string; lead_emailed: boolean } | undefined> {
  const has = (key: keyof UpdateAppointmentRequest) => Object.prototype.hasOwnProperty.call(patch, key);
  const value = <K extends keyof UpdateAppointmentRequest>(key: K, cast: string, current: string) =>
    patch[key] !== undefined ? sql`${patch[key]}${sql.raw(cast)}` : sql.raw(current);
  const notes = has('notes') ? sql`${patch.notes ? patch.notes : null}` : sql`p.notes`;
  const location = has('location') ? sql`${patch.location ? patch.location : null}::text` : sql`p.location`;
  const overlap = patch.allow_overlap === true ? sql`true` : sql`p.overlap_allowed`;
  const [row] = await queryRows(
    db,
    sql`
    with p as (select * from appointments where id = ${id} for update),
    n as (
      select p.id, ${value('date', '::date', 'p.date')} as date, ${value('time', '::time', 'p.time')} as time,
        ${value('type', '::text', 'p.type')} as type, ${notes} as notes, ${value('duration_minutes', '::int', 'p.duration_minutes')} as duration_minutes,
        ${location} as location, ${value('status', '::text', 'p.status')} as status, ${overlap} as overlap_allowed,
        ${value('host_id', '::uuid', 'p.host_id')} as host_id,
        (${value('date', '::date', 'p.date')}, ${value('time', '::time', 'p.time')}) is distinct from (p.date, p.time) as moved,
        (${value('date', '::date', 'p.date')}, ${value('time', '::time', 'p.time')}, ${value('type', '::text', 'p.type')},
         ${value('duration_minutes', '::int', 'p.duration_minutes')}, ${location}) is distinct from (p.date, p.time, p.type, p.duration_minutes, p.location) as edited,
        p.status as old_status
      from p
    ), c as (
      select n.*, case
        when n.status = 'cancelled' and n.old_status <> 'cancelled' then 'cancelled'
        when n.status = 'scheduled' and n.old_status <> 'scheduled' then 'scheduled'
        when n.status = 'scheduled' and n.edited then 'updated'
      end as change
      from n
    ), updated as (
      update appointments a set date = c.date, time = c.time, type = c.type, notes = c.notes, duration_minutes = c.duration_minutes,
        location = c.location, status = c.status, overlap_allowed = c.overlap_allowed, host_id = c.host_id, changed_by = ${changedBy}::uuid,
        cancelled_by = case when c.status = 'cancelled' then coalesce(case when c.old_status = 'cancelled' then a.cancelled_by end, ${cancelledBy}) end,
        sequence = a.sequence + case when c.change is not null then 1 else 0 end,
        reminder_sent_at = case when c.moved then null else a.reminder_sent_at end,
        lead_reminder_sent_at = case when c.moved then ${reminderDone(sql.raw('c'), mail)} else a.lead_reminder_sent_at end,
        visitor_time_zone = coalesce(${visitorTimeZone ?? null}::text, a.visitor_time_zone)
      from c where a.id = c.id
      returning a.*, c.change
    )${mail ? queueAppointmentEmails('updated', mail, { change: sql`a.change`, leadExtra, byVisitor }) : sql``}${
      notice
        ? sql`, noticed as (
      insert into notifications (user_id, type, message, lead_id)
      select u.id, 'booking', ${notice('updated')}, l.id from updated join leads l on l.id = updated.lead_id cross join users u
      where updated.change is not null)`
        : sql``
    }
    select id, ${mail ? leadEmailed : sql`false`} as lead_emailed from updated`,
    z.object({ id: z.uuid(), lead_emailed: z.boolean() }),
  );
  return row;
}

/** Deletes it; the lead of one still to come (and not cancelled already) is told it is off. */
export async function deleteAppointment(db: Db, id: string, mail?: AppointmentMail): Promise<boolean> {
  const rows = await queryRows(
    db,
    sql`
    with deleted as (delete from appointments where id = ${id} returning *)${
      mail
        ? queueAppointmentEmails('deleted', mail, { change: sql`case when a.status = 'scheduled' then 'cancelled' end`, sequenceStep: 1 })
        : sql``
    }
    select id from deleted`,
    idRow,
  );
  return rows.length > 0;
}

/**
 * Queues the lead's reminder for each appointment starting within `leadReminderHours`, once:
 * the appointment is marked in the same statement, and the dedupe key (appointment and
 * sequence) would refuse a second message even so. Returns how many were queued.
 */
export async function queueLeadReminders(db: Db, mail: AppointmentMail): Promise<number> {
  const a = sql.raw('a');
  const today = sql`(crm_now() at time zone ${mail.timeZone})::date`;
  const [row] = await queryRows(
    db,
    sql`
    with due as (
      update appointments a set lead_reminder_sent_at = crm_now()
      where a.lead_reminder_sent_at is null and a.lead_id is not null and a.status = 'scheduled'
        and a.date between ${today} - 1 and ${today} + ${Math.ceil(mail.leadReminderHours / 24) + 1}::int
        and ${startsAt(a, mail.timeZone)} > crm_now()
        and ${startsAt(a, mail.timeZone)} <= crm_now() + make_interval(hours => ${mail.leadReminderHours})
      returning a.*
    ), snapshot as (
      select a.id, l.id as lead_id, l.email, ${bookedName(a, sql.raw('l'))} as full_name, a.sequence, a.source,
        jsonb_build_object('appointment_id', a.id, 'type', a.type, 'date', to_char(a.date, 'YYYY-MM-DD'), 'time', to_char(a.time, 'HH24:MI'),
          'time_zone', ${mail.timeZone}::text, 'starts_at', ${isoTimestamp(startsAt(a, mail.timeZone))}, 'lead_name', ${bookedName(a, sql.raw('l'))},
          'visitor_time_zone', a.visitor_time_zone) as data
      from due a join leads l on l.id = a.lead_id
    ), queued as (
      -- The reminder of a call a visitor booked online is mail a visitor caused (visitorBudget).
      insert into emails (message_id, status, last_error, kind, to_address, to_name, data, lead_id, dedupe_key, visitor_budget)
      select ${newEmail(mail)}, 'appointment-reminder', s.email, s.full_name, s.data, s.lead_id,
        'appointment-reminder:' || s.id || ':' || s.sequence, case when s.source = 'booking' then ${visitorBudget(mail)} end
      from snapshot s
      on conflict (dedupe_key) where dedupe_key is not null do nothing
      returning id
    )
    select count(*)::int as n from queued`,
    z.object({ n: z.number().int() }),
  );
  return row?.n ?? 0;
}

const calendarAppointmentSchema = appointmentSchema.extend({ starts_utc: z.string(), created_utc: z.string() });
export type CalendarAppointment = z.infer<typeof calendarAppointmentSchema>;

/**
 * Appointments for iCalendar: one by id, or the feed's (from 90 days ago on). Their start,
 * wall-clock in the business time zone, is converted to UTC here, in the database.
 */
export async function listCalendarAppointments(db: Db, timeZone: string, id?: string): Promise<CalendarAppointment[]> {
  const which = id ? sql`a.id = ${id}` : sql`a.date >= (crm_now() at time zone ${timeZone})::date - 90 and a.status <> 'cancelled'`;
  return queryRows(
    db,
    sql`
    select ${appointmentColumns},
      to_char(((a.date + a.time) at time zone ${timeZone}) at time zone 'UTC', 'YYYYMMDD"T"HH24MISS"Z"') as starts_utc,
      to_char(a.created_at at time zone 'UTC', 'YYYYMMDD"T"HH24MISS"Z"') as created_utc
    ${fromAppointments}
    where ${which}
    order by a.date, a.time
    limit 5000`,
    calendarAppointmentSchema,
  );
}
