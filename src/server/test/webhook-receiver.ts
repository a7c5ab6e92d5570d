import { createHmac, timingSafeEqual } from 'node:crypto';
import http, { type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll } from 'vitest';

/** A webhook as a receiver got it. */
export type Received = { headers: IncomingHttpHeaders; body: string; path: string };

/**
 * A webhook receiver on this machine's loopback (port 0): it keeps what it gets and answers as
 * the test says (`answer`, by default 204). Tests run the app with OUTBOUND_ALLOW_HOSTS naming
 * 127.0.0.1, so nothing is ever sent off the machine.
 */
export function useWebhookReceiver() {
  const state = {
    received: [] as Received[],
    answer: (_r: Received, res: ServerResponse): void => {
      res.writeHead(204).end();
    },
    url: '',
    port: 0,
  };
  let server: http.Server;
  beforeAll(async () => {
    server = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const got = { headers: req.headers, body: Buffer.concat(chunks).toString('utf8'), path: req.url ?? '/' };
        state.received.push(got);
        state.answer(got, res);
      });
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

/**
 * Verifies a webhook as the Standard Webhooks libraries do (https://www.standardwebhooks.com):
 * any `v1,` signature in the header matching HMAC-SHA256(key, `${id}.${timestamp}.${body}`),
 * key = the base64 after `whsec_`, and a timestamp within 5 minutes of `nowSeconds`.
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
