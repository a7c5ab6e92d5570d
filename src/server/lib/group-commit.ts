/**
 * Group commit: callers add items and wait; items are written by one `write` call (one
 * multi-row INSERT, one transaction) per batch, and every caller is answered only after
 * that write has committed. So a burst of events costs a few transactions instead of one
 * each, and an acknowledged event is never lost.
 *
 * A batch is whatever queued up while the previous writes were in flight, plus what
 * arrives within `maxWaitMs` once a write slot is free. `maxWaitMs: 0` waits only for the
 * requests already read in the same turn of the event loop (setImmediate): under load the
 * batches fill up by themselves while a write is in flight, so a timer would only add its
 * delay to every request (docs/performance.md, "Measurements behind the code").
 *
 * A failed batch is split in two and each half written again, down to single items, so a
 * caller is rejected only for its own item: one bad event among a hundred costs a few more
 * writes (about 2·log2(batch) per bad item), not the other callers' answers. An error for
 * which `isolates` returns false (the database is down: every half would fail the same way)
 * rejects the whole batch at once. docs/security.md, "Analytics: isolation, retention and caps".
 *
 * A batcher is no background worker (jobs/worker.ts): it has no clock and nothing of its own
 * to look for. It writes what requests hand it, while they wait, and answers each of them
 * with its own write's outcome; a worker finds its work in the database and answers nobody.
 */
type Waiter<T> = { item: T; resolve: () => void; reject: (err: unknown) => void };

export type GroupCommitOptions = {
  maxBatch: number;
  maxWaitMs: number;
  maxInFlight: number;
  /** Whether a failed write is worth retrying without some of its items (default: always). */
  isolates?: (err: unknown) => boolean;
};

type Scheduled = { cancel: () => void };

function schedule(ms: number, run: () => void): Scheduled {
  if (ms <= 0) {
    const handle = setImmediate(run);
    return { cancel: () => clearImmediate(handle) };
  }
  const handle = setTimeout(run, ms);
  return { cancel: () => clearTimeout(handle) };
}

export class GroupCommit<T> {
  private queue: Waiter<T>[] = [];
  private timer: Scheduled | undefined;
  private inFlight = 0;

  constructor(
    private readonly write: (items: T[]) => Promise<void>,
    private readonly options: GroupCommitOptions = { maxBatch: 500, maxWaitMs: 5, maxInFlight: 4 },
  ) {}

  add(item: T): Promise<void> {
    return new Promise((resolve, reject) => {
      this.queue.push({ item, resolve, reject });
      if (this.queue.length >= this.options.maxBatch) this.flush();
      // With every write slot busy, the next write's completion flushes the queue.
      else if (this.inFlight < this.options.maxInFlight) this.timer ??= schedule(this.options.maxWaitMs, () => this.flush());
    });
  }

  /** Items waiting to be written (for shutdown). */
  get pending(): number {
    return this.queue.length + this.inFlight;
  }

  private flush(): void {
    this.timer?.cancel();
    this.timer = undefined;
    while (this.queue.length > 0 && this.inFlight < this.options.maxInFlight) {
      const batch = this.queue.splice(0, this.options.maxBatch);
      this.inFlight++;
      void this.writeIsolating(batch).then((failures) => {
        this.inFlight--;
        for (const w of batch) {
          const failure = failures.get(w);
          if (failure) w.reject(failure.err);
          else w.resolve();
        }
        if (this.queue.length > 0) this.flush();
      });
    }
  }

  /**
   * Writes a batch; after a failure, each half on its own, within the same write slot.
   * Resolves (never rejects) with the callers whose items could not be written, and why.
   */
  private async writeIsolating(
    batch: Waiter<T>[],
    failures = new Map<Waiter<T>, { err: unknown }>(),
  ): Promise<Map<Waiter<T>, { err: unknown }>> {
    try {
      await this.write(batch.map((w) => w.item));
    } catch (err) {
      if (batch.length === 1 || !(this.options.isolates?.(err) ?? true)) {
        for (const w of batch) failures.set(w, { err });
      } else {
        const half = Math.ceil(batch.length / 2);
        await this.writeIsolating(batch.slice(0, half), failures);
        await this.writeIsolating(batch.slice(half), failures);
      }
    }
    return failures;
  }
}
