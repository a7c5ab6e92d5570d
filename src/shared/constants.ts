/** The product's constants (docs/product-rules.md says where each shows). Pure values: no I/O. */
export const PROPERTY_TYPES = ['single-family', 'multifamily', 'commercial', 'land', 'other'] as const;
export type PropertyType = (typeof PROPERTY_TYPES)[number];

/** The one label of each property type (read through property-type-label.ts). */
export const PROPERTY_TYPE_LABELS: Record<PropertyType, string> = {
  'single-family': 'Single-family',
  multifamily: 'Multifamily',
  commercial: 'Commercial',
  land: 'Land',
  other: 'Other',
};

export const LEAD_STATUSES = ['New', 'Contacted', 'Converted', 'Dropped'] as const;
export type LeadStatus = (typeof LEAD_STATUSES)[number];

export const APPOINTMENT_TYPES = ['Call', 'Zoom', 'On-site'] as const;
export type AppointmentType = (typeof APPOINTMENT_TYPES)[number];

/** What a visitor may book online (On-site is arranged by staff). */
export const BOOKABLE_TYPES = ['Call', 'Zoom'] as const;
export type BookableType = (typeof BOOKABLE_TYPES)[number];

export const APPOINTMENT_STATUSES = ['scheduled', 'cancelled', 'completed'] as const;
export type AppointmentStatus = (typeof APPOINTMENT_STATUSES)[number];

/** Bounds of the booking settings and of an appointment's length, in minutes unless named. */
export const BOOKING_LIMITS = {
  slot: { min: 10, max: 240 },
  buffer: { max: 240 },
  noticeHours: { max: 720 },
  horizonDays: { max: 365 },
  daysOff: 366,
  duration: { min: 5, max: 720 },
  location: 500,
} as const;

/**
 * The most business dates one GET /api/public/availability may ask for (both ends included):
 * a month, so the widest settings (all day in 10-minute slots) answer at most ~4,500 times
 * (~125 KB); the booking picker asks for one such page after another.
 */
export const AVAILABILITY_MAX_DAYS = 31;

export const NOTIFICATION_TYPES = ['lead', 'appointment', 'booking', 'follow_up'] as const;
export type NotificationType = (typeof NOTIFICATION_TYPES)[number];

const NOTIFICATION_TITLES: Record<NotificationType, string> = {
  lead: 'New Lead',
  appointment: 'Appointment Reminder',
  booking: 'Booking',
  follow_up: 'Follow-up',
};
/** The title of a live notification's toast. */
export const notificationTitle = (type: NotificationType) => NOTIFICATION_TITLES[type];
/** form_view: the lead form scrolled into view; form_start: its first field was focused (once per page). */
export const ANALYTICS_EVENT_TYPES = ['pageview', 'heartbeat', 'time_spent', 'form_view', 'form_start'] as const;

export const PASSWORD_MIN_LENGTH = 8;

/** Upper bounds on stored text, so one request cannot store megabytes. */
export const LIMITS = {
  name: 200,
  email: 254,
  phone: 40,
  message: 5000,
} as const;

/**
 * What an analytics event may carry and what is kept of it (docs/security.md, "Analytics:
 * isolation, retention and caps"). The API refuses a longer path, referrer or UTM value;
 * the user agent comes from a header and is cut to `userAgent` characters when stored.
 * A session's events name at most `pathsPerSession` distinct paths; the rest are counted
 * under `otherPath`.
 */
export const ANALYTICS_TEXT_LIMITS = { path: 512, referrer: 1000, utm: 200, userAgent: 512 } as const;
export const ANALYTICS_SESSION_PATH_CAP = { pathsPerSession: 50, otherPath: '/(other)' } as const;

/** Longest time one heartbeat or time_spent event may report (the tracker sends every 30 s). */
export const MAX_EVENT_SECONDS = 3600;

/** The Analytics dashboard's periods, their labels and lengths. */
export const ANALYTICS_PERIODS = ['24h', '7d', '14d', '30d', '90d'] as const;
export type AnalyticsPeriod = (typeof ANALYTICS_PERIODS)[number];
export const ANALYTICS_PERIOD_LABELS: Record<AnalyticsPeriod, string> = {
  '24h': 'Last 24 hours',
  '7d': 'Last 7 days',
  '14d': 'Last 14 days',
  '30d': 'Last 30 days',
  '90d': 'Last 90 days',
};
export const PERIOD_HOURS: Record<AnalyticsPeriod, number> = { '24h': 24, '7d': 168, '14d': 336, '30d': 720, '90d': 2160 };
/** The longest custom range on the Analytics page, in days (two years). */
export const ANALYTICS_MAX_RANGE_DAYS = 731;

/** The analytics session id kept in browser storage (docs/product-rules.md, "Analytics"). */
export const ANALYTICS_SESSION_KEY = 'analytics_session_id';
export const SESSION_ID_PATTERN = /^[A-Za-z0-9_-]{16,64}$/;
