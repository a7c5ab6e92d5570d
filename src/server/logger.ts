import pino from 'pino';

/**
 * Paths whose secret part is a credential: a calendar feed (`/api/calendar/<token>/appointments.ics`,
 * polled by calendar apps every few minutes) and a booking's private link (`/booking/<token>`,
 * `/api/public/bookings/<token>`, which can move or cancel the call; `/booking/<token>/confirm/<code>`
 * confirms a held booking). Logs keep the path
 * without it, so a log reader can neither subscribe to the appointments nor change a booking.
 */
const SECRET_PATHS: [RegExp, string][] = [
  [/^\/api\/calendar\/[^/?]+/, '/api/calendar/***'],
  [/^\/api\/public\/bookings\/[^/?]+/, '/api/public/bookings/***'],
  // The page of a booking's emailed confirmation link too: /booking/<token>/confirm/<code>.
  [/^\/booking\/[^?]+/, '/booking/***'],
];

export const redactPath = (path: string) => SECRET_PATHS.reduce((p, [pattern, replacement]) => p.replace(pattern, replacement), path);

/** Structured JSON logs on stdout (one line per event), as log collectors expect. */
export function createLogger(level: string) {
  return pino({
    level,
    base: undefined,
    timestamp: pino.stdTimeFunctions.isoTime,
    formatters: {
      // Every line with a `path` (the request log's) goes out with its secret part redacted.
      log: (object) => (typeof object.path === 'string' ? { ...object, path: redactPath(object.path) } : object),
    },
  });
}
