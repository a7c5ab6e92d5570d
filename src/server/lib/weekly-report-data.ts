import * as z from 'zod';

/**
 * What a weekly report email says, as queued: the figures of one week (Monday to Sunday in
 * the business time zone) and of the week before, the sources that won the most clients and
 * the follow-ups due on the day it was queued. A snapshot, so the message reads the same
 * whenever the outbox gets to send it.
 */
const count = z.number().int().nonnegative();

export const weeklyFiguresSchema = z.object({
  visitors: count,
  leads: count,
  bookings: count,
  conversions: count,
  /** Sum of the clients' estimated fees, in cents. */
  fees_cents: count,
});
export type WeeklyFigures = z.infer<typeof weeklyFiguresSchema>;

export const weeklyReportDataSchema = z.object({
  /** The week's Monday and Sunday (YYYY-MM-DD). */
  from: z.string(),
  to: z.string(),
  time_zone: z.string(),
  week: weeklyFiguresSchema,
  previous: weeklyFiguresSchema,
  /** At most 3, most clients first; `label` is what a person reads ("Direct", "google.com", "Offline / entered by staff"). */
  top_sources: z.array(z.object({ label: z.string(), clients: count, fees_cents: count })),
  follow_ups: z.object({
    /** The day the report was made: follow-ups dated on or before it are due. */
    as_of: z.string(),
    due: count,
    /** The oldest few, by date. */
    leads: z.array(z.object({ lead_id: z.string(), full_name: z.string(), follow_up_on: z.string() })),
  }),
});
export type WeeklyReportData = z.infer<typeof weeklyReportDataSchema>;
