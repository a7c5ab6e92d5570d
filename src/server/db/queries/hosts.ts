import { sql, type SQL } from 'drizzle-orm';
import * as z from 'zod';
import type { Db } from '../client.ts';
import { queryRows } from '../sql.ts';

/** A start as epoch ms, of appointment `a`, in the business time zone. */
const startMsOf = (timeZone: string) => sql`(extract(epoch from ((a.date + a.time) at time zone ${timeZone})) * 1000)::float8`;

/**
 * The people who take website calls (bookable, active), oldest account first, as JSON: their
 * stored hours, days off and holiday choice, their scheduled calls touching business dates
 * `from` to `to` (a day either side, for time zones and buffers), and for choosing among them
 * when each is free (`stats`): when a visitor last booked them, and their calls still to come.
 */
export function hostsJson(timeZone: string, from: SQL, to: SQL, stats: boolean): SQL {
  const today = sql`(now() at time zone ${timeZone})::date`;
  return sql`coalesce((select json_agg(json_build_object('id', u.id, 'hours', ua.hours, 'days_off', ua.days_off, 'holidays_off', ua.holidays_off,
      'busy', coalesce((select json_agg(json_build_object('start', ${startMsOf(timeZone)}, 'duration_minutes', a.duration_minutes))
        from appointments a where a.host_id = u.id and a.status = 'scheduled' and a.date between ${from} - 1 and ${to} + 1), '[]'::json)${
          stats
            ? sql`,
      'last_booked_at', (select max(a.created_at) from appointments a where a.host_id = u.id and a.source = 'booking'),
      'upcoming', (select count(*) from appointments a where a.host_id = u.id and a.status = 'scheduled' and a.date >= ${today})`
            : sql``
        }) order by u.created_at, u.id)
    from user_availability ua join users u on u.id = ua.user_id
    where ua.bookable and u.deactivated_at is null), '[]'::json)`;
}

export const storedHostSchema = z.object({
  id: z.uuid(),
  hours: z.unknown(),
  days_off: z.unknown(),
  holidays_off: z.boolean(),
  busy: z.array(z.object({ start: z.number(), duration_minutes: z.number().int() })),
  last_booked_at: z.string().nullable().optional(),
  upcoming: z.number().int().optional(),
});

/** A host as hostsJson wrote them, with each call as its start and end (ms). */
export type StoredHostRow = Omit<z.infer<typeof storedHostSchema>, 'busy'> & { busy: { start: number; end: number }[] };

/** hostsJson's rows as the slot arithmetic takes them (prepared statements hand rows over unparsed). */
export const toStoredHosts = (rows: z.infer<typeof storedHostSchema>[]): StoredHostRow[] =>
  rows.map((h) => ({ ...h, busy: h.busy.map((b) => ({ start: b.start, end: b.start + b.duration_minutes * 60_000 })) }));

/** The bookable people with their calls around business dates `from` to `to` (hostsJson). */
export async function readHosts(db: Db, timeZone: string, from: string, to: string): Promise<StoredHostRow[]> {
  const [row] = await queryRows(
    db,
    sql`select ${hostsJson(timeZone, sql`${from}::date`, sql`${to}::date`, false)} as hosts`,
    z.object({ hosts: z.array(storedHostSchema) }),
  );
  return toStoredHosts(row?.hosts ?? []);
}
