import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { freePort, retryOnTakenPort, tempDir, keepOutput } from './process.ts';

/**
 * Radicale (Debian's package), a real CalDAV server on this machine's loopback, for the tests of
 * the CalDAV client. Each user signs in with HTTP basic authentication (passwords in a plain
 * htpasswd file: test users only) and sees only their own collections (`owner_only`). Its
 * collections live in a temporary directory, removed after the test file.
 */

export const RADICALE = '/usr/bin/radicale';
export const hasRadicale = existsSync(RADICALE);

export type RadicaleUser = { name: string; password: string };

export type Radicale = {
  /** http://127.0.0.1:<port>/ */
  url: string;
  port: number;
  users: RadicaleUser[];
  /** Creates a calendar collection (MKCALENDAR) of `user` and answers its URL. */
  makeCalendar: (user: string, name: string, options?: { displayName?: string; color?: string; components?: string[] }) => Promise<string>;
  /** Stores `ics` as the event resource `<uid>.ics` of the calendar, as another client would. */
  putRawEvent: (user: string, calendar: string, uid: string, ics: string) => Promise<void>;
  /** The whole calendar collection of `user` as one iCalendar text (Radicale answers a GET on a collection so). */
  readCalendar: (user: string, calendar: string) => Promise<string>;
  output: () => string;
  stop: () => Promise<void>;
};

/**
 * A running Radicale with `userNames` as its users, each with a new random password. Its port is
 * written into its configuration, so it is probed free first and Radicale started again on
 * another should someone take it meanwhile.
 */
export function startRadicale(userNames: string[] = ['alice']): Promise<Radicale> {
  const users = userNames.map((name) => ({ name, password: randomBytes(12).toString('hex') }));
  const dir = tempDir('radicale');
  writeFileSync(path.join(dir, 'users'), users.map((u) => `${u.name}:${u.password}\n`).join(''));
  mkdirSync(path.join(dir, 'collections'));
  return retryOnTakenPort(() => startOnce(dir, users));
}

async function startOnce(dir: string, users: RadicaleUser[]): Promise<Radicale> {
  const port = await freePort();
  const configFile = path.join(dir, 'config');
  writeFileSync(
    configFile,
    [
      '[server]',
      `hosts = 127.0.0.1:${port}`,
      '[auth]',
      'type = htpasswd',
      `htpasswd_filename = ${path.join(dir, 'users')}`,
      'htpasswd_encryption = plain',
      // Radicale waits this long after a refused password; the tests refuse one on purpose.
      'delay = 0',
      '[rights]',
      'type = owner_only',
      '[storage]',
      `filesystem_folder = ${path.join(dir, 'collections')}`,
      '[web]',
      'type = none',
      '',
    ].join('\n'),
  );
  const child: ChildProcess = spawn(RADICALE, ['--config', configFile], {
    env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: dir },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const { output, exited } = keepOutput(child, 100_000);
  const url = `http://127.0.0.1:${port}/`;
  const passwordOf = (user: string) => {
    const found = users.find((u) => u.name === user);
    if (!found) throw new Error(`No Radicale user ${user}`);
    return found.password;
  };
  const request = async (user: string, pathname: string, init: { method: string; contentType?: string; body?: string }) => {
    const res = await fetch(new URL(pathname, url), {
      method: init.method,
      headers: {
        authorization: `Basic ${Buffer.from(`${user}:${passwordOf(user)}`).toString('base64')}`,
        ...(init.contentType && { 'content-type': init.contentType }),
      },
      ...(init.body !== undefined && { body: init.body }),
    });
    const text = await res.text();
    if (!res.ok) throw new Error(`${init.method} ${pathname}: ${res.status} ${text}`);
    return text;
  };
  const radicale: Radicale = {
    url,
    port,
    users,
    async makeCalendar(user, name, options = {}) {
      const pathname = `/${encodeURIComponent(user)}/${encodeURIComponent(name)}/`;
      const props = [
        options.displayName === undefined ? '' : `<d:displayname>${xmlText(options.displayName)}</d:displayname>`,
        options.color === undefined ? '' : `<a:calendar-color>${xmlText(options.color)}</a:calendar-color>`,
        `<c:supported-calendar-component-set>${(options.components ?? ['VEVENT']).map((c) => `<c:comp name="${c}"/>`).join('')}</c:supported-calendar-component-set>`,
      ].join('');
      await request(user, pathname, {
        method: 'MKCALENDAR',
        contentType: 'application/xml; charset=utf-8',
        body: `<?xml version="1.0" encoding="utf-8"?><c:mkcalendar xmlns:d="DAV:" xmlns:c="urn:ietf:params:xml:ns:caldav" xmlns:a="http://apple.com/ns/ical/"><d:set><d:prop>${props}</d:prop></d:set></c:mkcalendar>`,
      });
      return new URL(pathname, url).href;
    },
    async putRawEvent(user, calendar, uid, ics) {
      const pathname = `/${encodeURIComponent(user)}/${encodeURIComponent(calendar)}/${encodeURIComponent(uid)}.ics`;
      await request(user, pathname, { method: 'PUT', contentType: 'text/calendar; charset=utf-8', body: ics });
    },
    readCalendar: (user, calendar) => request(user, `/${encodeURIComponent(user)}/${encodeURIComponent(calendar)}/`, { method: 'GET' }),
    output,
    stop: async () => {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill('SIGTERM');
        await exited;
      }
    },
  };
  const deadline = Date.now() + 15_000;
  for (;;) {
    // Exited before answering: on a taken port its output says "Address already in use" (retried).
    if (child.exitCode !== null) throw new Error(`radicale exited (${child.exitCode}):\n${output()}`);
    try {
      await fetch(url, { signal: AbortSignal.timeout(1000) });
      return radicale;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      await radicale.stop();
      throw new Error(`radicale did not answer within 15 s:\n${output()}`);
    }
    // A real process must start meanwhile: there is nothing to wait on but its port.
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

const xmlText = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
