import type { Logger } from 'pino';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { startWorker, type Worker, type WorkerSpec } from './worker.ts';

/**
 * The one shape of background work (jobs/worker.ts), on a fake clock: when it runs, one run at
 * a time, a nudge during a run, going on after a full batch (a turn of the event loop, or a
 * pause while the server is busy), a failure logged and tried again, stop and flush.
 */
const warn = vi.fn();
const logger = { warn } as unknown as Logger;
const workers: Worker[] = [];

// The clock is faked; a turn of the event loop (setImmediate) stays real, awaited with `turns`.
beforeEach(() => {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'Date'] });
  warn.mockClear();
});
afterEach(async () => {
  await Promise.all(workers.splice(0).map((w) => w.stop()));
  // The spy on the fake setInterval first: restored later, it would put the fake one back.
  vi.restoreAllMocks();
  vi.useRealTimers();
});

/** A few real turns of the event loop, for the rounds that follow each other at once. */
async function turns(n = 10): Promise<void> {
  for (let i = 0; i < n; i++) await new Promise((resolve) => setImmediate(resolve));
}

/** A worker whose runs the test ends one by one (`finish`), answering what it passes. */
function held(spec: Partial<WorkerSpec> = {}) {
  const runs: { finish: (more?: boolean) => void; signal: AbortSignal }[] = [];
  const worker = startWorker(
    {
      name: 'test worker',
      everyMs: 1_000,
      runOnce: (signal) => new Promise<boolean>((resolve) => runs.push({ finish: (more = false) => resolve(more), signal })),
      ...spec,
    },
    logger,
  );
  workers.push(worker);
  return { worker, runs };
}

/** A worker whose runs end at once, answering `answers` in turn (then false); an Error is thrown. */
function counted(answers: (boolean | Error)[] = [], spec: Partial<WorkerSpec> = {}) {
  let runs = 0;
  const runOnce = async () => {
    const answer = answers[runs++] ?? false;
    if (answer instanceof Error) throw answer;
    return answer;
  };
  const worker = startWorker({ name: 'test worker', everyMs: 1_000, runOnce, ...spec }, logger);
  workers.push(worker);
  return { worker, runs: () => runs };
}

describe('a worker', () => {
  it('runs once at start, then every everyMs, on a timer that keeps no process alive', async () => {
    const setInterval = vi.spyOn(globalThis, 'setInterval');
    const { runs } = counted();
    await vi.advanceTimersByTimeAsync(0);
    expect(runs()).toBe(1);
    await vi.advanceTimersByTimeAsync(1_000);
    expect(runs()).toBe(2);
    await vi.advanceTimersByTimeAsync(3_000);
    expect(runs()).toBe(5);
    const timer = setInterval.mock.results[0]!.value as NodeJS.Timeout;
    expect(timer.hasRef()).toBe(false);
  });

  it('without everyMs runs only when nudged or flushed', async () => {
    const { worker, runs } = counted([], { everyMs: undefined });
    await vi.advanceTimersByTimeAsync(60_000);
    expect(runs()).toBe(0);
    worker.nudge();
    await vi.advanceTimersByTimeAsync(0);
    expect(runs()).toBe(1);
    await worker.flush();
    expect(runs()).toBe(2);
  });

  it('runs one at a time: a tick during a run is dropped, a nudge makes it run again right after', async () => {
    const { worker, runs } = held();
    expect(runs).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(3_500); // three ticks while the first run is going
    expect(runs).toHaveLength(1);
    runs[0]!.finish();
    await turns();
    expect(runs).toHaveLength(1); // the ticks were the run's: nothing follows until the next one

    await vi.advanceTimersByTimeAsync(500);
    expect(runs).toHaveLength(2);
    worker.nudge();
    worker.nudge();
    expect(runs).toHaveLength(2);
    runs[1]!.finish();
    await turns();
    expect(runs).toHaveLength(3); // once, right after, however many nudges
    runs[2]!.finish();
    await turns();
    expect(runs).toHaveLength(3);
  });

  it('goes on at once while a run says more is waiting, after a turn of the event loop', async () => {
    const { runs } = counted([true, true, true]);
    await vi.advanceTimersByTimeAsync(0);
    await turns();
    expect(runs()).toBe(4); // three full rounds and the one that found the rest
    await vi.advanceTimersByTimeAsync(999);
    expect(runs()).toBe(4);
  });

  it('pauses busyPauseMs between full rounds while the server is busy', async () => {
    let busy = true;
    const { runs } = counted([true, true, true], { yieldWhenBusy: () => busy, busyPauseMs: 250 });
    await vi.advanceTimersByTimeAsync(0);
    expect(runs()).toBe(1);
    await vi.advanceTimersByTimeAsync(249);
    expect(runs()).toBe(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(runs()).toBe(2);
    busy = false; // quiet again: the rest at once
    await vi.advanceTimersByTimeAsync(250);
    await turns();
    expect(runs()).toBe(4);
  });

  it('logs a failed run (what failed, no stack) and tries again at the next tick', async () => {
    const { runs } = counted([new Error('the server went away')], { name: 'flaky' });
    await vi.advanceTimersByTimeAsync(0);
    expect(warn).toHaveBeenCalledTimes(1);
    const [fields, message] = warn.mock.calls[0]!;
    expect(fields).toEqual({ error: 'Error', message: 'the server went away', worker: 'flaky' });
    expect(JSON.stringify(fields)).not.toContain('at ');
    expect(message).toContain('flaky');
    await vi.advanceTimersByTimeAsync(1_000);
    expect(runs()).toBe(2);
    expect(warn).toHaveBeenCalledTimes(1);
  });

  it('stop waits for the run in flight, tells it to stop, stops the clock and lets go of what it holds', async () => {
    const close = vi.fn();
    const { worker, runs } = held({ close });
    let stopped = false;
    const stopping = worker.stop().then(() => (stopped = true));
    await vi.advanceTimersByTimeAsync(0);
    expect(runs[0]!.signal.aborted).toBe(true);
    expect(stopped).toBe(false);
    runs[0]!.finish(true); // more was waiting: it is left for the next start
    await stopping;
    expect(close).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(10_000);
    worker.nudge();
    await worker.flush();
    expect(runs).toHaveLength(1);
  });

  it('stop ends a pause at once', async () => {
    const { worker, runs } = counted([true, true], { yieldWhenBusy: () => true, busyPauseMs: 60_000 });
    await vi.advanceTimersByTimeAsync(0);
    expect(runs()).toBe(1); // now pausing a minute
    let stopped = false;
    void worker.stop().then(() => (stopped = true));
    await vi.advanceTimersByTimeAsync(0);
    expect(stopped).toBe(true);
    expect(runs()).toBe(1);
  });

  it('flush runs until nothing is due, after any run in flight', async () => {
    const { worker, runs } = held();
    let flushed = false;
    const flushing = worker.flush().then(() => (flushed = true));
    runs[0]!.finish(); // the run in flight may have looked before what the flush is for
    await turns();
    expect(runs).toHaveLength(2);
    runs[1]!.finish(true);
    await turns();
    expect(runs).toHaveLength(3);
    expect(flushed).toBe(false);
    runs[2]!.finish();
    await flushing;
    expect(runs).toHaveLength(3);
  });

  it('ignores a nudge it does not accept, but flushes', async () => {
    const { worker, runs } = counted([], { everyMs: undefined, acceptsNudge: () => false });
    worker.nudge();
    await vi.advanceTimersByTimeAsync(0);
    expect(runs()).toBe(0);
    await worker.flush();
    expect(runs()).toBe(1);
  });
});
