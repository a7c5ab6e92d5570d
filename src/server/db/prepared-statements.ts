/**
 * The names of the statements run as named prepared statements (db/sql.ts, `prepared`), all in
 * one list so that no two statements share a name by accident: a name stands for its text, and
 * a process refuses a name asked with another text. A statement whose text varies with a few
 * options (which CTEs it has) is one name per variant: the list's name, then the variant
 * (`create_lead+mail+token`, `lead_timeline_bf`).
 */
export const PREPARED = {
  /** A lead stored with its notifications and emails (queries/leads-queries.ts, createLead), one per shape. */
  createLead: 'create_lead',
  /** A page of a lead's timeline (queries/lead-timeline-queries.ts), one per bound given: `_b` before, `f` from. */
  leadTimeline: 'lead_timeline',
  /** A page of one email thread of a lead (queries/lead-timeline-queries.ts), `_b` with a bound before. */
  leadThread: 'lead_thread',
  /** The booking link's context: settings, the booking, the hosts (queries/bookings-queries.ts, readBookingContext). */
  bookingContext: 'booking_context',
  /** A time booked through a booking link (queries/bookings-queries.ts, bookSlot). */
  bookSlot: 'book_slot',
  /** The sum of the availability versions (queries/availability-versions-queries.ts). */
  availabilityVersion: 'availability_version',
  /** What the public open times are computed from, with that sum (queries/availability-versions-queries.ts). */
  availabilityInputs: 'availability_inputs',
  /** One hit of a rate limit (queries/rate-limits-queries.ts, hitRateLimit). */
  hitRateLimit: 'hit_rate_limit',
  /** A batch of hits of several rate limits (queries/rate-limits-queries.ts, addRateLimitHits). */
  addRateLimitHits: 'add_rate_limit_hits',
  /** A batch of analytics events with their hourly rollups (queries/analytics-events-queries.ts). */
  insertAnalyticsEvents: 'insert_analytics_events',
} as const;

type Listed = (typeof PREPARED)[keyof typeof PREPARED];

/** A name of the list, a variant of one, or a test's own (`test_…`, the tests of db/sql.ts). */
export type PreparedName = Listed | `${Listed}${'+' | '_'}${string}` | `test_${string}`;
