import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runLoad } from './load.ts';

/**
 * The load generator's counts decide the benchmarks' "acknowledged = stored" verdicts, so
 * its raw HTTP parsing is tested against Node's server answering every way ours can.
 */
let server: http.Server;
let origin: string;
const received: string[] = [];

beforeAll(async () => {
  server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      received.push(`${req.method} ${req.url} ${body}`);
      if (req.url === '/empty') return void res.writeHead(204).end();
      if (req.url === '/json')
        return void res.writeHead(400, { 'content-type': 'application/json', 'content-length': '15' }).end('{"error":"bad"}');
      if (req.url === '/chunked') {
        // No length: Node sends it chunked, in two chunks.
        res.writeHead(200, { 'content-type': 'text/html' });
        res.write('a'.repeat(5000));
        setTimeout(() => res.end('b'.repeat(70_000)), 1);
        return;
      }
      if (req.url === '/close') return void res.writeHead(200, { connection: 'close', 'content-length': '2' }).end('ok');
      if (req.url === '/drop') return void req.socket.destroy();
      res.writeHead(404, { 'content-length': '0' }).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

const load = (path: string, maxRequests: number, method: 'GET' | 'POST' = 'GET') =>
  runLoad({
    url: `${origin}${path}`,
    method,
    headers: { 'content-type': 'application/json' },
    body: () => '{"n":"é"}',
    connections: 4,
    durationMs: 10_000,
    maxRequests,
  });

describe('runLoad', () => {
  it('counts answers without a body, with a length and chunked, and keeps each connection alive', async () => {
    received.length = 0;
    const empty = await load('/empty', 200, 'POST');
    expect(empty).toMatchObject({ sent: 200, ok2xx: 200, non2xx: 0, errors: 0 });
    expect(received).toHaveLength(200);
    expect(received[0]).toBe('POST /empty {"n":"é"}');

    const chunked = await load('/chunked', 40);
    expect(chunked).toMatchObject({ sent: 40, ok2xx: 40, errors: 0 });

    const json = await load('/json', 30, 'POST');
    expect(json).toMatchObject({ sent: 30, ok2xx: 0, non2xx: 30, errors: 0, firstNon2xxBody: '{"error":"bad"}' });
    expect(json.statuses.get(400)).toBe(30);
  });

  it('reconnects after Connection: close, and counts a dropped connection as an error', async () => {
    const closing = await load('/close', 50);
    expect(closing).toMatchObject({ sent: 50, ok2xx: 50, errors: 0 });

    const dropped = await load('/drop', 8);
    expect(dropped).toMatchObject({ sent: 8, ok2xx: 0, non2xx: 0, errors: 8 });
  });
});
