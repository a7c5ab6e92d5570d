import pino from 'pino';

/**
 * A calendar feed's URL is its credential (`/api/calendar/<token>/appointments.ics`, polled
 * by calendar apps every few minutes): logs keep the path without it, so a log reader cannot
 * subscribe to the appointments.
 */
export const redactPath = (path: string) => path.replace(/^\/api\/calendar\/[^/]+/, '/api/calendar/***');

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
