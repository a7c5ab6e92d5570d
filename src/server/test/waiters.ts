/**
 * Promises that wait for something a test server collects (mail, stream events) to show up:
 * each is checked at once and again on every `notify()`, and rejects with `describe()` after
 * `timeoutMs`. The test helpers' one way to wait on a condition without polling.
 */
export class Waiters {
  private readonly checks = new Set<() => void>();

  /** Something new arrived: every pending wait looks again. */
  notify(): void {
    this.checks.forEach((check) => check());
  }

  /** Resolves with `find()`'s first non-undefined answer; rejects with `describe()` after `timeoutMs`. */
  until<T>(find: () => T | undefined, timeoutMs: number, describe: () => string): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      const check = () => {
        const found = find();
        if (found === undefined) return;
        cleanup();
        resolve(found);
      };
      const timer = setTimeout(() => {
        cleanup();
        reject(new Error(describe()));
      }, timeoutMs);
      const cleanup = () => {
        clearTimeout(timer);
        this.checks.delete(check);
      };
      this.checks.add(check);
      check();
    });
  }
}
