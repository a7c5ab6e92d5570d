/** The product's constants (docs/product-rules.md says where each shows). Pure values: no I/O. */
export const PROPERTY_TYPES = ['single-family', 'multifamily', 'commercial', 'land', 'other'] as const;
export type PropertyType = (typeof PROPERTY_TYPES)[number];

/** The one label of each property type (read through property-type-label.ts). */
export const PROPERTY_TYPE_LABELS: Record<PropertyType, string> = {
  'single-family': 'Single family',
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

/** `no_show`: staff marked that the lead did not come to the call. */
export const APPOINTMENT_STATUSES = ['scheduled', 'cancelled', 'completed', 'no_show'] as const;
export type AppointmentStatus = (typeof APPOINTMENT_STATUSES)[number];

/** At most this many stretches of working time in a person's day (a lunch break makes two). */
export const STRETCHES_PER_DAY = 4;

/** Bounds of the booking settings and of an appointment's length, in minutes unless named. */
export const BOOKING_LIMITS = {
  slot: { min: 10, max: 240 },
  buffer: { max: 240 },
  noticeHours: { max: 720 },
  horizonDays: { max: 365 },
  daysOff: 366,
  websiteHosts: 100,
  duration: { min: 5, max: 720 },
  location: 500,
} as const;

/**
 * The most business dates one GET /api/public/availability may ask for (both ends included):
 * a month, so the widest settings (all day in 10-minute slots) answer at most ~4,500 times
 * (~125 KB); the booking picker asks for one such page after another.
 */
export const AVAILABILITY_MAX_DAYS = 31;

export const NOTIFICATION_TYPES = ['lead', 'appointment', 'booking', 'follow_up', 'calendar', 'reply', 'webhook'] as const;
export type NotificationType = (typeof NOTIFICATION_TYPES)[number];

const NOTIFICATION_TITLES: Record<NotificationType, string> = {
  lead: 'New Lead',
  appointment: 'Appointment Reminder',
  booking: 'Booking',
  follow_up: 'Follow-up',
  calendar: 'Calendar',
  reply: 'Reply',
  webhook: 'Webhook',
};

/** The events a webhook endpoint may subscribe to (docs/webhooks.md); `webhook.test` is sent only by Send test. */
export const WEBHOOK_EVENT_TYPES = [
  'lead.created',
  'lead.updated',
  'lead.stage_changed',
  'lead.merged',
  'lead.erased',
  'appointment.booked',
  'appointment.rescheduled',
  'appointment.cancelled',
  'email.replied',
  'task.due',
] as const;
export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];
/** At most this many endpoints per firm. */
export const WEBHOOK_ENDPOINTS_MAX = 20;
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

// Values the browser needs without zod (a schema module re-exports the ones it is about).

/** A person's role on the team, and how the product names it. */
export const ROLES = ['owner', 'staff'] as const;
export type Role = (typeof ROLES)[number];
export const ROLE_LABEL: Record<Role, string> = { owner: 'Owner', staff: 'Staff' };

/** What a password reset link that was used, or is too old, says. */
export const RESET_LINK_NOT_VALID = 'This reset link is not valid any more: it was used, or is older than 30 minutes. Ask for a new one.';

/** Longest note: a call's minutes pasted whole fit. */
export const NOTE_MAX_LENGTH = 20_000;
/** A message written to a lead from their page: its subject (one line) and its text. */
export const LEAD_EMAIL_SUBJECT_MAX = 200;
export const LEAD_EMAIL_BODY_MAX = 20_000;
/** The signature under the messages a person writes to leads (account page). */
export const EMAIL_SIGNATURE_MAX = 1_000;
/** Email templates (Settings → Email templates): a name's length, and how many a firm keeps. */
export const EMAIL_TEMPLATE_NAME_MAX = 80;
export const EMAIL_TEMPLATES_MAX = 100;
/** Days a booking link put in a message by {{booking_link}} stays good for booking. */
export const MESSAGE_BOOKING_LINK_DAYS = 7;

/** The longest property address and follow-up note a lead's deal fields take. */
export const LEAD_DEAL_LIMITS = { propertyAddress: 500, followUpNote: 200 } as const;

/** How the Leads Manager sorts. */
export const LEAD_SORTS = ['name', 'status', 'created', 'next_step'] as const;
export type LeadSort = (typeof LEAD_SORTS)[number];
export const SORT_DIRECTIONS = ['asc', 'desc'] as const;

/** The 400's message when `created_from` is after `created_to`. */
export const DATE_RANGE_MESSAGE = 'The start date must be on or before the end date.';

/** What a by-source row groups by: the referring site, the UTM source/medium/campaign, or the landing page. */
export const ANALYTICS_SOURCE_GROUPS = ['referrer', 'utm', 'landing'] as const;
export type AnalyticsSourceGroup = (typeof ANALYTICS_SOURCE_GROUPS)[number];

/**
 * Where a lead came from, as the leads list filters it: a group of visits (with its value), a
 * lead entered by staff or imported (`offline`), or a lead from the website form whose visit
 * was not recorded (`unrecorded`: the visitor asked not to be tracked, or blocked the tracker).
 */
export const LEAD_ORIGINS = [...ANALYTICS_SOURCE_GROUPS, 'offline', 'unrecorded'] as const;
export type LeadOrigin = (typeof LEAD_ORIGINS)[number];

/**
 * The longest value a sources row can carry: a UTM row's three values at their longest, each
 * character escaped as JSON at its widest (\uXXXX), with the brackets, quotes and commas.
 */
export const ORIGIN_VALUE_MAX = 3 * 6 * ANALYTICS_TEXT_LIMITS.utm + 16;

/**
 * The funnel's step between sending the form and becoming a client: the one every client the
 * funnel counts passed through. What counts is one rule in the server (HAD_CONVERSATION in
 * db/queries/analytics-report-queries.ts: today a call booked and not cancelled); it and these words
 * change together when more kinds of conversation count.
 */
export const FUNNEL_CONVERSATION = {
  /** The step's name on the funnel. */
  label: 'Booked a call',
  /** What a client outside the funnel lacked: "2 clients won without a call…". */
  without: 'without a call',
} as const;

/** The fields a merge chooses between, in the chooser's order, with their labels. */
export const MERGE_FIELDS = [
  ['full_name', 'Name'],
  ['phone', 'Phone'],
  ['property_types', 'Property type'],
  ['status', 'Status'],
  ['owner_id', 'Owner'],
  ['property_address', 'Property address'],
  ['target_closing_date', 'Target closing date'],
  ['estimated_fee_cents', 'Estimated fee'],
] as const;
export type MergeField = (typeof MERGE_FIELDS)[number][0];

/**
 * What the audit log records. One name per kind of act; the Audit log page filters by them
 * and shows each with its label.
 */
export const AUDIT_ACTIONS = {
  sign_in: 'Signed in',
  sign_in_failed: 'Failed sign-in',
  two_factor_failed: 'Wrong two-factor code',
  sign_out: 'Signed out',
  session_ended: 'Ended a session',
  first_owner_created: 'Created the first owner',
  account_created: 'Created an account',
  password_changed: 'Changed password',
  password_reset_requested: 'Asked for a password reset',
  password_reset: 'Reset password',
  email_changed: 'Changed email',
  profile_changed: 'Changed name or phone',
  working_hours_changed: 'Changed working hours',
  calendar_connected: 'Connected a calendar',
  calendar_disconnected: 'Removed a calendar',
  calendar_choice_changed: 'Chose the calendars of a CalDAV account',
  two_factor_enabled: 'Turned on two-factor',
  two_factor_disabled: 'Turned off two-factor',
  recovery_codes_regenerated: 'New recovery codes',
  recovery_code_used: 'Used a recovery code',
  invite_sent: 'Invited',
  invite_revoked: 'Withdrew an invitation',
  invite_accepted: 'Accepted an invitation',
  role_changed: 'Changed a role',
  account_deactivated: 'Deactivated an account',
  account_reactivated: 'Reactivated an account',
  account_removed: 'Removed an account',
  lead_created: 'Created a lead',
  lead_updated: 'Updated a lead',
  lead_deleted: 'Deleted a lead',
  leads_merged: 'Merged leads',
  lead_exported: 'Exported a lead’s data',
  lead_erased: 'Erased a lead',
  leads_exported: 'Exported leads (CSV)',
  leads_imported: 'Imported leads',
  appointment_created: 'Scheduled an appointment',
  appointment_updated: 'Updated an appointment',
  appointment_deleted: 'Deleted an appointment',
  appointments_bulk_cancelled: 'Cancelled website bookings in bulk',
  settings_changed: 'Changed settings',
  api_key_created: 'Made an API key',
  api_key_revoked: 'Revoked an API key',
  backup: 'Made a backup',
} as const;

export type AuditAction = keyof typeof AUDIT_ACTIONS;

/**
 * Percent change, one decimal; 100% when the previous count is zero and this one is not, and
 * null when both are zero: nothing happened, so there is no change to show (docs/product-rules.md, "Analytics").
 */
export function percentChange(current: number, previous: number): number | null {
  if (previous === 0) return current === 0 ? null : 100;
  return Math.round(((current - previous) / previous) * 1000) / 10;
}

/** The pipeline (Settings → Pipeline): a stage's name, a lost reason, and how many of each a firm keeps. */
export const PIPELINE_STAGE_NAME_MAX = 60;
export const LOST_REASON_MAX = 80;
export const PIPELINE_STAGES_MAX = 30;
export const LOST_REASONS_MAX = 30;
/** The lost reason of a lead moved to a Dropped stage by its status alone (nobody said why). */
export const LOST_REASON_NOT_GIVEN = 'Not given';
/** A new open stage's win probability when none is given. */
export const DEFAULT_STAGE_PROBABILITY = 50;
/** The open statuses: their stages carry a win probability, their cards fill the board, their deals make the forecast. */
export const OPEN_STATUSES = ['New', 'Contacted'] as const satisfies readonly LeadStatus[];

/** A call logged on a lead's page: how it went, as the API names it and as people read it. */
export const CALL_OUTCOMES = ['connected', 'left_voicemail', 'no_answer', 'wrong_number'] as const;
export type CallOutcome = (typeof CALL_OUTCOMES)[number];
export const CALL_OUTCOME_LABELS: Record<CallOutcome, string> = {
  connected: 'Connected',
  left_voicemail: 'Left voicemail',
  no_answer: 'No answer',
  wrong_number: 'Wrong number',
};
/** A logged call's longest duration (10 hours) and notes. */
export const CALL_DURATION_MAX = 600;
export const CALL_NOTES_MAX = 5000;

/** A lead's tasks: what kind of thing is due. */
export const TASK_TYPES = ['call', 'email', 'meeting', 'todo'] as const;
export type TaskType = (typeof TASK_TYPES)[number];
export const TASK_TYPE_LABELS: Record<TaskType, string> = { call: 'Call', email: 'Email', meeting: 'Meeting', todo: 'To-do' };
/** A task's title, as long as a next step's text. */
export const TASK_TITLE_MAX = 200;
/** My tasks: the four lists. */
export const TASK_BUCKETS = ['overdue', 'today', 'upcoming', 'done'] as const;
export type TaskBucket = (typeof TASK_BUCKETS)[number];

/**
 * What an API key may do (Settings → Integrations): `:read` is GET, `:write` is POST, PATCH,
 * PUT and DELETE; a key needs both for both. docs/api.md lists the operations of each.
 */
export const API_KEY_SCOPES = [
  'leads:read',
  'leads:write',
  'appointments:read',
  'appointments:write',
  'analytics:read',
  // Not an operation's: lets the key's appointment changes email the lead (auth/api-key-mail.ts).
  'email:send',
] as const;
export type ApiKeyScope = (typeof API_KEY_SCOPES)[number];
