import { sql } from 'drizzle-orm';
import * as z from 'zod';
import { APPOINTMENT_STATUSES } from '#shared/constants';
import { bookingSettingsSchema, DEFAULT_BOOKING_SETTINGS, type BookingSettings } from '#shared/schemas/booking';
import type { Db } from '../client.ts';
import { execute, queryRows } from '../sql.ts';
import { PREPARED } from '../prepared-statements.ts';
import { hostsJson, storedHostSchema, toStoredHosts, type StoredHostRow } from './hosts-queries.ts';
import {
  bookedName,
  leadEmailed,
  queueAppointmentEmails,
  reminderDone,
  shortWhen,
  startsAt,
  type AppointmentMail,
} from './appointments-queries.ts';

/** The start of appointment `a` as epoch milliseconds (what the slot arithmetic works in). */
export const startMs = (timeZone: string) => sql`(extract(epoch from ${startsAt(sql.raw('a'), timeZone)}) * 1000)::float8`;

/** How long a new booking link may be used to book (then it serves the booked call until it starts). */
export const BOOKING_TOKEN_HOURS = 24;

/** The stored settings, with the defaults for anything missing (a row written by an older version). */
export async function getBookingSettings(db: Db): Promise<BookingSettings> {
  const [row] = await queryRows(db, sql`select settings from booking_settings where id = 1`, z.object({ settings: z.unknown() }));
  return parseSettings(row?.settings);
}

export function parseSettings(stored: unknown): BookingSettings {
  if (stored === null || typeof stored !== 'object') return DEFAULT_BOOKING_SETTINGS;
  // Every booking request reads the settings: the same stored text parses to the same
  // settings, so the last one is kept rather than checked with zod again at every request.
  const text = JSON.stringify(stored);
  if (lastParsed?.text === text) return lastParsed.settings;
  const parsed = bookingSettingsSchema.safeParse({ ...DEFAULT_BOOKING_SETTINGS, ...stored });
  const settings = parsed.success ? deepFreeze(parsed.data) : DEFAULT_BOOKING_SETTINGS;
  lastParsed = { text, settings };
  return settings;
}

/** The settings parsed last, and the stored JSON they came from: shared by requests, so frozen. */
let lastParsed: { text: string; settings: BookingSettings } | undefined;

function deepFreeze<T>(value: T): T {
  if (value && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const v of Object.values(value)) deepFreeze(v);
  }
  return value;
}

export async function saveBookingSettings(db: Db, settings: BookingSettings): Promise<void> {
  const days_off = [...settings.days_off].sort();
  await execute(
    db,
    sql`
    insert into booking_settings (id, settings, updated_at) values (1, ${JSON.stringify({ ...settings, days_off })}::jsonb, crm_now())
    on conflict (id) do update set settings = excluded.settings, updated_at = crm_now()`,
  );
}

/**
 * A booking link for an earlier submission (a retried form): the new answer holds a new link,
 * of that same form (the lead it made, or the repeat form's inquiry), so it shows what that
 * form sent.
 */
export async function issueBookingToken(db: Db, submissionId: string, hash: string): Promise<boolean> {
  const n = await execute(
    db,
    sql`
    insert into booking_tokens (token_hash, lead_id, inquiry_id, expires_at)
    select ${hash}, lead_id, inquiry_id, crm_now() + make_interval(hours => ${BOOKING_TOKEN_HOURS})
    from (select id as lead_id, null::uuid as inquiry_id from leads where submission_id = ${submissionId}::uuid
          union all select lead_id, id from lead_events where submission_id = ${submissionId}::uuid limit 1) submitted`,
  );
  return n > 0;
}

const bookingRow = z.object({
  lead_id: z.uuid(),
  /**
   * The name typed on the link's own form: the repeat form's (an inquiry) for a link made by
   * one, else the lead's. Never a known person's stored name on a link someone else's form
   * made (docs/product-rules.md, "Booking").
   */
  full_name: z.string(),
  expired: z.boolean(),
  /** The lead's owner (an account id), who takes the call when free. */
  owner_id: z.uuid().nullable(),
  appointment: z
    .object({
      id: z.uuid(),
      start: z.number(),
      duration_minutes: z.number().int(),
      type: z.string(),
      status: z.enum(APPOINTMENT_STATUSES),
      /** The SEQUENCE of the invitation the lead holds (the .ics download carries it too). */
      sequence: z.number().int(),
      /** Who takes it (null once their account is gone). */
      host_id: z.uuid().nullable(),
      /** The call's video link or place (a Zoom call's host link or Jitsi room). */
      location: z.string().nullable().optional(),
    })
    .nullable(),
});
export type BookingRow = z.infer<typeof bookingRow>;

const contextRow = z.object({
  settings: z.unknown(),
  booking: bookingRow.nullable(),
  hosts: z.array(storedHostSchema),
});

/**
 * Everything a booking request needs, in one round trip: the settings, the link's lead and
 * call (undefined for a link we never made), and the people who take website calls with their
 * calls around `date` (a business date; none without it).
 */
export async function readBookingContext(
  db: Db,
  hash: string,
  timeZone: string,
  date?: string,
): Promise<{ settings: BookingSettings; booking: BookingRow | undefined; hosts: StoredHostRow[] }> {
  // Prepared: the hot read of every booking request (its text never changes, only parameters).
  const [row] = await queryRows(
    db,
    sql`
    select (select settings from booking_settings where id = 1) as settings,
      (select json_build_object('lead_id', t.lead_id, 'full_name', coalesce(e.data->>'full_name', l.full_name), 'expired', t.expires_at <= crm_now(),
         'owner_id', l.owner_id,
         'appointment', case when a.id is null then null else json_build_object('id', a.id,
           'start', ${startMs(timeZone)}, 'duration_minutes', a.duration_minutes, 'type', a.type, 'status', a.status, 'sequence', a.sequence,
           'host_id', a.host_id, 'location', a.location) end)
       from booking_tokens t join leads l on l.id = t.lead_id left join appointments a on a.id = t.appointment_id
         left join lead_events e on e.id = t.inquiry_id
       where t.token_hash = ${hash}) as booking,
      case when ${date ?? null}::date is null then '[]'::json
        else ${hostsJson(timeZone, sql`${date ?? null}::date`, sql`${date ?? null}::date`, true)} end as hosts`,
    contextRow,
    { prepared: PREPARED.bookingContext },
  );
  return {
    settings: parseSettings(row?.settings),
    booking: row?.booking ?? undefined,
    hosts: toStoredHosts(row?.hosts ?? []),
  };
}

/** The link's lead and booked call; undefined for a link we never made (or whose lead is gone). */
export async function readBooking(db: Db, hash: string, timeZone: string): Promise<BookingRow | undefined> {
  return (await readBookingContext(db, hash, timeZone)).booking;
}

export type NewBooking = {
  hash: string;
  token: string;
  date: string;
  time: string;
  type: string;
  durationMinutes: number;
  bufferMinutes: number;
  /** The team member who takes it (free at that time when chosen). */
  hostId: string;
  /** The client's network (networkKey), kept on the appointment for staff's bulk cancel. */
  network?: string | null;
  /** The visitor's IANA time zone (checked), kept for the mails about the call. */
  visitorTimeZone?: string | null;
  /** A video room made for this call (jitsiRoom), used when the host has no meeting link of their own. */
  videoRoom?: string | null;
};

/** The website's saved words (website_settings) as a statement read them; null when none are saved. */
export type StoredWebsiteRow = { content: unknown; updated_at: string } | null;

/**
 * A booking made: the appointment, whether the visitor's invitation email was queued (not with
 * email off or their mail budget spent), and the website's words as read with it (the answer's
 * calendar links name the firm as the website does).
 */
export type Booked = { id: string; emailed: boolean; host_id: string; location: string | null; website: StoredWebsiteRow };

/**
 * Not booked: a call of that person overlapping the time was there before the statement began,
 * so the no-overlap constraint would have refused it. `day`: the people who take calls with
 * their calls of that date, as the same statement read them (readHosts).
 */
export type Overlapped = { overlapped: true; day: StoredHostRow[] };

/** The private link's path, for the lead's copy of an appointment email. */
export const managePathExtra = (token: string) => sql`jsonb_build_object('manage_path', ${`/booking/${token}`}::text)`;

/** The advisory-lock key space of bookings (the second key is the hash of the start's date and time). */
const BOOKING_LOCK_SPACE = 4_201_311;

const bookedRow = z.object({
  got: z.boolean(),
  id: z.uuid().nullable(),
  location: z.string().nullable(),
  emailed: z.boolean(),
  overlapped: z.boolean(),
  day: z.array(storedHostSchema).nullable(),
  website: z.object({ content: z.unknown(), updated_at: z.string() }).nullable(),
});

/**
 * Books the call for the link's lead with `hostId`, in one statement. Someone else booking the
 * same person at the same start at this moment holds its advisory lock: then this one does
 * nothing and reports `taken` at once (the caller tries the next free person), rather than wait for the other's commit (and, on PostgreSQL, risk the two inserts
 * waiting on each other's constraint check, a deadlock). Otherwise the link is locked (two
 * clicks book once), must be unexpired and hold no scheduled call; a call of that person
 * overlapping the time already there makes it `overlapped` (with that day's calls, read
 * again), without trying the insert; else the appointment goes in
 * with the buffer, and the no-overlap constraint refuses it (23P01) if an overlapping time was
 * booked meanwhile, in any process. Every admin gets a `booking` notification; the lead and
 * opted-in admins the invitation, the lead's with the private link.
 * Returns the appointment made; `taken`; `overlapped`; or undefined when the link cannot book now.
 */
export async function bookSlot(db: Db, b: NewBooking, mail: AppointmentMail): Promise<Booked | Overlapped | 'taken' | undefined> {
  const at = sql`(${b.date}::date + ${b.time}::time)`;
  // Prepared: planning this many CTEs costs more than running them (its text is fixed per process).
  const [row] = await queryRows(
    db,
    sql`
    with slot_lock as (select pg_try_advisory_xact_lock(${BOOKING_LOCK_SPACE}::int, hashtext(${`${b.hostId} ${b.date} ${b.time}`}::text)) as got),
    t as (select * from booking_tokens where token_hash = ${b.hash} and expires_at > crm_now() and (select got from slot_lock) for update),
    usable as (
      select t.* from t
      where t.appointment_id is null or exists (select 1 from appointments x where x.id = t.appointment_id and x.status = 'cancelled')
    ), clash as (
      -- A call of this person over the time (as the no-overlap constraint compares them), there
      -- before this statement began: the insert would be refused, so it is not tried. (Not
      -- looked for without the lock: nothing is booked then anyway.)
      select (select got from slot_lock) and exists (select 1 from appointments x where x.host_id = ${b.hostId}::uuid and x.status = 'scheduled' and not x.overlap_allowed
        and x.blocks && tsrange(${at}, ${at} + make_interval(mins => ${b.durationMinutes}::int + ${b.bufferMinutes}::int))) as found
    ), created as (
      -- changed_by null: the lead booked it (the timeline says so).
      -- inquiry_id: a repeat form's link books for that inquiry (its typed name), not as the lead.
      -- A Zoom call takes its host's meeting link, else the Jitsi room made for it (when the firm makes them).
      insert into appointments (lead_id, inquiry_id, date, time, type, duration_minutes, buffer_minutes, source, lead_reminder_sent_at, changed_by, booked_network, visitor_time_zone, host_id, location)
      select usable.lead_id, usable.inquiry_id, i.date, i.time, ${b.type}, ${b.durationMinutes}::int, ${b.bufferMinutes}::int, 'booking', ${reminderDone(sql.raw('i'), mail)}, null,
        ${b.network || null}::text, ${b.visitorTimeZone ?? null}::text, ${b.hostId}::uuid,
        case when ${b.type} = 'Zoom' then coalesce((select ua.meeting_link from user_availability ua where ua.user_id = ${b.hostId}::uuid), ${b.videoRoom ?? null}::text) end
      from usable, (select ${b.date}::date as date, ${b.time}::time as time) i
      where not (select found from clash)
      returning *
    ), owned as (
      -- A lead with no owner gets the person who takes its call (the timeline says so).
      -- By id (a scalar from created), not a join: joined, the planner walks every unowned
      -- lead through the owner index, a cost that grows with the leads nobody has taken yet.
      update leads l set owner_id = (select host_id from created), updated_at = crm_now()
      where l.id = (select lead_id from created) and l.owner_id is null
      returning l.id, l.owner_id as host_id
    ), owner_event as (
      insert into lead_events (lead_id, kind, actor_id, data)
      select o.id, 'owner', null, jsonb_build_object('from', null, 'to', (select display_name from users where id = o.host_id))
      from owned o
    ), linked as (
      update booking_tokens k set appointment_id = created.id,
        expires_at = greatest(k.expires_at, ${startsAt(sql.raw('created'), mail.timeZone)} + make_interval(mins => created.duration_minutes))
      from created where k.token_hash = ${b.hash}
    ), noticed as (
      insert into notifications (user_id, type, message, lead_id)
      select u.id, 'booking', 'New booking: ' || ${bookedName(sql.raw('created'), sql.raw('l'))} || ', ' || ${shortWhen('created')}, l.id
      from created join leads l on l.id = created.lead_id cross join users u
    )${queueAppointmentEmails('created', mail, { change: 'scheduled', leadExtra: managePathExtra(b.token), byVisitor: true })},
    overlapped as (select exists (select 1 from usable) and (select found from clash) as yes)
    select (select got from slot_lock) as got, (select id from created) as id, (select location from created) as location, ${leadEmailed} as emailed,
      (select yes from overlapped) as overlapped,
      -- Refused for an overlap: that day's calls, for the answer's open times (readHosts).
      case when (select yes from overlapped) then ${hostsJson(mail.timeZone, sql`${b.date}::date`, sql`${b.date}::date`, false)} end as day,
      -- Booked: the website's words for the answer's calendar links (getWebsiteContent).
      case when exists (select 1 from created)
        then (select json_build_object('content', w.content, 'updated_at', w.updated_at::text) from website_settings w where w.id = 1) end as website`,
    bookedRow,
    { prepared: PREPARED.bookSlot },
  );
  if (!row?.got) return 'taken';
  if (row.overlapped) return { overlapped: true, day: toStoredHosts(row.day ?? []) };
  return row.id ? { id: row.id, emailed: row.emailed, host_id: b.hostId, location: row.location, website: row.website } : undefined;
}

/** The notification of a change the lead made through the link. */
export const bookingNotice = (change: 'moved' | 'cancelled') => (cte: string) =>
  change === 'moved'
    ? sql`'Booking moved: ' || ${bookedName(sql.raw(cte), sql.raw('l'))} || ', ' || ${shortWhen(cte)}`
    : sql`'Booking cancelled: ' || ${bookedName(sql.raw(cte), sql.raw('l'))} || ', ' || ${shortWhen(cte)}`;

/** Links good for nothing any more: a day past their end, and holding no call still to come. */
export async function deleteExpiredBookingTokens(db: Db): Promise<number> {
  return execute(
    db,
    sql`
    delete from booking_tokens t where t.expires_at < crm_now() - interval '1 day'
      and not exists (select 1 from appointments a where a.id = t.appointment_id and a.status = 'scheduled' and a.date >= crm_now()::date - 1)`,
  );
}
