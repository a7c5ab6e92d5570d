/**
 * A per-process, fixed-window counter for high-volume public writes (analytics events),
 * where a database round trip per request would cost more than the write it guards. Each
 * app process counts on its own, so N processes allow up to N times the limit.
 */
export class MemoryRateLimit {
  private windows = new Map<string, { start: number; count: number }>();

  constructor(
    private readonly limit: number,
    private readonly windowMs: number,
    private readonly now: () => number = Date.now,
  ) {}

  /** Counts a hit; false when over the limit. */
  hit(key: string): boolean {
    const now = this.now();
    const start = now - (now % this.windowMs);
    let w = this.windows.get(key);
    if (!w || w.start !== start) {
      if (this.windows.size > 100_000) this.prune(start);
      w = { start, count: 0 };
      this.windows.set(key, w);
    }
    w.count++;
    return w.count <= this.limit;
  }

  private prune(currentStart: number) {
    for (const [key, w] of this.windows) if (w.start !== currentStart) this.windows.delete(key);
  }
}
