import { performance } from 'node:perf_hooks';

/**
 * How many requests per second this process is serving, over the last half second or so:
 * background work (the email outbox) asks it to step aside while visitors are being served.
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
