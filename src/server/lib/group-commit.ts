/**
 * Group commit: callers add items and wait; items that arrive within `maxWaitMs` of each
 * other are written by one `write` call (one multi-row INSERT, one transaction), and every
 * caller is answered only after that write has committed. So a burst of events costs a
 * few transactions instead of one each, and an acknowledged event is never lost.
 */
type Waiter<T> = { item: T; resolve: () => void; reject: (err: unknown) => void };

export type GroupCommitOptions = { maxBatch: number; maxWaitMs: number; maxInFlight: number };

export class GroupCommit<T> {
  private queue: Waiter<T>[] = [];
  private timer: ReturnType<typeof setTimeout> | undefined;
  private inFlight = 0;

  constructor(
    private readonly write: (items: T[]) => Promise<void>,
    private readonly options: GroupCommitOptions = { maxBatch: 500, maxWaitMs: 5, maxInFlight: 4 },
  ) {}

  add(item: T): Promise<void> {
    return new Promise((resolve, reject) => {
      this.queue.push({ item, resolve, reject });
      if (this.queue.length >= this.options.maxBatch) this.flush();
      else this.timer ??= setTimeout(() => this.flush(), this.options.maxWaitMs);
    });
  }

  /** Items waiting to be written (for shutdown). */
  get pending(): number {
    return this.queue.length + this.inFlight;
  }

  private flush(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    while (this.queue.length > 0 && this.inFlight < this.options.maxInFlight) {
      const batch = this.queue.splice(0, this.options.maxBatch);
      this.inFlight++;
      this.write(batch.map((w) => w.item))
        .then(
          () => batch.forEach((w) => w.resolve()),
          (err: unknown) => batch.forEach((w) => w.reject(err)),
        )
        .finally(() => {
          this.inFlight--;
          if (this.queue.length > 0) this.flush();
        });
    }
  }
}
