import pino from 'pino';

/** Structured JSON logs on stdout (one line per event), as log collectors expect. */
export function createLogger(level: string) {
  return pino({ level, base: undefined, timestamp: pino.stdTimeFunctions.isoTime });
}
