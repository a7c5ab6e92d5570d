import type { SSEStreamingApi } from 'hono/streaming';
import { describe, expect, it } from 'vitest';
import type { Notification } from '#shared/schemas/notification';
import { NotificationHub } from './notification-hub.ts';
import { serveNotificationStream, type SessionCheck } from './notification-stream.ts';

/** What a browser would read from the stream, and the controls a real SSE stream has. */
function fakeStream() {
  const written: string[] = [];
  let abortHandler: (() => void) | undefined;
  const stream = {
    aborted: false,
    writeSSE: async (m: { event?: string; data: string; id?: string }) => {
      written.push(`${m.event}:${m.event === 'notification' ? (JSON.parse(m.data) as Notification).message : m.data}`);
    },
    write: async (text: string) => {
      written.push(text.trim());
    },
    onAbort: (handler: () => void) => {
      abortHandler = handler;
    },
  };
  return {
    stream: stream as unknown as SSEStreamingApi,
    written,
    abort: () => {
      stream.aborted = true;
      abortHandler?.();
    },
  };
}

const notification = (message: string): Notification => ({
  id: crypto.randomUUID(),
  type: 'lead',
  message,
  read: false,
  created_at: new Date().toISOString(),
});

const until = async (condition: () => boolean, timeoutMs = 2000) => {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 5));
  }
};

describe('serveNotificationStream', () => {
  it("sends ready, then this user's notifications in order and nobody else's", async () => {
    const hub = new NotificationHub(10_000);
    const { stream, written, abort } = fakeStream();
    const served = serveNotificationStream(stream, hub, 'ann', async () => true);
    await until(() => written.length === 1);
    hub.publish('ann', notification('first'));
    hub.publish('bob', notification('for someone else'));
    hub.publish('ann', notification('second'));
    await until(() => written.length === 3);
    abort();
    await served;
    expect(written).toEqual(['ready:{}', 'notification:first', 'notification:second']);
    expect(hub.connectionCount).toBe(0);
  });

  it('sends ready again when the hub says notifications may have been missed', async () => {
    const hub = new NotificationHub(10_000);
    const { stream, written, abort } = fakeStream();
    const served = serveNotificationStream(stream, hub, 'ann', async () => true);
    await until(() => written.length === 1);
    hub.resyncAllStreams();
    await until(() => written.length === 2);
    abort();
    await served;
    expect(written).toEqual(['ready:{}', 'ready:{}']);
  });

  it('keeps an idle stream alive while the session holds, or while the database cannot say', async () => {
    const hub = new NotificationHub(20);
    const { stream, written, abort } = fakeStream();
    const answers: Awaited<ReturnType<SessionCheck>>[] = [true, 'unknown', true];
    let checks = 0;
    const served = serveNotificationStream(stream, hub, 'ann', async () => answers[Math.min(checks++, answers.length - 1)]!);
    await until(() => written.length >= 4);
    abort();
    await served;
    expect(written.slice(0, 4)).toEqual(['ready:{}', ': keep-alive', ': keep-alive', ': keep-alive']);
  });

  it('ends within one heartbeat once the session has ended, and stops listening', async () => {
    const hub = new NotificationHub(20);
    const { stream, written } = fakeStream();
    let valid = true;
    const served = serveNotificationStream(stream, hub, 'ann', async () => valid);
    await until(() => written.length >= 2);
    valid = false;
    await served; // resolves by itself: the stream is over
    expect(written.at(-1)).toBe(': keep-alive');
    expect(hub.connectionCount).toBe(0);
    hub.publish('ann', notification('too late'));
    expect(written).not.toContain('notification:too late');
  });

  it('ends when the server closes every stream (shutdown)', async () => {
    const hub = new NotificationHub(10_000);
    const { stream, written } = fakeStream();
    const served = serveNotificationStream(stream, hub, 'ann', async () => true);
    await until(() => written.length === 1);
    hub.closeAllStreams();
    await served;
    expect(hub.connectionCount).toBe(0);
  });
});
