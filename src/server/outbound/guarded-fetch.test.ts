import { readFileSync } from 'node:fs';
import http, { type IncomingHttpHeaders } from 'node:http';
import net, { type AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { parseAllowHosts, type AllowedHost } from './address-policy.ts';
import { guardedFetch, MAX_REDIRECTS } from './guarded-fetch.ts';
import { OutboundError } from './outbound-error.ts';
import { requestUrl } from './request-url.ts';

// Every server here listens on this machine's loopback (127.0.0.1 or ::1, port 0), and every
// request goes to one of them: names are looked up in /etc/hosts ("localhost") or by a
// resolver the test hands in, which answers loopback only.

type Seen = { method: string; url: string; headers: IncomingHttpHeaders; body: string };
type Local = { port: number; origin: string; seen: Seen[]; connections: () => number };

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  await Promise.all(closers.splice(0).map((close) => close()));
});

async function listen(server: net.Server, host: string): Promise<number> {
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, host, resolve);
  });
  closers.push(() => new Promise<void>((resolve) => server.close(() => resolve())));
  return (server.address() as AddressInfo).port;
}

/** An HTTP server on loopback that records every request and connection it gets. */
async function localServer(
  handle: (req: http.IncomingMessage, res: http.ServerResponse, seen: Seen[]) => void,
  host = '127.0.0.1',
): Promise<Local> {
  const seen: Seen[] = [];
  let connections = 0;
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      seen.push({ method: req.method!, url: req.url!, headers: req.headers, body: Buffer.concat(chunks).toString() });
      handle(req, res, seen);
    });
  });
  server.on('connection', () => connections++);
  closers.push(async () => void server.closeAllConnections());
  const port = await listen(server, host);
  return { port, origin: `http://${host.includes(':') ? `[${host}]` : host}:${port}`, seen, connections: () => connections };
}

const answer = (body: string) => (_req: http.IncomingMessage, res: http.ServerResponse) => {
  res.writeHead(200, { 'content-type': 'text/calendar; charset=utf-8' }).end(body);
};
const allow = (value: string) => parseAllowHosts(value) as AllowedHost[];

async function refusal(promise: Promise<unknown>): Promise<OutboundError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(OutboundError);
  return error as OutboundError;
}

const ipv6Loopback = await new Promise<boolean>((resolve) => {
  const probe = net.createServer();
  probe.once('error', () => resolve(false));
  probe.listen(0, '::1', () => probe.close(() => resolve(true)));
});
const hostsFileNamesLocalhost = (() => {
  try {
    return /^\s*127\.0\.0\.1\s.*\blocalhost\b/m.test(readFileSync('/etc/hosts', 'utf8'));
  } catch {
    return false;
  }
})();

describe('guardedFetch: addresses', () => {
  it('refuses loopback by default, in every spelling, and the server sees no connection', async () => {
    const server = await localServer(answer('BEGIN:VCALENDAR'));
    for (const url of [
      `${server.origin}/feed/secret-token.ics`,
      `http://2130706433:${server.port}/`,
      `http://0x7f.1:${server.port}/`,
      `http://[::ffff:127.0.0.1]:${server.port}/`,
      `http://0.0.0.0:${server.port}/`,
    ]) {
      const error = await refusal(guardedFetch(url));
      expect(error.reason).toBe('blocked_address');
      expect(error.message).toMatch(
        /private or local network address, which this server does not reach\. An administrator can allow it with OUTBOUND_ALLOW_HOSTS\.$/,
      );
      expect(error.message).not.toContain('secret-token');
    }
    expect(server.connections()).toBe(0);
  });

  it.skipIf(!ipv6Loopback)('refuses ::1 by default', async () => {
    const server = await localServer(answer('x'), '::1');
    expect((await refusal(guardedFetch(`${server.origin}/`))).reason).toBe('blocked_address');
    expect(server.connections()).toBe(0);
  });

  it.skipIf(!hostsFileNamesLocalhost)('refuses a name that resolves to loopback ("localhost")', async () => {
    const server = await localServer(answer('x'));
    for (const url of [`http://localhost:${server.port}/`, `http://LocalHost:${server.port}/`]) {
      expect((await refusal(guardedFetch(url))).reason).toBe('blocked_address');
    }
    expect((await refusal(guardedFetch(`webcal://localhost:${server.port}/cal.ics`, { webcal: true }))).reason).toBe('blocked_address');
    expect(server.connections()).toBe(0);
  });

  it('reaches a host in the allow list, on its port only, and returns status, headers, body and URL', async () => {
    const server = await localServer(answer('BEGIN:VCALENDAR\r\nSUMMARY:Café\r\n'));
    const response = await guardedFetch(`${server.origin}/cal.ics?x=1`, { allowHosts: allow(`127.0.0.1:${server.port}`) });
    expect(response.status).toBe(200);
    expect(response.headers['content-type']).toBe('text/calendar; charset=utf-8');
    expect(response.text()).toBe('BEGIN:VCALENDAR\r\nSUMMARY:Café\r\n');
    expect(response.body).toEqual(Buffer.from('BEGIN:VCALENDAR\r\nSUMMARY:Café\r\n'));
    expect(response.url).toBe(`${server.origin}/cal.ics?x=1`);
    expect(server.seen).toMatchObject([{ method: 'GET', url: '/cal.ics?x=1', headers: { host: `127.0.0.1:${server.port}` } }]);

    expect((await refusal(guardedFetch(`${server.origin}/`, { allowHosts: allow(`127.0.0.1:${server.port + 1},localhost`) }))).reason).toBe(
      'blocked_address',
    );
    expect(server.seen).toHaveLength(1);
  });

  it.skipIf(!ipv6Loopback)('reaches [::1] when it is in the allow list', async () => {
    const server = await localServer(answer('six'), '::1');
    const response = await guardedFetch(`${server.origin}/`, { allowHosts: allow(`[::1]:${server.port}`) });
    expect(response.text()).toBe('six');
  });

  it('connects to the address it checked while the Host header and the allow list use the name', async () => {
    const server = await localServer(answer('pinned'));
    const looked: string[] = [];
    const lookupAddresses = async (name: string) => {
      looked.push(name);
      return ['127.0.0.1'];
    };
    const url = `http://calendar.test:${server.port}/dav/`;
    expect((await refusal(guardedFetch(url, { lookupAddresses }))).reason).toBe('blocked_address');
    expect(server.connections()).toBe(0);

    const response = await guardedFetch(url, { lookupAddresses, allowHosts: allow('Calendar.Test') });
    expect(response.text()).toBe('pinned');
    expect(server.seen[0]!.headers.host).toBe(`calendar.test:${server.port}`);
    expect(looked).toEqual(['calendar.test', 'calendar.test']);
  });

  it('says when a name cannot be found, and refuses a lookup that answers something other than addresses', async () => {
    const notFound = async () => {
      throw Object.assign(new Error('getaddrinfo ENOTFOUND'), { code: 'ENOTFOUND' });
    };
    const error = await refusal(guardedFetch('https://no-such-calendar.test/cal.ics', { lookupAddresses: notFound }));
    expect(error).toMatchObject({
      reason: 'dns',
      message: 'The server name no-such-calendar.test could not be found: check the address for typos.',
    });
    const empty = await refusal(guardedFetch('https://calendar.test/', { lookupAddresses: async () => [] }));
    expect(empty.reason).toBe('dns');
    const names = await refusal(
      guardedFetch('https://calendar.test/', { lookupAddresses: async () => ['localhost'], allowHosts: allow('calendar.test') }),
    );
    expect(names.reason).toBe('dns');
  });

  it('says when the host refuses the connection', async () => {
    const server = await localServer(answer('x'));
    const port = server.port;
    await closers.pop()!(); // the server's own close: its port is free now
    await closers.pop()!();
    const error = await refusal(guardedFetch(`http://127.0.0.1:${port}/`, { allowHosts: allow('127.0.0.1') }));
    expect(error).toMatchObject({ reason: 'network', message: '127.0.0.1 refused the connection.' });
  });
});

describe('guardedFetch: URLs and credentials', () => {
  it('refuses schemes other than http and https, and webcal unless asked for', async () => {
    for (const url of ['file:///etc/passwd', 'ftp://127.0.0.1/', 'gopher://127.0.0.1:70/', 'webcal://127.0.0.1/cal.ics', 'not a url']) {
      expect((await refusal(guardedFetch(url, { allowHosts: allow('127.0.0.1') }))).reason).toBe('bad_url');
    }
  });

  it('refuses a user name or password in the URL, never repeating them, and sends basic auth given as an option', async () => {
    const server = await localServer(answer('ok'));
    const allowHosts = allow(`127.0.0.1:${server.port}`);
    const error = await refusal(guardedFetch(`http://calendar-user:hunter2secret@127.0.0.1:${server.port}/`, { allowHosts }));
    expect(error.reason).toBe('bad_url');
    expect(error.message).not.toMatch(/hunter2secret|calendar-user/);
    expect(server.connections()).toBe(0);

    const blocked = await refusal(
      guardedFetch(`${server.origin}/`, { basicAuth: { username: 'calendar-user', password: 'hunter2secret' } }),
    );
    expect(`${blocked.message} ${String(blocked.stack)}`).not.toMatch(/hunter2secret|calendar-user/);

    await guardedFetch(`${server.origin}/`, { allowHosts, basicAuth: { username: 'calendar-user', password: 'hunter2secret' } });
    expect(server.seen[0]!.headers.authorization).toBe(`Basic ${Buffer.from('calendar-user:hunter2secret').toString('base64')}`);
  });

  it('sends any method with headers and a body (CalDAV)', async () => {
    const server = await localServer((_req, res) => res.writeHead(207, { 'content-type': 'application/xml' }).end('<multistatus/>'));
    const body = '<?xml version="1.0"?><propfind xmlns="DAV:"><prop><displayname/></prop></propfind>';
    const response = await guardedFetch(`${server.origin}/dav/calendars/`, {
      method: 'propfind',
      headers: { Depth: '1', 'Content-Type': 'application/xml; charset=utf-8', Host: 'evil.test' },
      body,
      allowHosts: allow('127.0.0.1'),
    });
    expect(response.status).toBe(207);
    expect(response.text()).toBe('<multistatus/>');
    expect(server.seen).toMatchObject([
      {
        method: 'PROPFIND',
        url: '/dav/calendars/',
        body,
        headers: {
          depth: '1',
          'content-type': 'application/xml; charset=utf-8',
          'content-length': String(body.length),
          host: `127.0.0.1:${server.port}`,
        },
      },
    ]);
  });
});

describe('guardedFetch: redirects', () => {
  it('checks every hop: a redirect from an allowed host to a loopback port that is not allowed is refused', async () => {
    const target = await localServer(answer('internal'));
    const first = await localServer((_req, res) => res.writeHead(302, { location: `${target.origin}/admin` }).end());
    const error = await refusal(guardedFetch(`${first.origin}/cal.ics`, { allowHosts: allow(`127.0.0.1:${first.port}`) }));
    expect(error.reason).toBe('blocked_address');
    expect(first.seen).toHaveLength(1);
    expect(target.connections()).toBe(0);
  });

  it('follows a redirect to an allowed host without the credentials meant for the first origin', async () => {
    const target = await localServer(answer('moved here'));
    const first = await localServer((_req, res) => res.writeHead(307, { location: `${target.origin}/new.ics` }).end());
    const response = await guardedFetch(`${first.origin}/old.ics`, {
      allowHosts: allow('127.0.0.1'),
      basicAuth: { username: 'u', password: 'p' },
      headers: { Cookie: 'session=1', 'X-Calendar': 'kept' },
    });
    expect(response).toMatchObject({ status: 200, url: `${target.origin}/new.ics` });
    expect(response.text()).toBe('moved here');
    expect(first.seen[0]!.headers).toMatchObject({ authorization: expect.stringMatching(/^Basic /), cookie: 'session=1' });
    expect(target.seen[0]!.headers).toMatchObject({ 'x-calendar': 'kept', host: `127.0.0.1:${target.port}` });
    expect(target.seen[0]!.headers.authorization).toBeUndefined();
    expect(target.seen[0]!.headers.cookie).toBeUndefined();
  });

  it('asks again with GET and no body after a 303, and keeps the method and body after a 307', async () => {
    const server = await localServer((req, res) => {
      if (req.url === '/see-other') res.writeHead(303, { location: '/result' }).end();
      else if (req.url === '/temporary') res.writeHead(307, { location: '/result' }).end();
      else res.end('done');
    });
    const options = { method: 'REPORT', body: '<report/>', headers: { 'content-type': 'application/xml' }, allowHosts: allow('127.0.0.1') };
    await guardedFetch(`${server.origin}/see-other`, options);
    await guardedFetch(`${server.origin}/temporary`, options);
    expect(server.seen.map(({ method, url, body, headers }) => [method, url, body, headers['content-type']])).toEqual([
      ['REPORT', '/see-other', '<report/>', 'application/xml'],
      ['GET', '/result', '', undefined],
      ['REPORT', '/temporary', '<report/>', 'application/xml'],
      ['REPORT', '/result', '<report/>', 'application/xml'],
    ]);
  });

  it(`follows ${MAX_REDIRECTS} redirects and refuses the next`, async () => {
    const server = await localServer((req, res) => {
      const [, limit, n] = /^\/(\d+)\/(\d+)$/.exec(req.url!)!.map(Number) as [number, number, number];
      if (n < limit) res.writeHead(301, { location: `/${limit}/${n + 1}` }).end();
      else res.end(`arrived after ${n}`);
    });
    const allowHosts = allow('127.0.0.1');
    expect((await guardedFetch(`${server.origin}/5/0`, { allowHosts })).text()).toBe('arrived after 5');
    server.seen.length = 0;
    const error = await refusal(guardedFetch(`${server.origin}/100/0`, { allowHosts }));
    expect(error).toMatchObject({
      reason: 'too_many_redirects',
      message: '127.0.0.1 redirected more than 5 times, so the request was stopped.',
    });
    expect(server.seen).toHaveLength(MAX_REDIRECTS + 1);
  });

  it('refuses a redirect to another scheme or to an address with credentials', async () => {
    const server = await localServer((req, res) => {
      const location =
        req.url === '/file' ? 'file:///etc/passwd' : req.url === '/gopher' ? 'gopher://127.0.0.1:70/' : `http://a:b@127.0.0.1/`;
      res.writeHead(302, { location }).end();
    });
    for (const path of ['/file', '/gopher', '/credentials']) {
      expect((await refusal(guardedFetch(`${server.origin}${path}`, { allowHosts: allow('127.0.0.1') }))).reason).toBe('bad_url');
    }
    expect(server.seen).toHaveLength(3);
  });
});

describe('guardedFetch: caps', () => {
  it('closes the connection as soon as the body passes the cap, on a server that would send for ever', async () => {
    let closed = false;
    const server = await localServer((_req, res) => {
      const chunk = Buffer.alloc(16 * 1024, 'a');
      const pump = () => {
        while (!closed && res.write(chunk));
        if (!closed) res.once('drain', pump);
      };
      res.on('close', () => (closed = true));
      res.writeHead(200);
      pump();
    });
    const error = await refusal(guardedFetch(`${server.origin}/`, { allowHosts: allow('127.0.0.1'), maxBodyBytes: 100_000 }));
    expect(error).toMatchObject({
      reason: 'too_large',
      message: 'The answer from 127.0.0.1 is larger than 97.7 KB, the most this server accepts.',
    });
    await expect.poll(() => closed).toBe(true);
  });

  it('refuses a declared length over the cap before reading, and takes a body of exactly the cap', async () => {
    const server = await localServer((req, res) => {
      if (req.url === '/big') res.writeHead(200, { 'content-length': String(6 * 1024 * 1024) }).write('BEGIN');
      else res.end('x'.repeat(1000));
    });
    const allowHosts = allow('127.0.0.1');
    const error = await refusal(guardedFetch(`${server.origin}/big`, { allowHosts }));
    expect(error).toMatchObject({
      reason: 'too_large',
      message: 'The answer from 127.0.0.1 is larger than 5 MB, the most this server accepts.',
    });
    expect((await guardedFetch(`${server.origin}/exact`, { allowHosts, maxBodyBytes: 1000 })).body).toHaveLength(1000);
  });

  it('gives up on a server that never answers, and on one that stops halfway through its body', async () => {
    const server = await localServer((req, res) => {
      if (req.url === '/half') res.writeHead(200, { 'content-length': '100' }).write('BEGIN:VCALENDAR');
      // /silent: never answered
    });
    for (const path of ['/silent', '/half']) {
      const error = await refusal(guardedFetch(`${server.origin}${path}`, { allowHosts: allow('127.0.0.1'), timeoutMs: 300 }));
      expect(error).toMatchObject({ reason: 'timeout', message: '127.0.0.1 did not answer within 0.3 seconds.' });
    }
  });

  it('gives up on a connection whose TLS handshake never completes within the connect time', async () => {
    const silent = net.createServer(() => {}); // takes the connection, never answers the handshake
    closers.push(async () => {
      for (const socket of sockets) socket.destroy();
    });
    const sockets: net.Socket[] = [];
    silent.on('connection', (socket) => sockets.push(socket));
    const port = await listen(silent, '127.0.0.1');
    const error = await refusal(guardedFetch(`https://127.0.0.1:${port}/`, { allowHosts: allow('127.0.0.1'), connectTimeoutMs: 200 }));
    expect(error).toMatchObject({ reason: 'timeout', message: 'Could not connect to 127.0.0.1 within 0.2 seconds.' });
  });
});

describe('webcal', () => {
  it('reads webcal:// and webcals:// as https:// only when asked', () => {
    expect(requestUrl('webcal://Calendar.Example.com/feed/abc.ics?t=1', { webcal: true }).href).toBe(
      'https://calendar.example.com/feed/abc.ics?t=1',
    );
    expect(requestUrl('webcals://calendar.example.com:8443/x.ics', { webcal: true }).href).toBe('https://calendar.example.com:8443/x.ics');
    expect(requestUrl('  https://calendar.example.com/x.ics ', { webcal: true }).href).toBe('https://calendar.example.com/x.ics');
    expect(() => requestUrl('webcal://calendar.example.com/x.ics')).toThrowError(
      new OutboundError('bad_url', 'The address must start with https:// or http://.'),
    );
    expect(() => requestUrl('webcal://u:p@calendar.example.com/x.ics', { webcal: true })).toThrow(OutboundError);
  });

  it('opens TLS to the checked address with the name as the server name', async () => {
    // A bare TCP server: what the client sends first shows whether it speaks TLS, and for which name.
    const received: Buffer[] = [];
    const tcp = net.createServer((socket) => {
      socket.once('data', (hello: Buffer) => {
        received.push(hello);
        socket.destroy();
      });
    });
    const port = await listen(tcp, '127.0.0.1');
    const error = await refusal(
      guardedFetch(`webcal://calendar.test:${port}/cal.ics`, {
        webcal: true,
        lookupAddresses: async () => ['127.0.0.1'],
        allowHosts: allow(`calendar.test:${port}`),
      }),
    );
    expect(['network', 'tls']).toContain(error.reason);
    expect(received).toHaveLength(1);
    expect(received[0]![0]).toBe(0x16); // a TLS handshake record: the ClientHello
    expect(received[0]!.includes('calendar.test')).toBe(true);
  });
});
