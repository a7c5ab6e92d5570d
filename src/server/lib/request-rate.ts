import { performance } from 'node:perf_hooks';

/**
 * Above this many requests per second the server is busy serving people: background work (the
 * email outbox, the webhook worker) then sends one batch at a time with a pause between, and
 * catches up after.
 */
export const BUSY_REQUESTS_PER_SECOND = 50;

/**
 * How many requests per second this process is serving, over the last half second or so:
 * background work (the email outbox, webhooks) asks it to step aside while visitors are being served.
 * Counting is one addition per request; windows of `windowMs`, the rate over the previous
 * window and the current one.
 */
export class RequestRate {
  private current = 0;
  private previous = 0;
  private windowStart: number;

  constructor(
    private readonly windowMs = 250,
    private readonly now: () => number = () => performance.now(),
  ) {
    this.windowStart = now();
  }

  hit(): void {
    this.roll();
    this.current += 1;
  }

  /** Serving more than BUSY_REQUESTS_PER_SECOND. */
  busy(): boolean {
    return this.perSecond() > BUSY_REQUESTS_PER_SECOND;
  }

  perSecond(): number {
    this.roll();
    const elapsed = this.now() - this.windowStart + this.windowMs;
    return ((this.previous + this.current) / elapsed) * 1000;
  }

  private roll(): void {
    const now = this.now();
    const windows = Math.floor((now - this.windowStart) / this.windowMs);
    if (windows <= 0) return;
    this.previous = windows === 1 ? this.current : 0;
    this.current = 0;
    this.windowStart += windows * this.windowMs;
  }
}
