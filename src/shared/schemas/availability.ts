import * as z from 'zod';
import { BOOKING_LIMITS, STRETCHES_PER_DAY } from '../constants.ts';
import { clockMinutes } from '../zoned-time.ts';
import { isCalendarDate } from '../rules/calendar.ts';
import { openHoursSchema, type BookingSettings, type OpenHours } from './booking.ts';
import { storableText } from './text.ts';

export const MEETING_LINK_MAX = 500;

/** Whether `value` is an https link with a host (a Zoom personal room, a Teams or Meet link). */
export function isMeetingLink(value: string): boolean {
  try {
    const url = new URL(value);
    return url.protocol === 'https:' && url.hostname.includes('.') && url.username === '' && url.password === '';
  } catch {
    return false;
  }
}

/** One weekday's working time: stretches in order, none overlapping the next. */
const daySchema = z
  .array(openHoursSchema)
  .max(STRETCHES_PER_DAY, `At most ${STRETCHES_PER_DAY} stretches a day`)
  .refine(
    (day) => day.every((h, i) => i === 0 || clockMinutes(h.start) >= clockMinutes(day[i - 1]!.end)),
    'Each stretch must start after the one before it ends',
  );

/**
 * When one team member takes calls, on the business clock. `hours`: seven lists (Monday first),
 * each empty for a day not worked; null follows the firm's booking hours (Settings → Booking),
 * whatever they become. `days_off`: dates not worked. `holidays_off`: US federal holidays (as
 * observed) are days off too.
 */
export const memberAvailabilitySchema = z
  .object({
    bookable: z.boolean({ error: 'Say whether you take calls' }),
    hours: z.array(daySchema).length(7, 'Give the hours of all seven weekdays').nullable(),
    days_off: z
      .array(storableText().refine(isCalendarDate, 'Invalid date'))
      .max(BOOKING_LIMITS.daysOff, `At most ${BOOKING_LIMITS.daysOff} days off`)
      .refine((d) => new Set(d).size === d.length, 'Each day off once'),
    holidays_off: z.boolean({ error: 'Say whether federal holidays are days off' }),
    /** A personal video room for Zoom calls booked with them; absent leaves it as it is, null removes it. */
    meeting_link: storableText()
      .trim()
      .max(MEETING_LINK_MAX, `A meeting link is at most ${MEETING_LINK_MAX} characters`)
      .refine(isMeetingLink, 'Enter a link that starts with https://')
      .nullable()
      .optional(),
  })
  .meta({ id: 'MemberAvailability' });
export type MemberAvailability = z.infer<typeof memberAvailabilitySchema>;

/** What GET answers: the person's settings, the firm's hours they follow when `hours` is null, and the holidays ahead. */
export const memberAvailabilityResponseSchema = memberAvailabilitySchema
  .extend({
    user_id: z.uuid(),
    /** The firm's booking hours as stretches: what `hours: null` means today. */
    firm_hours: z.array(z.array(openHoursSchema)).length(7),
    /** The US federal holidays of the next twelve months (observed dates). */
    holidays: z.array(z.object({ date: z.string(), name: z.string() })),
    time_zone: z.string(),
    meeting_link: z.string().nullable(),
  })
  .meta({ id: 'MemberAvailabilityResponse' });
export type MemberAvailabilityResponse = z.infer<typeof memberAvailabilityResponseSchema>;

/** A person with no settings saved: not bookable, the firm's hours, federal holidays off. */
export const DEFAULT_MEMBER_AVAILABILITY: MemberAvailability = {
  bookable: false,
  hours: null,
  days_off: [],
  holidays_off: true,
  meeting_link: null,
};

/** The firm's booking hours (one stretch or none a day) as a person's weekly stretches. */
export const firmStretches = (settings: Pick<BookingSettings, 'hours'>): OpenHours[][] =>
  settings.hours.map((h) => (h ? [{ start: h.start, end: h.end }] : []));
