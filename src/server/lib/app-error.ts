import { ERROR_CODES, type ErrorCode, type ErrorResponse } from '#shared/schemas/error';

/**
 * The API's error vocabulary. It lives under every layer so that a domain rule (a booking
 * refused, a limit reached) can refuse in the API's words without importing http/; handlers
 * import it through http/errors.ts, which turns it into the answer.
 */

/** The only error a handler throws on purpose; anything else is answered as a generic 500. */
export class AppError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly fields?: Record<string, string>,
    readonly headers?: Record<string, string>,
    readonly extra?: ErrorExtra,
  ) {
    super(message);
  }

  get status() {
    return ERROR_CODES[this.code];
  }
}

/** What some errors carry besides the message: fresh times to pick, the appointments in the way, an import's report. */
export type ErrorExtra = Pick<ErrorResponse['error'], 'slots' | 'conflicts' | 'import_report' | 'busy_outside'>;

/**
 * 429 Too Many Requests with Retry-After, saying in whole minutes when to try again:
 * "Too many sign-in attempts. Please try again in 12 minutes." (`what` names the requests).
 */
export function tooManyRequests(seconds: number, what = 'requests'): AppError {
  const minutes = Math.ceil(seconds / 60);
  return new AppError(
    'rate_limited',
    `Too many ${what}. Please try again in ${minutes} ${minutes === 1 ? 'minute' : 'minutes'}.`,
    undefined,
    {
      'Retry-After': String(seconds),
    },
  );
}
