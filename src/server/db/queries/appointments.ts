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
import { execute, queryRows } from '../sql.ts';

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

/** Undefined when the lead does not exist (the route answers 422). */
export async function createAppointment(db: Db, input: CreateAppointmentRequest): Promise<Appointment | undefined> {
  const [row] = await queryRows(db, sql`
    insert into appointments (lead_id, date, time, type, notes)
    select l.id, ${input.date}::date, ${input.time}::time, ${input.type}, ${input.notes ? input.notes : null}
    from leads l where l.id = ${input.lead_id}
    returning id`, idRow);
  return row ? getAppointment(db, row.id) : undefined;
}

/** Changes only the fields sent; a new date or time makes the reminder due again. */
export async function updateAppointment(db: Db, id: string, patch: UpdateAppointmentRequest): Promise<Appointment | undefined> {
  const sets: SQL[] = [];
  if (patch.date !== undefined) sets.push(sql`date = ${patch.date}::date`);
  if (patch.time !== undefined) sets.push(sql`time = ${patch.time}::time`);
  if (patch.type !== undefined) sets.push(sql`type = ${patch.type}`);
  if (Object.prototype.hasOwnProperty.call(patch, 'notes')) sets.push(sql`notes = ${patch.notes ? patch.notes : null}`);
  if (patch.date !== undefined || patch.time !== undefined) sets.push(sql`reminder_sent_at = null`);
  const [row] = await queryRows(db, sql`update appointments set ${sql.join(sets, sql`, `)} where id = ${id} returning id`, idRow);
  return row ? getAppointment(db, row.id) : undefined;
}

export async function deleteAppointment(db: Db, id: string): Promise<boolean> {
  return (await execute(db, sql`delete from appointments where id = ${id}`)) > 0;
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
