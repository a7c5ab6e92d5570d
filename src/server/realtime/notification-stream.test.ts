import type { SSEStreamingApi } from 'hono/streaming';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Notification } from '#shared/schemas/notification';
import { NotificationHub } from './notification-hub.ts';
import { serveNotificationStream, type SessionCheck, type StreamSession } from './notification-stream.ts';

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

const session = (holds: SessionCheck, key = 'ann-session'): StreamSession => ({ key, holds });

// Heartbeats, session checks and slow checks are the subject: the clock is fake, and moved on
// 5 ms at a time while a test waits for what the stream writes.
beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

/** Moves the fake clock on until `condition` holds; fails after `timeoutMs` of it. */
const until = async (condition: () => boolean, timeoutMs = 2000) => {
  for (let waited = 0; !condition(); waited += 5) {
    if (waited > timeoutMs) throw new Error('condition not met in time');
    await vi.advanceTimersByTimeAsync(5);
  }
};

/** `served` once it has finished, moving the fake clock on meanwhile. */
const finished = async <T>(served: Promise<T>): Promise<T> => {
  let done = false;
  void served.then(
    () => (done = true),
    () => (done = true),
  );
  await until(() => done);
  return served;
};

describe('serveNotificationStream', () => {
  it("sends ready, then this user's notifications in order and nobody else's", async () => {
    const hub = new NotificationHub(10_000);
    const { stream, written, abort } = fakeStream();
    const served = serveNotificationStream(
      stream,
      hub,
      'ann',
      session(async () => true),
    );
    await until(() => written.length === 1);
    hub.publish('ann', notification('first'));
    hub.publish('bob', notification('for someone else'));
    hub.publish('ann', notification('second'));
    await until(() => written.length === 3);
    abort();
    await finished(served);
    expect(written).toEqual(['ready:{}', 'notification:first', 'notification:second']);
    expect(hub.connectionCount).toBe(0);
  });

  it("asks once per session, not once per tab, before delivering a notification to the session's streams", async () => {
    const hub = new NotificationHub(10_000, { sessionCheckMs: 60_000 });
    let checks = 0;
    const shared = session(async () => {
      checks++;
      await new Promise((r) => setTimeout(r, 10));
      return true;
    });
    const tabs = Array.from({ length: 10 }, () => fakeStream());
    const served = tabs.map((t) => serveNotificationStream(t.stream, hub, 'ann', shared));
    await until(() => tabs.every((t) => t.written.length === 1));
    hub.publish('ann', notification('to every tab'));
    await until(() => tabs.every((t) => t.written.length === 2));
    expect(checks).toBe(1);
    // A later notification is checked afresh: the session may have ended since.
    hub.publish('ann', notification('later'));
    await until(() => tabs.every((t) => t.written.length === 3));
    expect(checks).toBe(2);
    for (const t of tabs) t.abort();
    await finished(Promise.all(served));
  });

  it('sends ready again when the hub says notifications may have been missed', async () => {
    const hub = new NotificationHub(10_000);
    const { stream, written, abort } = fakeStream();
    const served = serveNotificationStream(
      stream,
      hub,
      'ann',
      session(async () => true),
    );
    await until(() => written.length === 1);
    hub.resyncAllStreams();
    await until(() => written.length === 2);
    abort();
    await finished(served);
    expect(written).toEqual(['ready:{}', 'ready:{}']);
  });

  it('keeps an idle stream alive while the session holds, or while the database cannot say', async () => {
    const hub = new NotificationHub(20, { sessionCheckMs: 20 });
    const { stream, written, abort } = fakeStream();
    const answers: Awaited<ReturnType<SessionCheck>>[] = [true, 'unknown', true];
    let checks = 0;
    const served = serveNotificationStream(
      stream,
      hub,
      'ann',
      session(async () => answers[Math.min(checks++, answers.length - 1)]!),
    );
    await until(() => written.length >= 4 && checks >= 3);
    abort();
    await finished(served);
    expect(written.slice(0, 4)).toEqual(['ready:{}', ': keep-alive', ': keep-alive', ': keep-alive']);
  });

  it('ends within one session check once the session has ended, and stops listening', async () => {
    const hub = new NotificationHub(10_000, { sessionCheckMs: 20 });
    const { stream, written } = fakeStream();
    let valid = true;
    const served = serveNotificationStream(
      stream,
      hub,
      'ann',
      session(async () => valid),
    );
    await until(() => written.length === 1);
    valid = false;
    await finished(served); // resolves by itself: the stream is over
    expect(written).toEqual(['ready:{}']);
    expect(hub.connectionCount).toBe(0);
    expect(hub.streamCount()).toBe(0);
    hub.publish('ann', notification('too late'));
    expect(written).not.toContain('notification:too late');
  });

  it('delivers nothing to a session that ended elsewhere, even before the next periodic check', async () => {
    const hub = new NotificationHub(10_000, { sessionCheckMs: 60_000 });
    const { stream, written } = fakeStream();
    let valid = true;
    const served = serveNotificationStream(
      stream,
      hub,
      'ann',
      session(async () => valid),
    );
    await until(() => written.length === 1);
    valid = false; // e.g. npm run admin -- reset-password, in another process
    hub.publish('ann', notification('after the reset'));
    await finished(served);
    expect(written).toEqual(['ready:{}']);
  });

  it('ends every stream of a signed-out session at once, and no other session’s', async () => {
    const hub = new NotificationHub(10_000, { sessionCheckMs: 60_000 });
    const tabs = [fakeStream(), fakeStream(), fakeStream()];
    const keys = ['out', 'out', 'stays'];
    const served = tabs.map((tab, i) =>
      serveNotificationStream(
        tab.stream,
        hub,
        'ann',
        session(async () => true, keys[i]),
      ),
    );
    await until(() => tabs.every((t) => t.written.length === 1));
    expect(hub.streamCount('out')).toBe(2);
    expect(hub.endSession('out')).toBe(2); // the session row is gone; the hub is told in the same request
    hub.publish('ann', notification('after sign-out'));
    await finished(Promise.all(served.slice(0, 2)));
    await until(() => tabs[2]!.written.length === 2);
    expect(tabs.map((t) => t.written)).toEqual([['ready:{}'], ['ready:{}'], ['ready:{}', 'notification:after sign-out']]);
    tabs[2]!.abort();
    await finished(served[2]!);
    expect(hub.streamCount()).toBe(0);
  });

  it('refuses an eleventh stream of one session and the thousand-and-first of the process', async () => {
    const hub = new NotificationHub(10_000, { sessionCheckMs: 60_000 });
    const tabs = Array.from({ length: 1000 }, () => fakeStream());
    const served = tabs.map((tab, i) => {
      const key = i < 10 ? 'busy' : `s${i % 100}`;
      expect(hub.refusal(key)).toBeUndefined();
      return serveNotificationStream(
        tab.stream,
        hub,
        'ann',
        session(async () => true, key),
      );
    });
    expect(hub.refusal('busy')).toBe('process');
    tabs[999]!.abort();
    await finished(served[999]!);
    expect(hub.refusal('busy')).toBe('session');
    expect(hub.refusal('someone-else')).toBeUndefined();
    hub.closeAllStreams();
    await finished(Promise.all(served));
    expect(hub.streamCount()).toBe(0);
  });

  it('ends when the server closes every stream (shutdown)', async () => {
    const hub = new NotificationHub(10_000);
    const { stream, written } = fakeStream();
    const served = serveNotificationStream(
      stream,
      hub,
      'ann',
      session(async () => true),
    );
    await until(() => written.length === 1);
    hub.closeAllStreams();
    await finished(served);
    expect(hub.connectionCount).toBe(0);
  });
});
