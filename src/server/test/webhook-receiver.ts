import { createHmac, timingSafeEqual } from 'node:crypto';
import http, { type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll } from 'vitest';

/** A webhook as a receiver got it; `verified` as the reference library said (`standardwebhooks`). */
export type Received = { headers: IncomingHttpHeaders; body: string; path: string; verified: boolean; verifyError: string | null };

/**
 * Verifies a webhook with the Standard Webhooks reference library (npm `standardwebhooks`), as
 * a receiver would: `new Webhook(secret).verify(body, headers)`, which throws unless a `v1,`
 * signature matches and the timestamp is within 5 minutes of its clock. The library reads the
 * clock with Date.now(); tests that run the worker at a time of their own give it as `nowMs`,
 * and the library sees that time while it runs (synchronously, so nothing else does).
 * Returns null when it verifies, else the library's error.
 */
export function verifyWithLibrary(secret: string, headers: IncomingHttpHeaders, body: string, nowMs?: number): string | null {
  const plain: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) if (value !== undefined) plain[name] = String(value);
  const realNow = Date.now;
  if (nowMs !== undefined) Date.now = () => nowMs;
  try {
    new Webhook(secret).verify(body, plain);
    return null;
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  } finally {
    Date.now = realNow;
  }
}

/**
 * A webhook receiver on this machine's loopback (port 0): it verifies every request with the
 * reference library against the secrets the test gave it (`secrets`, one of them must match;
 * the clock `now`, by default the real one), keeps what it gets, answers 401 to a request that
 * does not verify, as a real receiver would, and otherwise as the test says (`answer`, by
 * default 204). Tests run the app with OUTBOUND_ALLOW_HOSTS naming 127.0.0.1, so nothing is
 * ever sent off the machine.
 */
export function useWebhookReceiver() {
  const state = {
    received: [] as Received[],
    /** The endpoints' secrets this receiver holds: a request verifying with any one is accepted. */
    secrets: [] as string[],
    /** The receiver's clock in ms (the library's 5-minute window): tests moving the worker's clock move this. */
    now: (): number => Date.now(),
    answer: (_r: Received, res: ServerResponse): void => {
      res.writeHead(204).end();
    },
    url: '',
    port: 0,
    /** Forgets what came and the secrets, answers 204 on the real clock again. */
    reset() {
      state.received.length = 0;
      state.secrets.length = 0;
      state.now = () => Date.now();
      state.answer = (_r, res) => res.writeHead(204).end();
    },
  };
  let server: http.Server;
  beforeAll(async () => {
    server = webhookReceiverServer((got, res) => {
      const errors = state.secrets.map((secret) => verifyWithLibrary(secret, got.headers, got.body, state.now()));
      const verified = errors.includes(null);
      const received: Received = {
        ...got,
        verified,
        verifyError: verified ? null : (errors[0] ?? 'the receiver holds no secret'),
      };
      state.received.push(received);
      if (!verified) res.writeHead(401).end(received.verifyError ?? '');
      else state.answer(received, res);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    state.port = (server.address() as AddressInfo).port;
    state.url = `http://127.0.0.1:${state.port}/hook`;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });
  return state;
}

/** An HTTP server (not listening yet) handing each request's headers, raw body and path to `onRequest`. */
export function webhookReceiverServer(
  onRequest: (got: { headers: IncomingHttpHeaders; body: string; path: string }, res: ServerResponse) => void,
): http.Server {
  return http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => onRequest({ headers: req.headers, body: Buffer.concat(chunks).toString('utf8'), path: req.url ?? '/' }, res));
  });
}

/**
 * The no-library verification docs/webhooks.md shows (kept to check it agrees with the
 * reference library): any `v1,` signature in the header matching
 * HMAC-SHA256(key, `${id}.${timestamp}.${body}`), key = the base64 after `whsec_`, and a
 * timestamp within 5 minutes of `nowSeconds`.
 */
export function verifyStandardWebhook(secret: string, headers: IncomingHttpHeaders, body: string, nowSeconds: number): boolean {
  const id = String(headers['webhook-id'] ?? '');
  const timestamp = Number(headers['webhook-timestamp']);
  if (!id || !Number.isInteger(timestamp) || Math.abs(nowSeconds - timestamp) > 300) return false;
  const key = Buffer.from(secret.replace(/^whsec_/, ''), 'base64');
  const expected = createHmac('sha256', key).update(`${id}.${timestamp}.${body}`).digest();
  return String(headers['webhook-signature'] ?? '')
    .split(' ')
    .some((part) => {
      const [version, signature = ''] = part.split(',');
      const given = Buffer.from(signature, 'base64');
      return version === 'v1' && given.length === expected.length && timingSafeEqual(given, expected);
    });
}
