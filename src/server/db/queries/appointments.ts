import { sql, type SQL } from 'drizzle-orm';
import {
  APPOINTMENT_LIST_LIMIT,
  type Appointment,
  type AppointmentListQuery,
  type CreateAppointmentRequest,
  type UpdateAppointmentRequest,
} from '#shared/schemas/appointment';
import { execute, queryRows, type Db } from '../client.ts';
import { appointmentColumns } from './overview.ts';

const fromAppointments = sql`from appointments a left join leads l on l.id = a.lead_id`;

export async function listAppointments(db: Db, range: AppointmentListQuery): Promise<{ appointments: Appointment[]; truncated: boolean }> {
  const where: SQL[] = [];
  if (range.from) where.push(sql`a.date >= ${range.from}::date`);
  if (range.to) where.push(sql`a.date <= ${range.to}::date`);
  const rows = await queryRows<Appointment>(db, sql`
    select ${appointmentColumns} ${fromAppointments}
    ${where.length > 0 ? sql`where ${sql.join(where, sql` and `)}` : sql``}
    order by a.date, a.time, a.id
    limit ${APPOINTMENT_LIST_LIMIT + 1}`);
  return { appointments: rows.slice(0, APPOINTMENT_LIST_LIMIT), truncated: rows.length > APPOINTMENT_LIST_LIMIT };
}

export async function getAppointment(db: Db, id: string): Promise<Appointment | undefined> {
  const [row] = await queryRows<Appointment>(db, sql`select ${appointmentColumns} ${fromAppointments} where a.id = ${id}`);
  return row;
}

/** Undefined when the lead does not exist (the route answers 422). */
export async function createAppointment(db: Db, input: CreateAppointmentRequest): Promise<Appointment | undefined> {
  const [row] = await queryRows<{ id: string }>(db, sql`
    insert into appointments (lead_id, date, time, type, notes)
    select l.id, ${input.date}::date, ${input.time}::time, ${input.type}, ${input.notes ? input.notes : null}
    from leads l where l.id = ${input.lead_id}
    returning id`);
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
  const [row] = await queryRows<{ id: string }>(db, sql`update appointments set ${sql.join(sets, sql`, `)} where id = ${id} returning id`);
  return row ? getAppointment(db, row.id) : undefined;
}

export async function deleteAppointment(db: Db, id: string): Promise<boolean> {
  return (await execute(db, sql`delete from appointments where id = ${id}`)) > 0;
}

export type CalendarAppointment = Appointment & { starts_utc: string; created_utc: string };

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
    limit 5000`);
}
