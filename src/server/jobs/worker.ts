import type { Logger } from 'pino';
import { describeError } from '../db/database-faults.ts';

/**
 * The one way background work runs: the outbox, the webhook sender, the reply mailbox, the
 * calendars and every maintenance job are each a `runOnce` that a worker calls (the list is
 * jobs/registry.ts). A worker runs once at start, then every `everyMs`, one run at a time:
 * - a tick while a run is going is dropped: that run is the tick's (a slow calendar server
 *   outlasts a tick; running again at once would find nothing new);
 * - a nudge (something was queued: do it now rather than at the next tick) during a run makes
 *   it run again right after, since the run may have looked before the thing was queued;
 * - a run that answers true (a full batch: more is waiting) is followed by the next at once,
 *   after a turn of the event loop, or, while `yieldWhenBusy()` says the server is busy
 *   serving requests, after a pause of `busyPauseMs`: a visitor's form comes first, and the
 *   backlog goes out at full speed once it is quiet;
 * - a run that throws is logged (what failed, never a stack: a database away is said once
 *   per run, not as pages of trace) and the next tick tries again.
 * Its timers never keep the process alive. (The group-commit batchers are no workers:
 * lib/group-commit.ts says why.)
 */
export type WorkerSpec = {
  /** Named in the log when a run fails. */
  name: string;
  /** How often it runs (and once at start); without it, only when nudged or flushed (the tests' outbox). */
  everyMs?: number;
  /** One round of work; true when more is waiting. `signal` aborts when the worker stops: a batch hands back what it has not begun. */
  runOnce: (signal: AbortSignal) => Promise<boolean | void>;
  /** True while the server is busy serving requests: between rounds, a pause instead of a turn of the event loop. */
  yieldWhenBusy?: () => boolean;
  /** That pause (default 250 ms); stopping ends it. */
  busyPauseMs?: number;
  /** Tests hold the pause themselves. */
  pause?: (ms: number) => Promise<void>;
  /** Whether a nudge is worth a run now (default: always); the outbox with email off has nothing to send. */
  acceptsNudge?: () => boolean;
  /** What to let go once stopped (the outbox's connections to the mail server). */
  close?: () => void;
};

export type Worker = {
  /** Something was queued: run now, or right after the run in flight. */
  nudge(): void;
  /** Runs now and until nothing more is due (tests and the benchmark). */
  flush(): Promise<void>;
  /** Stops the clock, ends a pause, and waits for the run in flight. */
  stop(): Promise<void>;
};

const DEFAULT_BUSY_PAUSE_MS = 250;

export function startWorker(spec: WorkerSpec, logger: Logger): Worker {
  const stopping = new AbortController();
  let running: Promise<void> | undefined;
  let again = false;
  let endPause: (() => void) | undefined;
  const stopped = () => stopping.signal.aborted;

  /** Between rounds: a pause while the server is busy with requests, else a turn of the event loop. */
  async function yieldToRequests(): Promise<void> {
    if (!(spec.yieldWhenBusy?.() ?? false)) return new Promise((resolve) => setImmediate(resolve));
    const ms = spec.busyPauseMs ?? DEFAULT_BUSY_PAUSE_MS;
    if (spec.pause) return spec.pause(ms);
    await new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, ms);
      timer.unref();
      endPause = () => (clearTimeout(timer), resolve());
    });
    endPause = undefined;
  }

  async function drain(): Promise<void> {
    try {
      do {
        again = false;
        if ((await spec.runOnce(stopping.signal)) === true) again = true;
        if (again && !stopped()) await yieldToRequests();
      } while (again && !stopped());
    } catch (err) {
      logger.warn({ ...describeError(err), worker: spec.name }, `${spec.name}: a run failed; it is tried again at its next tick`);
    }
  }

  /** A run now; `asked`: a nudge, which a run in flight does not cover (a tick, it does). */
  function run(asked: boolean): void {
    if (stopped()) return;
    if (running) {
      if (asked) again = true;
      return;
    }
    running = drain().finally(() => {
      running = undefined;
    });
  }

  let timer: NodeJS.Timeout | undefined;
  if (spec.everyMs !== undefined) {
    timer = setInterval(() => run(false), spec.everyMs);
    timer.unref();
    run(false);
  }

  return {
    nudge() {
      if (spec.acceptsNudge?.() ?? true) run(true);
    },
    async flush() {
      run(true);
      while (running) await running;
    },
    async stop() {
      stopping.abort();
      clearInterval(timer);
      endPause?.();
      await running;
      spec.close?.();
    },
  };
}
