import * as z from 'zod';

/** The longest calendar link kept (Google's secret addresses are about 150 characters). */
export const CALENDAR_URL_MAX = 2000;
/** Outside calendars one person may connect. */
export const CALENDARS_PER_PERSON = 10;

const CALENDAR_SCHEMES = ['https:', 'http:', 'webcal:'];

/** Whether `value` is a link the calendar reader can follow (https, http or webcal, with a host). */
export function isCalendarLink(value: string): boolean {
  try {
    const url = new URL(value);
    return CALENDAR_SCHEMES.includes(url.protocol) && url.hostname !== '' && url.username === '' && url.password === '';
  } catch {
    return false;
  }
}

/** A CalDAV server's address: https or http with a host, no credentials in it (they have fields of their own). */
export function isCalDavAddress(value: string): boolean {
  return isCalendarLink(value) && !value.trim().toLowerCase().startsWith('webcal:');
}

/** The longest username or app password kept. */
export const CALDAV_FIELD_MAX = 500;

/**
 * Connecting a calendar. `ics`: a calendar's iCal link (Google's "secret address in iCal
 * format", Outlook's published ICS link, iCloud's public calendar), read for busy times only.
 * `caldav`: an account on a CalDAV server (iCloud, Fastmail, Nextcloud, Zoho…) with an app
 * password; its calendars are listed, all count as busy until chosen otherwise, and none
 * receives booked calls until one is chosen.
 */
export const calendarConnectionCreateSchema = z
  .discriminatedUnion(
    'kind',
    [
      z.object({
        kind: z.literal('ics'),
        url: z
          .string({ error: 'Paste the calendar’s iCal link' })
          .trim()
          .min(1, 'Paste the calendar’s iCal link')
          .max(CALENDAR_URL_MAX, `A calendar link is at most ${CALENDAR_URL_MAX} characters`)
          .refine(isCalendarLink, 'Paste a link that starts with https://, http:// or webcal://'),
      }),
      z.object({
        kind: z.literal('caldav'),
        url: z
          .string({ error: 'Enter the CalDAV server’s address' })
          .trim()
          .min(1, 'Enter the CalDAV server’s address')
          .max(CALENDAR_URL_MAX, `A server address is at most ${CALENDAR_URL_MAX} characters`)
          .refine(isCalDavAddress, 'Enter an address that starts with https:// or http://'),
        username: z
          .string({ error: 'Enter the username' })
          .trim()
          .min(1, 'Enter the username')
          .max(CALDAV_FIELD_MAX, `At most ${CALDAV_FIELD_MAX} characters`),
        password: z
          .string({ error: 'Enter the app password' })
          .min(1, 'Enter the app password')
          .max(CALDAV_FIELD_MAX, `At most ${CALDAV_FIELD_MAX} characters`),
      }),
    ],
    { error: 'Choose the kind of calendar' },
  )
  .meta({ id: 'CalendarConnectionCreate' });
export type CalendarConnectionCreate = z.infer<typeof calendarConnectionCreateSchema>;

/**
 * A connected calendar as its owner sees it: never the link or a password, only the host it
 * reads from. `stale`: the last sync failed, so the busy times in force are the last ones read.
 */
export const calendarConnectionSchema = z
  .object({
    id: z.uuid(),
    kind: z.enum(['ics', 'caldav']),
    label: z.string(),
    created_at: z.string(),
    last_synced_at: z.string().nullable(),
    last_attempt_at: z.string().nullable(),
    last_error: z.string().nullable(),
    stale: z.boolean(),
    /** What the last read skipped or cut short, in words. */
    warnings: z.array(z.string()),
    /** Busy times held from now on. */
    busy_count: z.number().int(),
    /** CalDAV: the account's calendars (none for an iCal link). */
    calendars: z.array(z.object({ url: z.string(), name: z.string(), can_write: z.boolean() })),
    /** CalDAV: the calendars whose events count as busy. */
    busy_calendars: z.array(z.string()),
    /** CalDAV: the calendar booked calls are written to; null: none. */
    write_calendar: z.string().nullable(),
    /** Booked calls not yet in the write calendar because writing failed, and the last reason. */
    unwritten: z.number().int(),
    write_error: z.string().nullable(),
  })
  .meta({ id: 'CalendarConnection' });
export type CalendarConnection = z.infer<typeof calendarConnectionSchema>;

export const calendarConnectionListSchema = z
  .object({ connections: z.array(calendarConnectionSchema), credentials_ready: z.boolean(), credentials_reason: z.string().nullable() })
  .meta({ id: 'CalendarConnectionList' });
export type CalendarConnectionList = z.infer<typeof calendarConnectionListSchema>;

/** A CalDAV account's choice: which calendars count as busy, and which receives booked calls (null: none). */
export const calendarChoiceSchema = z
  .object({
    busy_calendars: z.array(z.string().max(CALENDAR_URL_MAX), { error: 'Choose the calendars that count as busy' }).max(100),
    write_calendar: z.string().max(CALENDAR_URL_MAX).nullable(),
  })
  .meta({ id: 'CalendarChoice' });
export type CalendarChoice = z.infer<typeof calendarChoiceSchema>;

export const calendarConnectionParamsSchema = z.object({ id: z.uuid({ error: 'Invalid calendar id' }) });

/** A person's outside busy times over business dates `from` to `to` (both included), for the calendar page's grey blocks. */
export const outsideBusyQuerySchema = z.object({
  person: z.uuid({ error: 'Invalid person' }),
  from: z.iso.date({ error: 'Invalid date' }),
  to: z.iso.date({ error: 'Invalid date' }),
});
/** Each busy time cut at midnight into pieces per business date, as clock times ("24:00" for a day's end); no titles or details. */
export const outsideBusySchema = z
  .object({ busy: z.array(z.object({ date: z.string(), start: z.string(), end: z.string() })) })
  .meta({ id: 'OutsideBusy' });
export type OutsideBusy = z.infer<typeof outsideBusySchema>;
export type OutsideBlock = OutsideBusy['busy'][number];
