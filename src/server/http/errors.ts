import type { Context } from 'hono';
import type { ErrorCode, ErrorResponse } from '#shared/schemas/error';
import type { AppError, ErrorExtra } from '../lib/app-error.ts';

/** Handlers refuse with AppError (lib/app-error.ts, where domain modules reach it too); this module answers it. */
export { AppError, tooManyRequests, type ErrorExtra } from '../lib/app-error.ts';

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

export function errorBody(c: Context, code: ErrorCode, message: string, fields?: Record<string, string>, extra?: ErrorExtra) {
  const body: ErrorResponse = { error: { code, message, requestId: c.get('requestId'), ...extra } };
  if (fields && Object.keys(fields).length > 0) body.error.fields = fields;
  return body;
}

export function errorResponse(c: Context, err: AppError) {
  for (const [k, v] of Object.entries(err.headers ?? {})) c.header(k, v);
  return c.json(errorBody(c, err.code, err.message, err.fields, err.extra), err.status);
}
