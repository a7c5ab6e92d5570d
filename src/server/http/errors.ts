import type { Context } from 'hono';
import { ERROR_CODES, type ErrorCode, type ErrorResponse } from '#shared/schemas/error';

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

/**
 * The client closed its connection (or was cut off by the server's request timeout) before
 * its request body arrived in full: nobody is left to answer, and nothing is wrong on our side.
 * Never a database fault, though Node reports it as ECONNRESET too.
 */
export class ClientAbortedError extends Error {
  override readonly name = 'ClientAbortedError';
  constructor(readonly reason: string) {
    super('The client closed the connection before sending the whole request.');
  }
}

/** What some errors carry besides the message: fresh times to pick, the appointments in the way, an import's report. */
export type ErrorExtra = Pick<ErrorResponse['error'], 'slots' | 'conflicts' | 'import_report' | 'busy_outside'>;

export function errorBody(c: Context, code: ErrorCode, message: string, fields?: Record<string, string>, extra?: ErrorExtra) {
  const body: ErrorResponse = { error: { code, message, requestId: c.get('requestId'), ...extra } };
  if (fields && Object.keys(fields).length > 0) body.error.fields = fields;
  return body;
}

export function errorResponse(c: Context, err: AppError) {
  for (const [k, v] of Object.entries(err.headers ?? {})) c.header(k, v);
  return c.json(errorBody(c, err.code, err.message, err.fields, err.extra), err.status);
}

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
