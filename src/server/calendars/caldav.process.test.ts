import http from 'node:http';
import net, { type AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseAllowHosts, type AllowedHost } from '../outbound/address-policy.ts';
import { OutboundError } from '../outbound/outbound-error.ts';
import { icsOf } from '../test/calendar-server.ts';
import { hasRadicale, type Radicale, startRadicale } from '../test/radicale.ts';
import { CalDavError, type CalDavFetchOptions, deleteEvent, discoverCalendars, fetchEvents, putEvent, resourceName } from './caldav.ts';
import { busyFromIcs } from './ics-busy.ts';

// Every request goes to Radicale on 127.0.0.1 (or to a listener of this file there), and the
// lookup handed to guardedFetch answers that address only, so nothing leaves the machine.

const at = (iso: string) => Date.parse(iso);
/** Monday 6 January 2030 to Monday 21 January 2030, UTC. */
const WINDOW = { start: at('2030-01-06T00:00:00Z'), end: at('2030-01-21T00:00:00Z') };
const UTC = { defaultTimeZone: 'UTC' };

const event = (uid: string, start: string, end: string, ...more: string[]) =>
  icsOf([`UID:${uid}`, 'DTSTAMP:20291201T000000Z', `DTSTART:${start}`, `DTEND:${end}`, `SUMMARY:${uid}`, ...more]);

/** An HTTP server on 127.0.0.1 answering each request with `handle`, closed after the file. */
const closers: (() => Promise<void>)[] = [];
afterAll(async () => {
  await Promise.all(closers.map((close) => close()));
});
async function localServer(handle: (req: http.IncomingMessage, res: http.ServerResponse) => void): Promise<number> {
  const server = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => handle(req, res));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  closers.push(async () => {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });
  return (server.address() as AddressInfo).port;
}
const allowing = (...ports: number[]) => parseAllowHosts(ports.map((port) => `127.0.0.1:${port}`).join(',')) as AllowedHost[];

let radicale: Radicale;
let fetchOptions: CalDavFetchOptions;
let alice: { url: string; username: string; password: string };

describe.skipIf(!hasRadicale && process.env.CI !== 'true')('CalDAV against Radicale', () => {
  beforeAll(async () => {
    if (!hasRadicale) throw new Error('CI=true needs Radicale (/usr/bin/radicale, Debian package radicale)');
    radicale = await startRadicale(['alice', 'bob']);
    fetchOptions = {
      allowHosts: parseAllowHosts(`127.0.0.1:${radicale.port}`) as AllowedHost[],
      lookupAddresses: async (name) => (name === '127.0.0.1' ? ['127.0.0.1'] : []),
      timeoutMs: 5000,
    };
    const { name, password } = radicale.users[0]!;
    alice = { url: radicale.url, username: name, password };
    await radicale.makeCalendar('alice', 'work', { displayName: 'Work', color: '#FF2968FF' });
    await radicale.makeCalendar('alice', 'home', { displayName: 'Home & family', components: ['VEVENT', 'VTODO'] });
    await radicale.makeCalendar('alice', 'tasks', { displayName: 'Tasks', components: ['VTODO'] });
    await radicale.makeCalendar('bob', 'bobs', { displayName: "Bob's" });
  }, 30_000);
  afterAll(async () => {
    await radicale?.stop();
  });

  it("discovers the user's event calendars from the server's root, with names, colours and write access", async () => {
    const { calendars } = await discoverCalendars(alice, fetchOptions);
    expect(calendars.sort((a, b) => a.name.localeCompare(b.name))).toEqual([
      { url: `${radicale.url}alice/home/`, name: 'Home & family', canWrite: true },
      { url: `${radicale.url}alice/work/`, name: 'Work', color: '#ff2968', canWrite: true },
    ]);
  });

  it('discovers through /.well-known/caldav when the given address is not a CalDAV collection', async () => {
    const { calendars } = await discoverCalendars({ ...alice, url: `${radicale.url}not-here/at-all` }, fetchOptions);
    expect(calendars.map((c) => c.name).sort()).toEqual(['Home & family', 'Work']);
  });

  it('answers a calendar address as that calendar', async () => {
    const { calendars } = await discoverCalendars({ ...alice, url: `${radicale.url}alice/work/` }, fetchOptions);
    expect(calendars).toEqual([{ url: `${radicale.url}alice/work/`, name: 'Work', color: '#ff2968', canWrite: true }]);
  });

  it('refuses a wrong password with a CalDavError about the username or password, naming no path or secret', async () => {
    const error = await discoverCalendars({ ...alice, password: 'not-the-password' }, fetchOptions).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(CalDavError);
    expect(error).toMatchObject({ reason: 'auth', status: 401 });
    const { message } = error as CalDavError;
    expect(message).toMatch(/username or password/);
    expect(message).toContain('127.0.0.1');
    expect(message).not.toMatch(/not-the-password|alice|\//);
  });

  it('reads the events with an instance inside the window only, which busyFromIcs reads as busy times', async () => {
    await radicale.makeCalendar('alice', 'window', { displayName: 'Window' });
    await radicale.putRawEvent('alice', 'window', 'inside', event('inside', '20300107T090000Z', '20300107T100000Z'));
    await radicale.putRawEvent(
      'alice',
      'window',
      'weekly',
      event('weekly', '20291203T140000Z', '20291203T150000Z', 'RRULE:FREQ=WEEKLY;BYDAY=MO', 'EXDATE:20300114T140000Z'),
    );
    await radicale.putRawEvent('alice', 'window', 'outside', event('outside', '20300210T090000Z', '20300210T100000Z'));

    const texts = await fetchEvents(`${radicale.url}alice/window/`, alice, WINDOW, fetchOptions);
    expect(texts.map((text) => /^UID:(.*)$/m.exec(text)?.[1]?.trim()).sort()).toEqual(['inside', 'weekly']);
    expect(busyFromIcs(texts.join('\r\n'), WINDOW, UTC)).toEqual({
      busy: [
        { start: at('2030-01-07T09:00:00Z'), end: at('2030-01-07T10:00:00Z') },
        { start: at('2030-01-07T14:00:00Z'), end: at('2030-01-07T15:00:00Z') },
      ],
      warnings: [],
    });
  });

  it('writes an event, replaces it under the same uid, deletes it, and deleting again is fine', async () => {
    const calendar = await radicale.makeCalendar('alice', 'writes', { displayName: 'Writes' });
    const uid = 'meeting/42 @crm.example';
    const written = await putEvent(calendar, alice, { uid, ics: event(uid, '20300108T090000Z', '20300108T093000Z') }, fetchOptions);
    expect(written.url).toBe(`${calendar}${resourceName(uid)}.ics`);
    expect(written.url.slice(calendar.length)).toMatch(/^[A-Za-z0-9_.@-]+\.ics$/);
    expect(written.etag).toMatch(/^"/);
    const busyNow = async () => busyFromIcs((await fetchEvents(calendar, alice, WINDOW, fetchOptions)).join('\r\n'), WINDOW, UTC).busy;
    expect(await busyNow()).toEqual([{ start: at('2030-01-08T09:00:00Z'), end: at('2030-01-08T09:30:00Z') }]);

    const moved = await putEvent(calendar, alice, { uid, ics: event(uid, '20300109T110000Z', '20300109T120000Z') }, fetchOptions);
    expect(moved.url).toBe(written.url);
    expect(moved.etag).not.toBe(written.etag);
    expect(await fetchEvents(calendar, alice, WINDOW, fetchOptions)).toHaveLength(1);
    expect(await busyNow()).toEqual([{ start: at('2030-01-09T11:00:00Z'), end: at('2030-01-09T12:00:00Z') }]);

    await deleteEvent(written.url, alice, fetchOptions);
    expect(await fetchEvents(calendar, alice, WINDOW, fetchOptions)).toEqual([]);
    await expect(deleteEvent(written.url, alice, fetchOptions)).resolves.toBeUndefined();
  });

  it("refuses another user's calendar with a CalDavError, not as a wrong password", async () => {
    const error = await fetchEvents(`${radicale.url}bob/bobs/`, alice, WINDOW, fetchOptions).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(CalDavError);
    expect(error).toMatchObject({ reason: 'forbidden', status: 403 });
  });

  it('answers a calendar that is not there as not found, without its path', async () => {
    const error = await fetchEvents(`${radicale.url}alice/no-such-calendar/`, alice, WINDOW, fetchOptions).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(CalDavError);
    expect(error).toMatchObject({ reason: 'not_found', status: 404 });
    expect((error as CalDavError).message).not.toContain('no-such-calendar');
  });

  it('refuses a loopback port that is not allowed before any request is made', async () => {
    let connections = 0;
    const server = net.createServer((socket) => {
      connections++;
      socket.destroy();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    try {
      const error = await fetchEvents(`http://127.0.0.1:${port}/alice/work/`, alice, WINDOW, fetchOptions).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(OutboundError);
      expect(error).toMatchObject({ reason: 'blocked_address' });
      const discovery = await discoverCalendars({ ...alice, url: `http://127.0.0.1:${port}/` }, fetchOptions).catch((e: unknown) => e);
      expect(discovery).toMatchObject({ reason: 'blocked_address' });
      expect(connections).toBe(0);
    } finally {
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });

  it('signs in again where a well-known address sends the request on another origin', async () => {
    const port = await localServer((req, res) => {
      res.writeHead(301, { location: `${radicale.url}` }).end();
    });
    const options = { ...fetchOptions, allowHosts: allowing(port, radicale.port) };
    // guardedFetch sends no credentials to the second origin: without signing in again there, this is a 401.
    const { calendars } = await discoverCalendars({ ...alice, url: `http://127.0.0.1:${port}/.well-known/caldav` }, options);
    expect(calendars.map((c) => c.url)).toContain(`${radicale.url}alice/work/`);
  });
});

describe('CalDAV answers of other servers', () => {
  const account = { username: 'someone@example.com', password: 'app-password' };
  const lookupAddresses = async (name: string) => (name === '127.0.0.1' ? ['127.0.0.1'] : []);

  it("refuses what is not a web address with guardedFetch's own error", async () => {
    const options = { allowHosts: [], lookupAddresses };
    await expect(discoverCalendars({ ...account, url: 'caldav.example.com' }, options)).rejects.toMatchObject({ reason: 'bad_url' });
    await expect(putEvent('not an address', account, { uid: 'a', ics: '' }, options)).rejects.toBeInstanceOf(OutboundError);
  });

  it('says a server that answers a web page does not offer CalDAV there', async () => {
    const port = await localServer((_req, res) => void res.writeHead(200, { 'content-type': 'text/html' }).end('<html>Welcome</html>'));
    const error = await discoverCalendars(
      { ...account, url: `http://127.0.0.1:${port}/dav` },
      { allowHosts: allowing(port), lookupAddresses },
    ).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(CalDavError);
    expect(error).toMatchObject({ reason: 'not_caldav', message: 'This server does not offer CalDAV at that address.' });
  });

  it('reads prefixed XML, CDATA and entities, keeps event calendars only, and reads write access from the privileges', async () => {
    const multistatus = (body: string) =>
      `<?xml version="1.0"?>\n<D:multistatus xmlns:D="DAV:" xmlns:cal="urn:ietf:params:xml:ns:caldav" xmlns:ic="http://apple.com/ns/ical/">${body}</D:multistatus>`;
    const ok = (href: string, props: string) =>
      `<D:response><D:href>${href}</D:href><D:propstat><D:prop>${props}</D:prop><D:status>HTTP/1.1 200 OK</D:status></D:propstat>` +
      `<D:propstat><D:prop><D:displayname/></D:prop><D:status>HTTP/1.1 404 Not Found</D:status></D:propstat></D:response>`;
    const calendar = (comps: string, privileges: string) =>
      `<D:resourcetype><D:collection/><cal:calendar/></D:resourcetype><cal:supported-calendar-component-set>${comps}</cal:supported-calendar-component-set>` +
      `<D:current-user-privilege-set>${privileges}</D:current-user-privilege-set>`;
    const answers: Record<string, string> = {
      '/': multistatus(ok('/', '<D:current-user-principal><D:href>/123/principal/</D:href></D:current-user-principal>')),
      '/123/principal/': multistatus(
        ok('/123/principal/', '<cal:calendar-home-set><D:href>/123/calendars/</D:href></cal:calendar-home-set>'),
      ),
      '/123/calendars/': multistatus(
        ok('/123/calendars/', '<D:resourcetype><D:collection/></D:resourcetype>') +
          ok(
            '/123/calendars/shared/',
            `<D:displayname><![CDATA[Team <shared>]]></D:displayname><ic:calendar-color>#0E61B9</ic:calendar-color>${calendar('<cal:comp name="VEVENT"/>', '<D:privilege><D:read/></D:privilege>')}`,
          ) +
          ok(
            '/123/calendars/mine/',
            `<D:displayname>Mine &amp; ours</D:displayname>${calendar('<cal:comp name="VEVENT"/><cal:comp name="VTODO"/>', '<D:privilege><D:read/></D:privilege><D:privilege><D:write-content/></D:privilege>')}`,
          ) +
          ok(
            '/123/calendars/reminders/',
            `<D:displayname>Reminders</D:displayname>${calendar('<cal:comp name="VTODO"/>', '<D:privilege><D:all/></D:privilege>')}`,
          ) +
          ok('/123/calendars/inbox/', '<D:resourcetype><D:collection/><cal:schedule-inbox/></D:resourcetype>'),
      ),
    };
    const port = await localServer((req, res) => {
      const body = answers[req.url ?? ''];
      if (req.method !== 'PROPFIND' || body === undefined) return void res.writeHead(404).end();
      res.writeHead(207, { 'content-type': 'application/xml; charset=utf-8' }).end(body);
    });
    const { calendars } = await discoverCalendars(
      { ...account, url: `http://127.0.0.1:${port}/` },
      { allowHosts: allowing(port), lookupAddresses },
    );
    expect(calendars).toEqual([
      { url: `http://127.0.0.1:${port}/123/calendars/shared/`, name: 'Team <shared>', color: '#0e61b9', canWrite: false },
      { url: `http://127.0.0.1:${port}/123/calendars/mine/`, name: 'Mine & ours', canWrite: true },
    ]);
  });
});
