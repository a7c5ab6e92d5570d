import { sql, type SQL } from 'drizzle-orm';
import * as z from 'zod';
import { calendarConnectionSchema, type CalendarConnection } from '#shared/schemas/calendars';
import type { Busy } from '../../lib/busy-times.ts';
import type { Db } from '../client.ts';
import { execute, isoTimestamp, pgArray, queryRows, transaction } from '../sql.ts';

/**
 * Outside calendars and the busy times last read from them. Every read and write of a
 * person's connections takes their user id, so nobody reaches another's. A sync claims its
 * connection first (claimed_until), so two processes never read one calendar at once, and
 * marks the attempt (last_attempt_at) as it claims, so the periodic sync runs once per
 * interval whichever process gets there, and a process killed mid-sync gives the calendar
 * back when its claim lapses.
 */

/** How long a claim holds: longer than a sync may take (fetch and reading are capped well under it). */
const CLAIM = sql`interval '2 minutes'`;

/** A connection's row as the API answers it, less `stale` (derived from the error). */
const connectionRow = calendarConnectionSchema.omit({ stale: true });

const publicColumns = sql`c.id, c.kind, c.label, ${isoTimestamp(sql`c.created_at`)} as created_at,
  case when c.last_synced_at is null then null else ${isoTimestamp(sql`c.last_synced_at`)} end as last_synced_at,
  case when c.last_attempt_at is null then null else ${isoTimestamp(sql`c.last_attempt_at`)} end as last_attempt_at,
  c.last_error, c.warnings,
  (select count(*)::int from calendar_busy b where b.connection_id = c.id and b.ends_at > crm_now()) as busy_count,
  c.calendars, c.busy_calendars, c.write_calendar,
  (select count(*)::int from calendar_writes w where w.connection_id = c.id and w.version <> w.written_version and w.attempts > 0) as unwritten,
  (select w.last_error from calendar_writes w where w.connection_id = c.id and w.version <> w.written_version and w.last_error is not null
   order by w.next_attempt_at desc limit 1) as write_error`;

const toConnection = (row: z.infer<typeof connectionRow>): CalendarConnection => ({ ...row, stale: row.last_error !== null });

/** `userId`'s connections, oldest first. */
export async function listConnections(db: Db, userId: string): Promise<CalendarConnection[]> {
  const rows = await queryRows(
    db,
    sql`select ${publicColumns} from calendar_connections c where c.user_id = ${userId} order by c.created_at, c.id`,
    connectionRow,
  );
  return rows.map(toConnection);
}

export async function getConnection(db: Db, userId: string, id: string): Promise<CalendarConnection | undefined> {
  const [row] = await queryRows(
    db,
    sql`select ${publicColumns} from calendar_connections c where c.id = ${id} and c.user_id = ${userId}`,
    connectionRow,
  );
  return row && toConnection(row);
}

/** A CalDAV account's calendar as kept: where it is, its name, whether we may write to it. */
export type StoredCalendar = { url: string; name: string; can_write: boolean };

export type NewConnection = {
  id: string;
  userId: string;
  kind: 'ics' | 'caldav';
  label: string;
  secret: string;
  /** CalDAV: the account's calendars; all count as busy at first. */
  calendars?: StoredCalendar[];
};

/** Adds a connection unless the person already has `max`; false then. */
export async function insertConnection(db: Db, c: NewConnection, max: number): Promise<boolean> {
  return transaction(db, async (tx) => {
    // The person's row, locked: two connects at once count each other.
    await execute(tx, sql`select 1 from users where id = ${c.userId} for update`);
    const [{ n } = { n: 0 }] = await queryRows(
      tx,
      sql`select count(*)::int as n from calendar_connections where user_id = ${c.userId}`,
      z.object({ n: z.number().int() }),
    );
    if (n >= max) return false;
    await execute(
      tx,
      sql`insert into calendar_connections (id, user_id, kind, label, secret, calendars, busy_calendars, claimed_until, last_attempt_at)
        values (${c.id}, ${c.userId}, ${c.kind}, ${c.label}, ${c.secret}, ${JSON.stringify(c.calendars ?? [])}::jsonb,
          ${JSON.stringify((c.calendars ?? []).map((cal) => cal.url))}::jsonb, crm_now() + ${CLAIM}, crm_now())`,
    );
    return true;
  });
}

/** Removes a connection and its busy times; false when it is not `userId`'s. */
export async function deleteConnection(db: Db, userId: string, id: string): Promise<boolean> {
  return (await execute(db, sql`delete from calendar_connections where id = ${id} and user_id = ${userId}`)) > 0;
}

/** A connection claimed for a sync: what reaching it takes (still sealed). */
export type ClaimedConnection = {
  id: string;
  user_id: string;
  kind: 'ics' | 'caldav';
  label: string;
  secret: string;
  busy_digest: string | null;
  /** CalDAV: the calendars read for busy times. */
  busy_calendars: string[];
};
const claimedRow = z.object({
  id: z.uuid(),
  user_id: z.uuid(),
  kind: z.enum(['ics', 'caldav']),
  label: z.string(),
  secret: z.string(),
  busy_digest: z.string().nullable(),
  busy_calendars: z.array(z.string()),
});

/**
 * Claims the connections `which` (a condition on calendar_connections) selects, skipping any
 * another process holds; each claim marks the attempt. `tail`: ordering and a limit.
 */
function claim(db: Db, which: SQL, tail: SQL = sql``): Promise<ClaimedConnection[]> {
  return queryRows(
    db,
    sql`
    update calendar_connections c set claimed_until = crm_now() + ${CLAIM}, last_attempt_at = crm_now()
    where c.id in (
      select id from calendar_connections
      where (${which}) and (claimed_until is null or claimed_until < crm_now())
      ${tail}
      for update skip locked)
    returning c.id, c.user_id, c.kind, c.label, c.secret, c.busy_digest, c.busy_calendars`,
    claimedRow,
  );
}

/**
 * Claims up to `limit` connections whose last attempt is at least `everySeconds` old (or that
 * were never tried), skipping those another process holds.
 */
export function claimDueConnections(db: Db, everySeconds: number, limit: number): Promise<ClaimedConnection[]> {
  return claim(
    db,
    sql`last_attempt_at is null or last_attempt_at <= crm_now() - make_interval(secs => ${everySeconds})`,
    sql`order by last_attempt_at nulls first limit ${limit}`,
  );
}

/**
 * Claims `userId`'s connection `id` for a sync now, whatever its last attempt; `busy` when
 * another process is syncing it, undefined when there is no such connection of theirs.
 */
export async function claimConnection(db: Db, userId: string, id: string): Promise<ClaimedConnection | 'busy' | undefined> {
  const [row] = await claim(db, sql`id = ${id} and user_id = ${userId}`);
  if (row) return row;
  const exists = await queryRows(
    db,
    sql`select 1 as one from calendar_connections where id = ${id} and user_id = ${userId}`,
    z.object({ one: z.number() }),
  );
  return exists.length > 0 ? 'busy' : undefined;
}

/**
 * Claims the connections of `userIds` last read successfully more than `olderThanSeconds` ago
 * (or never) and not being synced: those to read before a booking is confirmed.
 */
export async function claimStaleConnectionsOf(db: Db, userIds: readonly string[], olderThanSeconds: number): Promise<ClaimedConnection[]> {
  if (userIds.length === 0) return [];
  return claim(
    db,
    sql`user_id = any(${pgArray(userIds)}::uuid[])
      and (last_synced_at is null or last_synced_at <= crm_now() - make_interval(secs => ${olderThanSeconds}))`,
  );
}

/**
 * A successful read: the busy times replace the old ones when they changed (`digest` differs,
 * so an unchanged calendar does not move the availability version), the error clears, the
 * claim ends.
 */
export async function storeSyncSuccess(
  db: Db,
  c: Pick<ClaimedConnection, 'id' | 'user_id' | 'busy_digest'>,
  read: { busy: readonly Busy[]; digest: string; warnings: readonly string[] },
): Promise<void> {
  await transaction(db, async (tx) => {
    if (read.digest !== c.busy_digest) {
      await execute(tx, sql`delete from calendar_busy where connection_id = ${c.id}`);
      if (read.busy.length > 0)
        await execute(
          tx,
          sql`
          insert into calendar_busy (connection_id, user_id, starts_at, ends_at)
          select ${c.id}, ${c.user_id}, to_timestamp(s / 1000.0), to_timestamp(e / 1000.0)
          from unnest(${pgArray(read.busy.map((b) => b.start))}::float8[], ${pgArray(read.busy.map((b) => b.end))}::float8[]) as t(s, e)`,
        );
    }
    await execute(
      tx,
      sql`
      update calendar_connections set last_synced_at = crm_now(), last_error = null, failure_notified_at = null,
        warnings = ${JSON.stringify(read.warnings)}::jsonb, busy_digest = ${read.digest}, claimed_until = null
      where id = ${c.id}`,
    );
  });
}

/**
 * A failed read: the error in words is kept (the busy times last read stay in force), the
 * claim ends, and the first failure in a row tells the person (a notification); true then.
 */
export async function storeSyncFailure(db: Db, c: Pick<ClaimedConnection, 'id' | 'label'>, error: string): Promise<boolean> {
  const rows = await queryRows(
    db,
    sql`
    with failed as (
      update calendar_connections set last_error = ${error}, claimed_until = null,
        failure_notified_at = coalesce(failure_notified_at, crm_now())
      where id = ${c.id}
      returning user_id, (failure_notified_at = crm_now()) as first)
    insert into notifications (user_id, type, message)
    select user_id, 'calendar', ${`Your calendar ${c.label} could not be synced: ${error} Its last known busy times still count.`}
    from failed where first
    returning 1 as one`,
    z.object({ one: z.number() }),
  );
  return rows.length > 0;
}

/** Ends a claim without a result (the sync was abandoned, e.g. the server is stopping). */
export async function releaseClaim(db: Db, id: string): Promise<void> {
  await execute(db, sql`update calendar_connections set claimed_until = null where id = ${id}`);
}

/** `userId`'s outside busy times overlapping [from, to) (instants), merged across their calendars by the caller. */
export async function readOutsideBusy(db: Db, userId: string, from: number, to: number): Promise<Busy[]> {
  return queryRows(
    db,
    sql`
    select (extract(epoch from starts_at) * 1000)::float8 as start, (extract(epoch from ends_at) * 1000)::float8 as end
    from calendar_busy
    where user_id = ${userId} and ends_at > to_timestamp(${from / 1000}) and starts_at < to_timestamp(${to / 1000})
    order by starts_at`,
    z.object({ start: z.number(), end: z.number() }),
  );
}

/** What writing to a connection takes: its owner, its sealed secret and its write calendar. */
export type WriteTarget = {
  id: string;
  user_id: string;
  kind: 'ics' | 'caldav';
  label: string;
  secret: string;
  write_calendar: string | null;
};

export async function getWriteTarget(db: Db, id: string): Promise<WriteTarget | undefined> {
  const [row] = await queryRows(
    db,
    sql`select id, user_id, kind, label, secret, write_calendar from calendar_connections where id = ${id}`,
    z.object({
      id: z.uuid(),
      user_id: z.uuid(),
      kind: z.enum(['ics', 'caldav']),
      label: z.string(),
      secret: z.string(),
      write_calendar: z.string().nullable(),
    }),
  );
  return row;
}

/** A CalDAV connection's calendars as kept, with its choice; undefined when it is not `userId`'s CalDAV connection. */
export async function getCalendarChoice(
  db: Db,
  userId: string,
  id: string,
): Promise<{ calendars: StoredCalendar[]; busy_calendars: string[]; write_calendar: string | null } | undefined> {
  const [row] = await queryRows(
    db,
    sql`select calendars, busy_calendars, write_calendar from calendar_connections where id = ${id} and user_id = ${userId} and kind = 'caldav'`,
    z.object({
      calendars: z.array(z.object({ url: z.string(), name: z.string(), can_write: z.boolean() })),
      busy_calendars: z.array(z.string()),
      write_calendar: z.string().nullable(),
    }),
  );
  return row;
}

/**
 * Saves a CalDAV connection's choice. New busy calendars make its next sync due at once (its
 * busy times are read again); false when the connection is gone.
 */
export async function saveCalendarChoice(
  db: Db,
  userId: string,
  id: string,
  choice: { busy_calendars: string[]; write_calendar: string | null },
): Promise<boolean> {
  return (
    (await execute(
      db,
      sql`update calendar_connections set busy_calendars = ${JSON.stringify(choice.busy_calendars)}::jsonb,
        write_calendar = ${choice.write_calendar},
        busy_digest = case when busy_calendars = ${JSON.stringify(choice.busy_calendars)}::jsonb then busy_digest end,
        last_attempt_at = case when busy_calendars = ${JSON.stringify(choice.busy_calendars)}::jsonb then last_attempt_at end
      where id = ${id} and user_id = ${userId} and kind = 'caldav'`,
    )) > 0
  );
}
