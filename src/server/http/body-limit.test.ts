import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { serve, type ServerType } from '@hono/node-server';
import { Hono } from 'hono';
import { HTTPException } from 'hono/http-exception';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bodyLimit } from './body-limit.ts';

// Over real HTTP: the Node request stream is what this middleware reads.
let server: ServerType;
let port: number;
beforeAll(async () => {
  const app = new Hono();
  app.use(
    bodyLimit(100, () => {
      throw new HTTPException(413, { message: 'too large' });
    }),
  );
  app.post('/echo', async (c) => c.json({ got: await c.req.json() }));
  app.post('/text', async (c) => c.text(await c.req.text()));
  app.get('/get', (c) => c.text('ok'));
  await new Promise<void>((resolve) => {
    server = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, () => resolve());
  });
  port = (server.address() as AddressInfo).port;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

function send(path: string, body: string | string[] | undefined, method = 'POST'): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const chunked = Array.isArray(body);
    const req = http.request(
      {
        host: '127.0.0.1',
        port,
        path,
        method,
        headers: chunked ? { 'transfer-encoding': 'chunked' } : { 'content-type': 'application/json' },
      },
      (res) => {
        let text = '';
        res.on('data', (c: Buffer) => (text += c.toString()));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
      },
    );
    req.on('error', reject);
    if (chunked) for (const part of body) req.write(part);
    req.end(chunked ? undefined : body);
  });
}

describe('bodyLimit over Node HTTP', () => {
  it('hands a body within the limit to c.req.json() and c.req.text(), multi-byte characters intact', async () => {
    expect(await send('/echo', JSON.stringify({ name: 'José 🏠' }))).toEqual({
      status: 200,
      body: JSON.stringify({ got: { name: 'José 🏠' } }),
    });
    expect(await send('/text', ['{"a":', '1}'])).toEqual({ status: 200, body: '{"a":1}' });
  });

  it('answers 413 when Content-Length is over the limit, and when a chunked body grows past it', async () => {
    expect((await send('/echo', JSON.stringify({ x: 'a'.repeat(200) }))).status).toBe(413);
    expect((await send('/echo', ['{"x":"', 'a'.repeat(60), 'a'.repeat(60), '"}'])).status).toBe(413);
  });

  it('leaves requests without a body alone', async () => {
    expect(await send('/get', undefined, 'GET')).toEqual({ status: 200, body: 'ok' });
  });
});
