import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** What one path answers: a calendar's text, a status, a redirect, or nothing at all (a server that hangs). */
export type CalendarAnswer =
  | { ics: string }
  | { status: number; body?: string }
  | { redirect: string }
  | { hang: true }
  | { bytes: number };

/**
 * A calendar server on this machine's loopback (127.0.0.1, its port from listen(0)) whose
 * answers a test sets per path, counting the requests each path got. Nothing leaves the machine.
 */
export async function startCalendarServer() {
  const answers = new Map<string, CalendarAnswer>();
  const hits = new Map<string, number>();
  const hanging = new Set<ServerResponse>();
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    hits.set(path, (hits.get(path) ?? 0) + 1);
    const answer = answers.get(path) ?? { status: 404, body: 'Not Found' };
    if ('hang' in answer) {
      hanging.add(res);
      res.on('close', () => hanging.delete(res));
      return;
    }
    if ('redirect' in answer) {
      res.writeHead(302, { location: answer.redirect }).end();
      return;
    }
    if ('bytes' in answer) {
      res.writeHead(200, { 'content-type': 'text/calendar' });
      const chunk = Buffer.alloc(64 * 1024, 'A');
      let left = answer.bytes;
      const write = () => {
        while (left > 0) {
          left -= chunk.length;
          if (!res.write(chunk)) return void res.once('drain', write);
        }
        res.end();
      };
      res.on('error', () => {});
      write();
      return;
    }
    if ('ics' in answer) {
      res.writeHead(200, { 'content-type': 'text/calendar; charset=utf-8' }).end(answer.ics);
      return;
    }
    res.writeHead(answer.status, { 'content-type': 'text/plain' }).end(answer.body ?? '');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    port,
    /** http://127.0.0.1:<port><path> */
    url: (path: string) => `http://127.0.0.1:${port}${path}`,
    set: (path: string, answer: CalendarAnswer) => void answers.set(path, answer),
    hitsOf: (path: string) => hits.get(path) ?? 0,
    close: async () => {
      for (const res of hanging) res.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** An iCalendar document of `events` (each its VEVENT lines), as Google writes one. */
export const icsOf = (...events: string[][]) =>
  [
    'BEGIN:VCALENDAR',
    'VERSION:2.0',
    'PRODID:-//Test//Calendar//EN',
    ...events.flatMap((lines) => ['BEGIN:VEVENT', ...lines, 'END:VEVENT']),
    'END:VCALENDAR',
    '',
  ].join('\r\n');

/** 20261201T150000Z: an instant as iCalendar's UTC form. */
export const icsUtc = (ms: number) =>
  new Date(ms)
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d{3}/, '');
