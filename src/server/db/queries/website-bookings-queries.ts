import { sql, type SQL } from 'drizzle-orm';
import * as z from 'zod';
import type { Db } from '../client.ts';
import { execute, isoTimestamp, pgArray, queryRows, transaction } from '../sql.ts';
import { auditInsert, type AuditActor } from './audit-log-queries.ts';
import { queueAppointmentEmails, startsAt, type AppointmentMail } from './appointments-queries.ts';

/**
 * Staff's tools against a flood of fake website bookings (docs/security.md, "Website bookings:
 * where they came from, and cancelling them at once"): each booking keeps its client's network
 * (`appointments.booked_network`) and when it was made (`created_at`).
 */

/** Which website bookings: one network (as stored), a window of when they were booked, or both. */
export type BookingCriteria = { network?: string; bookedFrom?: string; bookedTo?: string };

/** Timeline entries of the calls cancelled this way say why (`reason`). */
export const SUSPECTED_ABUSE = 'suspected_abuse';

/** Scheduled calls booked on the website that are still to come and match `c`. */
function upcomingBookings(c: BookingCriteria, timeZone: string): SQL {
  const a = sql.raw('a');
  return sql`a.status = 'scheduled' and a.source = 'booking'
    and a.date >= (crm_now() at time zone ${timeZone})::date - 1 and ${startsAt(a, timeZone)} > crm_now()
    ${c.network !== undefined ? sql`and a.booked_network = ${c.network}` : sql``}
    ${c.bookedFrom !== undefined ? sql`and a.created_at >= ${c.bookedFrom}::timestamptz` : sql``}
    ${c.bookedTo !== undefined ? sql`and a.created_at <= ${c.bookedTo}::timestamptz` : sql``}`;
}

/** How many calls a bulk cancel with these criteria would cancel now. */
export async function countWebsiteBookings(db: Db, c: BookingCriteria, timeZone: string): Promise<number> {
  const [row] = await queryRows(
    db,
    sql`select count(*)::int as n from appointments a where ${upcomingBookings(c, timeZone)}`,
    z.object({ n: z.number().int() }),
  );
  return row?.n ?? 0;
}

export type BulkCancel = {
  actor: AuditActor;
  /** Email each lead the cancellation (undefined: nobody is told). */
  mail?: AppointmentMail;
  timeZone: string;
  /** What the audit entry records of the request. */
  criteria: Record<string, unknown>;
};

/**
 * Cancels every matching call in one transaction: the calls (cancelled by staff, their booking
 * links can book no more), their leads kept and marked (`suspected_abuse_at`, and the timeline's
 * cancellation entries say why), the cancellation emailed to the leads only with `mail`, and
 * one audit entry with the count and the criteria. Returns how many were cancelled.
 */
export async function cancelWebsiteBookings(db: Db, c: BookingCriteria, { actor, mail, timeZone, criteria }: BulkCancel): Promise<number> {
  return transaction(db, async (t) => {
    const rows = await queryRows(
      t,
      sql`
      with target as (select a.id from appointments a where ${upcomingBookings(c, timeZone)} for update),
      cancelled as (
        update appointments a set status = 'cancelled', cancelled_by = 'staff', changed_by = ${actor.id}::uuid, sequence = a.sequence + 1
        from target where a.id = target.id
        returning a.*
      ), links as (
        -- A booking link books one call; a cancelled one may book again, unless it is ended here.
        update booking_tokens k set expires_at = least(k.expires_at, crm_now()) from cancelled where k.appointment_id = cancelled.id
      ), marked as (
        update leads l set suspected_abuse_at = crm_now() where l.id in (select lead_id from cancelled)
      )${mail ? queueAppointmentEmails('cancelled', mail, { change: 'cancelled', staffCopies: false }) : sql``}
      select id from cancelled`,
      z.object({ id: z.uuid() }),
    );
    const ids = rows.map((r) => r.id);
    if (ids.length > 0) {
      // The appointments trigger wrote each lead's "cancelled" entry at the end of the statement
      // above (same transaction, same crm_now()): they say why.
      await execute(
        t,
        sql`
        update lead_events set data = data || ${JSON.stringify({ reason: SUSPECTED_ABUSE })}::jsonb
        where kind = 'appointment' and created_at = crm_now() and data->>'action' = 'cancelled'
          and data->>'appointment_id' = any(${pgArray(ids)}::text[])`,
      );
    }
    await execute(
      t,
      auditInsert(actor, { action: 'appointments_bulk_cancelled', targetType: 'appointment', details: { count: ids.length, ...criteria } }),
    );
    return ids.length;
  });
}

const networkRow = z.object({ network: z.string(), upcoming: z.number().int(), last_booked_at: z.string() });

/** The networks with the most upcoming website bookings (at most `limit`). */
export function listBookingNetworks(db: Db, timeZone: string, limit = 10): Promise<z.infer<typeof networkRow>[]> {
  return queryRows(
    db,
    sql`
    select a.booked_network as network, count(*)::int as upcoming, ${isoTimestamp(sql`max(a.created_at)`)} as last_booked_at
    from appointments a
    where a.booked_network is not null and ${upcomingBookings({}, timeZone)}
    group by a.booked_network
    order by count(*) desc, max(a.created_at) desc, a.booked_network
    limit ${limit}`,
    networkRow,
  );
}

/** Days after its date that a call keeps the network it was booked from. */
export const BOOKED_NETWORK_DAYS = 30;

/**
 * Forgets the network of calls more than BOOKED_NETWORK_DAYS days past. Looked for first: an
 * update, even of no row, tells every open appointments page to refetch.
 */
export async function forgetOldBookingNetworks(db: Db): Promise<number> {
  const old = sql`booked_network is not null and date < crm_now()::date - ${BOOKED_NETWORK_DAYS}::int`;
  const [row] = await queryRows(db, sql`select exists (select 1 from appointments where ${old}) as any`, z.object({ any: z.boolean() }));
  if (!row?.any) return 0;
  return execute(db, sql`update appointments set booked_network = null where ${old}`);
}
