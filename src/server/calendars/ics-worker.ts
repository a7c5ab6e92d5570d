/**
 * The worker thread read-ics.ts reads calendars in: busyFromIcs for each request, one at a
 * time, so a large or hostile calendar spends this thread's time and memory, never the
 * server's event loop. Built on its own (scripts/build-server.mjs: dist/server/calendars/ics-worker.js).
 */
import { parentPort } from 'node:worker_threads';
import { busyFromIcs } from './ics-busy.ts';
import { IcsError } from './ics-error.ts';
import type { IcsReply, IcsRequest } from './read-ics.ts';

const port = parentPort;
if (!port) throw new Error('ics-worker runs as a worker thread, started by read-ics.ts.');

port.on('message', ({ id, text, window, options }: IcsRequest) => {
  let reply: IcsReply;
  try {
    reply = { id, read: busyFromIcs(text, window, options) };
  } catch (error) {
    const { name, message } = error instanceof Error ? error : new Error(String(error));
    reply = { id, error: { name: error instanceof IcsError ? 'IcsError' : name, message } };
  }
  port.postMessage(reply);
});
