/**
 * A calendar the caller handed us could not be read; the message is meant for people. On its
 * own so that read-ics.ts, which runs on the server's main thread, needs nothing of ical.js.
 */
export class IcsError extends Error {
  override name = 'IcsError';
}
