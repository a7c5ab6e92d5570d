import { sql } from 'drizzle-orm';
import * as z from 'zod';
import type { Db } from '../client.ts';
import { execute, pgArray, queryRows } from '../sql.ts';

/**
 * The queue of booked calls to copy into their hosts' CalDAV calendars (calendar_writes; the
 * appointments' triggers fill it in the transaction of each change). A writer claims due rows
 * (a lease, `for update skip locked`, so two processes never write one copy at once), writes
 * the appointment as it is then, and records the version it wrote. The same copy is always
 * the same resource, so a copy written again after a crash replaces itself.
 */

const LEASE = sql`interval '2 minutes'`;

export type ClaimedWrite = {
  appointment_id: string;
  connection_id: string;
  uid: string | null;
  event_url: string | null;
  /** The lead was erased: the copy goes. */
  removed: boolean;
  version: number;
  attempts: number;
};
const claimedWrite = z.object({
  appointment_id: z.uuid(),
  connection_id: z.uuid(),
  uid: z.string().nullable(),
  event_url: z.string().nullable(),
  removed: z.boolean(),
  version: z.number().int(),
  attempts: z.number().int(),
});

/**
 * Up to `limit` copies due a write (their wanted version not written, their retry time come),
 * claimed; or, with `appointmentIds`, those appointments' copies whatever their retry time.
 */
export function claimDueWrites(db: Db, limit: number, appointmentIds?: readonly string[]): Promise<ClaimedWrite[]> {
  const which = appointmentIds ? sql`appointment_id = any(${pgArray(appointmentIds)}::uuid[])` : sql`next_attempt_at <= crm_now()`;
  return queryRows(
    db,
    sql`
    update calendar_writes w set claimed_until = crm_now() + ${LEASE}
    where (w.appointment_id, w.connection_id) in (
      select appointment_id, connection_id from calendar_writes
      where version <> written_version and ${which} and (claimed_until is null or claimed_until < crm_now())
      order by next_attempt_at
      limit ${limit}
      for update skip locked)
    returning w.appointment_id, w.connection_id, w.uid, w.event_url, w.removed, w.version, w.attempts`,
    claimedWrite,
  );
}

/** In an erasure's transaction: the copies of these appointments are to go, whatever happens to the appointments. */
export async function removeCopiesOf(db: Db, appointmentIds: readonly string[]): Promise<void> {
  if (appointmentIds.length === 0) return;
  await execute(
    db,
    sql`update calendar_writes set removed = true, version = version + 1, attempts = 0, next_attempt_at = crm_now()
    where appointment_id = any(${pgArray(appointmentIds)}::uuid[])`,
  );
}

const key = (w: Pick<ClaimedWrite, 'appointment_id' | 'connection_id'>) =>
  sql`appointment_id = ${w.appointment_id} and connection_id = ${w.connection_id}`;

/**
 * The copy now holds `version` at `eventUrl` (null: there is none). A copy that is nowhere and
 * wanted nowhere, with no newer change queued meanwhile, leaves the queue (unless its lead was
 * erased: that row stays, so no later change of the appointment writes it again).
 */
export async function finishWrite(db: Db, w: ClaimedWrite, uid: string, eventUrl: string | null): Promise<void> {
  await execute(
    db,
    sql`update calendar_writes set written_version = ${w.version}, uid = ${uid}, event_url = ${eventUrl},
      attempts = 0, last_error = null, claimed_until = null
    where ${key(w)}`,
  );
  // An erased lead's row stays (removed): a later change of the appointment must not write it again.
  if (eventUrl === null)
    await execute(db, sql`delete from calendar_writes where ${key(w)} and event_url is null and version = written_version and not removed`);
}

/** The uid a copy is about to be written under (so the busy read skips it from the first write on). */
export async function keepUid(db: Db, w: ClaimedWrite, uid: string): Promise<void> {
  await execute(db, sql`update calendar_writes set uid = ${uid} where ${key(w)} and uid is null`);
}

/** A failed write: tried again after a minute, doubling to an hour; `error` in words for the person. */
export async function failWrite(db: Db, w: ClaimedWrite, error: string): Promise<void> {
  await execute(
    db,
    sql`update calendar_writes set attempts = attempts + 1, last_error = ${error}, claimed_until = null,
      next_attempt_at = crm_now() + make_interval(secs => least(60 * power(2, attempts), 3600))
    where ${key(w)}`,
  );
}

/** Lets a claimed write go without a result (the process is stopping): due again at once. */
export async function releaseWrite(db: Db, w: ClaimedWrite): Promise<void> {
  await execute(db, sql`update calendar_writes set claimed_until = null where ${key(w)}`);
}

/** The UIDs of the copies written into `connectionId`'s calendars: its busy read skips them (they are our own calls). */
export async function writtenUids(db: Db, connectionId: string): Promise<string[]> {
  const rows = await queryRows(
    db,
    sql`select uid from calendar_writes where connection_id = ${connectionId} and uid is not null`,
    z.object({ uid: z.string() }),
  );
  return rows.map((r) => r.uid);
}

/**
 * After a connection's write calendar changed: every copy already queued or written is
 * wanted again (moved to the new calendar, or removed when there is none), and the host's
 * scheduled calls from `fromDate` (a business date) on are queued.
 */
export async function requeueConnection(db: Db, connectionId: string, fromDate: string): Promise<void> {
  await execute(
    db,
    sql`update calendar_writes set version = version + 1, attempts = 0, next_attempt_at = crm_now() where connection_id = ${connectionId}`,
  );
  await execute(
    db,
    sql`
    insert into calendar_writes (appointment_id, connection_id)
    select a.id, c.id from calendar_connections c
    join appointments a on a.host_id = c.user_id and a.status = 'scheduled' and a.date >= ${fromDate}::date
    where c.id = ${connectionId} and c.kind = 'caldav' and c.write_calendar is not null
    on conflict do nothing`,
  );
}
