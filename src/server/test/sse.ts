import { Waiters } from './waiters.ts';

/** Reads Server-Sent Events from a fetch Response, for tests. */
export type SseEvent = { event: string; data: string; id?: string };

/**
 * Takes every complete event (ended by a blank line) off the front of `buffer`; returns
 * those with data and what is left of the buffer.
 */
function takeEvents(buffer: string): { events: SseEvent[]; rest: string } {
  const events: SseEvent[] = [];
  let end: number;
  while ((end = buffer.indexOf('\n\n')) >= 0) {
    const block = buffer.slice(0, end);
    buffer = buffer.slice(end + 2);
    const e: SseEvent = { event: 'message', data: '' };
    let hasData = false;
    for (const line of block.split('\n')) {
      if (line.startsWith('event:')) e.event = line.slice(6).trim();
      else if (line.startsWith('data:')) {
        e.data += (hasData ? '\n' : '') + line.slice(5).trimStart();
        hasData = true;
      } else if (line.startsWith('id:')) e.id = line.slice(3).trim();
    }
    if (hasData) events.push(e);
  }
  return { events, rest: buffer };
}

/**
 * Reads a response's SSE events one by one. `change` events (lists to refetch) are skipped
 * unless `ignore` says otherwise: most tests are about notifications.
 */
export function sseReader(res: Response, { ignore = ['change'] }: { ignore?: string[] } = {}) {
  const reader = res.body!.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = '';
  const events: SseEvent[] = [];

  async function next(timeoutMs = 5000): Promise<SseEvent> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const queued = events.shift();
      if (queued) return queued;
      const remaining = deadline - Date.now();
      if (remaining <= 0) throw new Error('no SSE event in time');
      const chunk = await Promise.race([
        reader.read(),
        new Promise<never>((_, reject) => setTimeout(() => reject(new Error('no SSE event in time')), remaining)),
      ]);
      if (chunk.done) throw new Error('SSE stream ended');
      const taken = takeEvents(buffer + chunk.value);
      buffer = taken.rest;
      events.push(...taken.events.filter((e) => !ignore.includes(e.event)));
    }
  }

  return { next, cancel: () => reader.cancel().catch(() => {}) };
}

/**
 * A stream client that behaves like a browser's EventSource under faults: whenever the
 * connection fails, ends or is refused (the server killed, restarting or answering 503),
 * it reconnects after `retryMs`. Every event is kept with the number of its connection.
 */
export function reconnectingSse(url: string, headers: Record<string, string>, retryMs = 200) {
  const events: (SseEvent & { connection: number })[] = [];
  const waiters = new Waiters();
  const controller = new AbortController();
  let connections = 0;
  const notify = () => waiters.notify();

  const readOnce = async () => {
    const res = await fetch(url, { headers, signal: controller.signal });
    if (res.status !== 200 || !res.body) {
      await res.body?.cancel();
      return;
    }
    const connection = ++connections;
    let buffer = '';
    const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
    for (;;) {
      const chunk = await reader.read();
      if (chunk.done) return;
      const taken = takeEvents(buffer + chunk.value);
      buffer = taken.rest;
      if (taken.events.length > 0) {
        events.push(...taken.events.map((e) => ({ ...e, connection })));
        notify();
      }
    }
  };

  void (async () => {
    while (!controller.signal.aborted) {
      try {
        await readOnce();
      } catch {
        // refused, reset or aborted: like EventSource, try again
      }
      if (!controller.signal.aborted) await new Promise((r) => setTimeout(r, retryMs));
    }
  })();

  /** Resolves with the first event from index `from` on that matches, or rejects after `timeoutMs`. */
  function waitFor(match: (e: SseEvent & { connection: number }) => boolean, from = 0, timeoutMs = 10_000) {
    return waiters.until(
      () => events.slice(from).find(match),
      timeoutMs,
      () => `no matching SSE event within ${timeoutMs} ms (${connections} connections, ${events.length} events)`,
    );
  }

  return {
    events,
    waitFor,
    get connections() {
      return connections;
    },
    close: () => controller.abort(),
  };
}
