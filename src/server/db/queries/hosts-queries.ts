import { sql, type SQL } from 'drizzle-orm';
import * as z from 'zod';
import type { Db } from '../client.ts';
import { queryRows } from '../sql.ts';

/** A start as epoch ms, of appointment `a`, in the business time zone. */
const startMsOf = (timeZone: string) => sql`(extract(epoch from ((a.date + a.time) at time zone ${timeZone})) * 1000)::float8`;

/** Settings → Booking's "Who takes website calls": everyone who takes calls, or those chosen. */
const websiteHost = sql`(coalesce((select s.settings->>'website_hosts' from booking_settings s where s.id = 1), 'everyone') <> 'chosen'
  or (select s.settings->'website_host_ids' from booking_settings s where s.id = 1) @> jsonb_build_array(u.id::text))`;
/** Who takes website calls: bookable, active (`ua` their user_availability row, `u` their account). */
const TAKES_CALLS = sql`ua.bookable and u.deactivated_at is null`;

/**
 * The people who take website calls (bookable, active), oldest account first, as JSON: their
 * stored hours, days off and holiday choice, their scheduled calls touching business dates
 * `from` to `to` (a day either side, for time zones and buffers), and for choosing among them
 * when each is free (`stats`): when a visitor last booked them, and their calls still to come.
 * With one person taking calls there is no choosing: the stats are then left out (null and 0),
 * not counted through all their calls at every booking.
 */
export function hostsJson(timeZone: string, from: SQL, to: SQL, stats: boolean): SQL {
  const today = sql`(crm_now() at time zone ${timeZone})::date`;
  const several = sql`(select count(*) from user_availability ua join users u on u.id = ua.user_id where ${TAKES_CALLS} and ${websiteHost}) > 1`;
  return sql`coalesce((select json_agg(json_build_object('id', u.id, 'hours', ua.hours, 'days_off', ua.days_off, 'holidays_off', ua.holidays_off,
      'busy', coalesce((select json_agg(json_build_object('start', ${startMsOf(timeZone)}, 'duration_minutes', a.duration_minutes))
        from appointments a where a.host_id = u.id and a.status = 'scheduled' and a.date between ${from} - 1 and ${to} + 1), '[]'::json),
      'outside', coalesce((select json_agg(json_build_array((extract(epoch from b.starts_at) * 1000)::float8, (extract(epoch from b.ends_at) * 1000)::float8))
        from calendar_busy b where b.user_id = u.id and b.ends_at > (${from} - 2)::timestamp at time zone ${timeZone}
          and b.starts_at < (${to} + 3)::timestamp at time zone ${timeZone}), '[]'::json)${
            stats
              ? sql`,
      'last_booked_at', case when ${several} then (select max(a.created_at) from appointments a where a.host_id = u.id and a.source = 'booking') end,
      'upcoming', case when ${several} then (select count(*) from appointments a where a.host_id = u.id and a.status = 'scheduled' and a.date >= ${today}) else 0 end,
      'sync_due', exists (select 1 from calendar_connections c where c.user_id = u.id
        and (c.last_synced_at is null or c.last_synced_at <= crm_now() - interval '1 minute'))`
              : sql``
          }) order by u.created_at, u.id)
    from user_availability ua join users u on u.id = ua.user_id
    where ${TAKES_CALLS} and ${websiteHost}), '[]'::json)`;
}

export const storedHostSchema = z.object({
  id: z.uuid(),
  hours: z.unknown(),
  days_off: z.unknown(),
  holidays_off: z.boolean(),
  busy: z.array(z.object({ start: z.number(), duration_minutes: z.number().int() })),
  /** Busy times read from their outside calendars, [start, end] in ms. */
  outside: z.array(z.tuple([z.number(), z.number()])),
  last_booked_at: z.string().nullable().optional(),
  upcoming: z.number().int().optional(),
  /** An outside calendar of theirs was last read over a minute ago (read again before a booking is confirmed). */
  sync_due: z.boolean().optional(),
});

/** A host as hostsJson wrote them, with each call and outside busy time as its start and end (ms). */
export type StoredHostRow = Omit<z.infer<typeof storedHostSchema>, 'busy' | 'outside'> & {
  busy: { start: number; end: number }[];
  outside: { start: number; end: number }[];
};

/** hostsJson's rows as the slot arithmetic takes them (prepared statements hand rows over unparsed). */
export const toStoredHosts = (rows: z.infer<typeof storedHostSchema>[]): StoredHostRow[] =>
  rows.map((h) => ({
    ...h,
    busy: h.busy.map((b) => ({ start: b.start, end: b.start + b.duration_minutes * 60_000 })),
    outside: h.outside.map(([start, end]) => ({ start, end })),
  }));

const hostsRow = z.object({ hosts: z.array(storedHostSchema) });

/** The bookable people with their calls around business dates `from` to `to` (hostsJson). */
export async function readHosts(db: Db, timeZone: string, from: string, to: string): Promise<StoredHostRow[]> {
  const [row] = await queryRows(db, sql`select ${hostsJson(timeZone, sql`${from}::date`, sql`${to}::date`, false)} as hosts`, hostsRow);
  return toStoredHosts(row?.hosts ?? []);
}

/** The names of the people who take website calls, oldest account first (what a visitor may choose from). */
export async function readWebsiteHostNames(db: Db): Promise<{ id: string; name: string }[]> {
  return queryRows(
    db,
    sql`select u.id, u.display_name as name from user_availability ua join users u on u.id = ua.user_id
      where ua.bookable and u.deactivated_at is null and ${websiteHost} order by u.created_at, u.id`,
    z.object({ id: z.uuid(), name: z.string() }),
  );
}
