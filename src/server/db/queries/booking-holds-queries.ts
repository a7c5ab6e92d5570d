import { sql } from 'drizzle-orm';
import * as z from 'zod';
import type { Db } from '../client.ts';
import { execute, isoTimestamp, queryRows, transaction } from '../sql.ts';
import { newEmail, visitorBudget, type QueueMail } from './emails-queries.ts';
import { windowStart } from './rate-limits-queries.ts';

/**
 * Website bookings held until the visitor confirms them from an email (docs/security.md,
 * "Calendar exhaustion"). A hold is not an appointment: the time stays open to everyone until
 * a confirmation books it through bookSlot, where the no-overlap constraint decides between
 * two holds of one time.
 */

/** How long the emailed confirmation link works. */
export const HOLD_MINUTES = 30;

/** An expired or confirmed hold is kept this long, so its link still says what became of it. */
const HOLD_KEPT_DAYS = 1;

export type NewHold = {
  /** The booking link's hash (the hold belongs to it; a new hold replaces the link's last one). */
  hash: string;
  /** SHA-256 of the emailed confirmation code. */
  confirmHash: string;
  date: string;
  time: string;
  type: string;
  /** The client's network (networkKey), kept with the hold for staff. */
  network: string;
  /** The confirmation page's path (/booking/<token>/confirm/<code>), for the email only. */
  link: string;
  /** The visitor's IANA time zone (checked): the email shows their clock, and the call it books keeps it. */
  visitorTimeZone?: string | null;
  /** The person the visitor chose to meet; null: anyone free. */
  hostId?: string | null;
};

export type HoldMail = QueueMail & { timeZone: string };

/** Thrown inside holdBooking's transaction to take the hold back when its email is refused. */
class MailRefused extends Error {}

/**
 * Holds the time for the link's lead and queues the confirmation email, in one transaction:
 * a hold never exists without its email. The link is kept good for booking at least until the
 * hold expires. Returns when the hold expires (ISO), or `refused` when the email could not be
 * queued (then nothing is stored).
 */
export async function holdBooking(db: Db, hold: NewHold, mail: HoldMail): Promise<{ expiresAt: string } | 'refused'> {
  try {
    return await transaction(db, async (t) => {
      const [row] = await queryRows(
        t,
        sql`
        with held as (
          insert into booking_holds (token_hash, confirm_hash, date, time, type, client_network, visitor_time_zone, host_id, expires_at)
          values (${hold.hash}, ${hold.confirmHash}, ${hold.date}::date, ${hold.time}::time, ${hold.type}, ${hold.network},
            ${hold.visitorTimeZone ?? null}::text, ${hold.hostId ?? null}::uuid, crm_now() + make_interval(mins => ${HOLD_MINUTES}))
          on conflict (token_hash) do update set confirm_hash = excluded.confirm_hash, date = excluded.date, time = excluded.time,
            type = excluded.type, client_network = excluded.client_network, visitor_time_zone = excluded.visitor_time_zone,
            host_id = excluded.host_id,
            created_at = crm_now(), expires_at = excluded.expires_at,
            confirmed_at = null, appointment_id = null
          returning expires_at, (date + time) at time zone ${mail.timeZone} as starts_at
        ), kept as (
          update booking_tokens k set expires_at = greatest(k.expires_at, held.expires_at) from held where k.token_hash = ${hold.hash}
        )
        select ${isoTimestamp(sql`expires_at`)} as expires_at, ${isoTimestamp(sql`starts_at`)} as starts_at from held`,
        z.object({ expires_at: z.string(), starts_at: z.string() }),
      );
      const queued = await queueBookingConfirmationEmail(t, {
        hash: hold.hash,
        link: hold.link,
        type: hold.type,
        startsAt: row!.starts_at,
        expiresAt: row!.expires_at,
        visitorTimeZone: hold.visitorTimeZone ?? null,
        mail,
      });
      if (queued === 'refused') throw new MailRefused();
      return { expiresAt: row!.expires_at };
    });
  } catch (error) {
    if (error instanceof MailRefused) return 'refused';
    throw error;
  }
}

export type BookingConfirmationEmail = {
  /** The booking link's hash: the email goes to its lead's address, with no display name. */
  hash: string;
  link: string;
  type: string;
  startsAt: string;
  expiresAt: string;
  visitorTimeZone?: string | null;
  mail: HoldMail;
};

/**
 * THE one place a booking's confirmation email is queued (mail a visitor caused, to an address
 * they typed). A per-recipient budget for such mail belongs here: answer `refused` when the
 * address may get no more, and holdBooking takes the hold back and the visitor is asked to
 * call. Called inside holdBooking's transaction.
 */
export async function queueBookingConfirmationEmail(db: Db, e: BookingConfirmationEmail): Promise<'queued' | 'refused'> {
  // Spends one unit of the address's visitor mail budget (visitorBudget), or is stored not sent
  // when the budget is spent: then the hold is taken back and the visitor asked to call.
  const rows = await queryRows(
    db,
    sql`
    insert into emails (message_id, status, last_error, kind, to_address, data, lead_id, visitor_budget)
    select ${newEmail(e.mail)}, 'booking-confirmation', l.email,
      jsonb_build_object('link', ${e.link}::text, 'type', ${e.type}::text, 'time_zone', ${e.mail.timeZone}::text,
        'starts_at', ${e.startsAt}::text, 'expires_at', ${e.expiresAt}::text, 'visitor_time_zone', ${e.visitorTimeZone ?? null}::text), l.id, ${visitorBudget(e.mail)}
    from booking_tokens t join leads l on l.id = t.lead_id
    where t.token_hash = ${e.hash}
    returning status`,
    z.object({ status: z.string() }),
  );
  return rows[0]?.status === 'queued' ? 'queued' : 'refused';
}

const holdRow = z.object({
  date: z.string(),
  time: z.string(),
  type: z.string(),
  /** Its start as epoch milliseconds. */
  start: z.number(),
  expires_at: z.string(),
  expired: z.boolean(),
  confirmed: z.boolean(),
  appointment_id: z.uuid().nullable(),
  /** The client network the hold was asked from (the booked call keeps it). */
  client_network: z.string().nullable(),
  /** The visitor's time zone when they asked (the booked call keeps it). */
  visitor_time_zone: z.string().nullable(),
  /** The person the visitor chose; null: anyone free. */
  host_id: z.uuid().nullable(),
});
export type HoldRow = z.infer<typeof holdRow>;

const holdColumns = (timeZone: string) => sql`to_char(h.date, 'YYYY-MM-DD') as date, to_char(h.time, 'HH24:MI') as time, h.type,
  (extract(epoch from ((h.date + h.time) at time zone ${timeZone})) * 1000)::float8 as start,
  ${isoTimestamp(sql`h.expires_at`)} as expires_at, h.expires_at <= crm_now() as expired,
  h.confirmed_at is not null as confirmed, h.appointment_id, h.client_network, h.visitor_time_zone, h.host_id`;

/** The link's hold whose confirmation code hashes to `confirmHash`; undefined for none. */
export async function readHold(db: Db, hash: string, confirmHash: string, timeZone: string): Promise<HoldRow | undefined> {
  const [row] = await queryRows(
    db,
    sql`select ${holdColumns(timeZone)} from booking_holds h where h.token_hash = ${hash} and h.confirm_hash = ${confirmHash}`,
    holdRow,
  );
  return row;
}

/** The link's hold still waiting for its confirmation (not confirmed, not expired); undefined for none. */
export async function readPendingHold(db: Db, hash: string, timeZone: string): Promise<HoldRow | undefined> {
  const [row] = await queryRows(
    db,
    sql`select ${holdColumns(timeZone)} from booking_holds h where h.token_hash = ${hash} and h.confirmed_at is null and h.expires_at > crm_now()`,
    holdRow,
  );
  return row;
}

/** Marks the hold confirmed with the appointment it became. */
export async function markHoldConfirmed(db: Db, hash: string, appointmentId: string): Promise<void> {
  await execute(db, sql`update booking_holds set confirmed_at = crm_now(), appointment_id = ${appointmentId} where token_hash = ${hash}`);
}

/** Holds a day past their expiry (confirmed or not): the maintenance job, hourly. */
export async function deleteOldBookingHolds(db: Db): Promise<number> {
  return execute(db, sql`delete from booking_holds where expires_at < crm_now() - make_interval(days => ${HOLD_KEPT_DAYS})`);
}

/**
 * Tells every active owner, once per clock hour whatever the processes, that website bookings
 * passed `threshold` this hour. The first call of the hour claims a rate_limits row (insert …
 * on conflict do nothing); only that call inserts the notifications. Returns how many it sent.
 */
export async function notifyBookingSpike(db: Db, message: string): Promise<number> {
  return execute(
    db,
    sql`
    with claimed as (
      insert into rate_limits (key, window_start, count, expires_at)
      select 'booking-spike-notified', w.start, 1, w.start + interval '1 hour' from (select ${windowStart(3600)} as start) w
      on conflict (key, window_start) do nothing
      returning 1
    )
    insert into notifications (user_id, type, message)
    select u.id, 'booking', ${message} from users u
    where exists (select 1 from claimed) and u.role = 'owner' and u.deactivated_at is null`,
  );
}
