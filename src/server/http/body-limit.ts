import type { IncomingMessage } from 'node:http';
import type { MiddlewareHandler } from 'hono';
import { bodyLimit as honoBodyLimit } from 'hono/body-limit';
import { ClientAbortedError } from './errors.ts';

/**
 * Reads a request body of at most `maxBytes` straight from Node's request stream into
 * Hono's body cache, so `c.req.json()` parses that text. Hono's own bodyLimit builds a
 * WHATWG Request and ReadableStream for every body first, a large share of the server's CPU
 * per analytics event (docs/performance.md, "Measurements behind the code").
 * Without a Node request (`app.request()` in tests), Hono's bodyLimit does the same job.
 */
export function bodyLimit(maxBytes: number, tooLarge: () => never): MiddlewareHandler {
  const fallback = honoBodyLimit({ maxSize: maxBytes, onError: tooLarge });
  return async (c, next) => {
    const incoming = (c.env as { incoming?: IncomingMessage } | undefined)?.incoming;
    if (!incoming) return fallback(c, next);
    if (c.req.method === 'GET' || c.req.method === 'HEAD') return next();
    const declared = incoming.headers['content-length'];
    if (declared !== undefined && !incoming.headers['transfer-encoding'] && Number(declared) > maxBytes) tooLarge();
    const text = await readText(incoming, maxBytes);
    if (text === undefined) tooLarge();
    // Hono keeps promises in its body cache (its type says values).
    (c.req.bodyCache as { text?: Promise<string> }).text = Promise.resolve(text);
    return next();
  };
}

/**
 * The body as UTF-8 text, or undefined once it passes `maxBytes` (the rest is not kept).
 * A connection that closes first (the client went away, or the server's request timeout cut
 * it off) rejects with ClientAbortedError: Node says ECONNRESET, as it does for a database
 * connection that broke, and the two must not be confused.
 */
function readText(incoming: IncomingMessage, maxBytes: number): Promise<string | undefined> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const done = () => {
      incoming.off('data', onData).off('end', onEnd).off('error', onError).off('close', onClose);
    };
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size <= maxBytes) return void chunks.push(chunk);
      done();
      // Node discards the unread rest once the 413 has been sent.
      resolve(undefined);
    };
    const onEnd = () => {
      done();
      resolve(Buffer.concat(chunks, size).toString('utf8'));
    };
    const onError = (err: NodeJS.ErrnoException) => {
      done();
      reject(new ClientAbortedError(err.code ?? err.message));
    };
    const onClose = () => {
      done();
      reject(new ClientAbortedError('closed'));
    };
    incoming.on('data', onData).on('end', onEnd).on('error', onError).on('close', onClose);
  });
}
