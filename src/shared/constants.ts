/** Business constants from the spec (section 9). Pure values: no I/O. */
export const PROPERTY_TYPES = ['single-family', 'multifamily', 'commercial', 'land', 'other'] as const;
export type PropertyType = (typeof PROPERTY_TYPES)[number];

export const PROPERTY_TYPE_LABELS: Record<PropertyType, string> = {
  'single-family': 'Single Family',
  multifamily: 'Multifamily',
  commercial: 'Commercial',
  land: 'Land',
  other: 'Other',
};

export const LEAD_STATUSES = ['New', 'Contacted', 'Converted', 'Dropped'] as const;
export type LeadStatus = (typeof LEAD_STATUSES)[number];

export const APPOINTMENT_TYPES = ['Call', 'Zoom', 'On-site'] as const;
export type AppointmentType = (typeof APPOINTMENT_TYPES)[number];

export const NOTIFICATION_TYPES = ['lead', 'appointment'] as const;
export const ANALYTICS_EVENT_TYPES = ['pageview', 'heartbeat', 'time_spent'] as const;

export const PASSWORD_MIN_LENGTH = 8;

/** Upper bounds on stored text, so one request cannot store megabytes. */
export const LIMITS = {
  name: 200,
  email: 254,
  phone: 40,
  message: 5000,
} as const;

/** The analytics session id kept in browser storage (spec section 3). */
export const ANALYTICS_SESSION_KEY = 'analytics_session_id';
export const SESSION_ID_PATTERN = /^[A-Za-z0-9_-]{16,64}$/;
