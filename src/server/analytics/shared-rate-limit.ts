import type { Database } from '../db/client.ts';
import { addRateLimitHits } from '../db/queries/rate-limits-queries.ts';

type Waiting = { key: string; resolve: (allowed: boolean) => void; reject: (err: unknown) => void };

/**
 * A fixed-window limit for high-volume public writes (analytics events), counted in the
 * database so every app process shares it, without a round trip per request: the hits that
 * arrive while one count is in flight are counted together by the next (one statement for
 * any number of requests and keys). Within a batch, a key's hits are numbered after
 * everything counted before them, and those past the limit are refused: exact across
 * processes, as the database orders the batches.
 */
export class SharedRateLimit {
  private queue: Waiting[] = [];
  private inFlight = false;

  constructor(
    private readonly database: () => Database | undefined,
    private readonly limit: number,
    private readonly windowSeconds: number,
  ) {}

  /** Counts one hit on `key`; resolves to whether it is within the limit. */
  hit(key: string): Promise<boolean> {
    return new Promise((resolve, reject) => {
      this.queue.push({ key, resolve, reject });
      if (!this.inFlight) {
        this.inFlight = true;
        // The requests read in this turn of the event loop join the first batch.
        setImmediate(() => void this.drain());
      }
    });
  }

  private async drain(): Promise<void> {
    while (this.queue.length > 0) {
      const batch = this.queue.splice(0, 5000);
      const hits = new Map<string, number>();
      for (const w of batch) hits.set(w.key, (hits.get(w.key) ?? 0) + 1);
      try {
        const db = this.database();
        if (!db) throw new Error('database not ready');
        const counts = await addRateLimitHits(db.db, hits, this.windowSeconds);
        // The count before this batch, per key; each hit takes the next number.
        const next = new Map([...hits].map(([key, n]) => [key, counts.get(key)! - n]));
        for (const w of batch) {
          const number = next.get(w.key)! + 1;
          next.set(w.key, number);
          w.resolve(number <= this.limit);
        }
      } catch (err) {
        for (const w of batch) w.reject(err);
      }
    }
    this.inFlight = false;
  }
}
