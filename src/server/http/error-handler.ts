import type { Context } from 'hono';
import { HTTPException } from 'hono/http-exception';
import type { Logger } from 'pino';
import { ERROR_CODES, type ErrorCode } from '#shared/schemas/error';
import { DATABASE_FAULT_MESSAGES, databaseFault, sqlState } from '../db/database-faults.ts';
import type { AppEnv } from './context.ts';
import { AppError, ClientAbortedError, errorBody, errorResponse } from './errors.ts';

const HTTP_EXCEPTION_CODES: Partial<Record<number, ErrorCode>> = {
  400: 'bad_request',
  401: 'unauthorized',
  403: 'forbidden',
  404: 'not_found',
  413: 'payload_too_large',
  415: 'unsupported_media_type',
};

/**
 * The app's onError (docs/conventions.md, "Errors"): an AppError as its envelope; Hono's own
 * 4xx with our code for that status; a database that cannot serve 503 with Retry-After; a value
 * the database refuses 400; anything else logged without the query's parameters and a bare 500.
 */
export function errorHandler(logger: Logger) {
  return (err: Error, c: Context<AppEnv>): Response => {
    if (err instanceof AppError) return errorResponse(c, err);
    if (err instanceof ClientAbortedError) {
      // The client hung up mid-body (or took longer than the request timeout): no one to
      // answer, nothing wrong here. Not a warning, and never "database unavailable".
      logger.info(
        { requestId: c.get('requestId'), reason: err.reason, ip: c.get('clientIp') },
        'client closed the connection before sending the whole request',
      );
      return c.json(errorBody(c, 'bad_request', 'The request body did not arrive in full. Please send it again.'), 400);
    }
    if (err instanceof HTTPException && err.status < 500) {
      // Hono's own 4xx (a body that is not valid JSON, a body without a Content-Type), with
      // our code for that status, so code and status always agree.
      const code = HTTP_EXCEPTION_CODES[err.status] ?? 'bad_request';
      const message =
        err.status === 400
          ? 'The request body is not valid JSON.'
          : code === 'unsupported_media_type'
            ? 'Send the request body as application/json.'
            : err.message;
      return c.json(errorBody(c, code, message), ERROR_CODES[code]);
    }
    const fault = databaseFault(err);
    if (fault) {
      // The database is down, restarting or full: the client may retry; no stack, no details.
      logger.warn({ requestId: c.get('requestId'), fault, error: err.name, dbCode: sqlState(err) }, 'database unavailable');
      c.header('Retry-After', '5');
      return c.json(errorBody(c, 'service_unavailable', DATABASE_FAULT_MESSAGES[fault]), 503);
    }
    const dbCode = sqlState(err);
    if (dbCode?.startsWith('22')) {
      // A data exception (a value the database cannot store): the client's input, not our fault.
      return c.json(errorBody(c, 'bad_request', 'The request contains a value that cannot be stored.'), 400);
    }
    // Log the error without the query's parameters: they hold people's personal data.
    logger.error(
      {
        requestId: c.get('requestId'),
        error: err.name,
        dbCode,
        message: dbCode ? undefined : err.message,
        stack: dbCode ? undefined : err.stack,
      },
      'unhandled error',
    );
    return c.json(errorBody(c, 'internal_error', 'Something went wrong on our side.'), 500);
  };
}
